"""Rows that belong to a scan besides its solutions: queued input and progress events."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    Uuid,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base
from app.db.jsonb import JSONVariant
from app.db.models._columns import utcnow


class ScanInput(Base):
    """What a queued scan needs so any worker can run it; deleted once processed."""

    __tablename__ = "scan_inputs"

    scan_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("scans.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    text: Mapped[str | None] = mapped_column(Text)
    image: Mapped[bytes | None] = mapped_column(LargeBinary)
    content_type: Mapped[str | None] = mapped_column(String(64))
    options: Mapped[dict[str, Any] | None] = mapped_column(JSONVariant)


class ScanEvent(Base):
    """One progress event of a scan (SSE `id` is `seq`), durable and readable anywhere."""

    __tablename__ = "scan_events"
    __table_args__ = (UniqueConstraint("scan_id", "seq", name="uq_scan_events_scan_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scan_id: Mapped[uuid.UUID] = mapped_column(Uuid, ForeignKey("scans.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any] | None] = mapped_column(JSONVariant)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
