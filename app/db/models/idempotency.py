from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base
from app.db.jsonb import JSONVariant
from app.db.models._columns import utcnow


class IdempotencyKey(Base):
    """A client's Idempotency-Key: claimed by inserting (unique per tenant), then the first
    response is stored so retries replay it."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("tenant", "key", name="uq_idempotency_keys_tenant_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    # '' for the open (keyless) mode, so the unique constraint still applies.
    tenant: Mapped[str] = mapped_column(String(64))
    key: Mapped[str] = mapped_column(String(255))
    route: Mapped[str] = mapped_column(String(64))
    request_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, index=True
    )
    completed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    status_code: Mapped[int | None] = mapped_column(Integer)
    response_body: Mapped[Any] = mapped_column(JSONVariant)
    response_headers: Mapped[dict[str, str] | None] = mapped_column(JSONVariant)
