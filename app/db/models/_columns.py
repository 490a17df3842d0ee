"""Column helpers shared by the tables."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated

from sqlalchemy import DateTime, Uuid
from sqlalchemy.orm import mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """A stored time, aware: SQLite keeps no time zone, its times are UTC stored naive."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


UUIDPk = Annotated[uuid.UUID, mapped_column(Uuid, primary_key=True, default=uuid.uuid4)]
CreatedAt = Annotated[
    datetime, mapped_column(DateTime(timezone=True), default=utcnow, index=True, nullable=False)
]
