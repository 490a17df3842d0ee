from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base
from app.db.jsonb import JSONVariant
from app.db.models._columns import CreatedAt, utcnow


class OutboxMessage(Base):
    """A background job written in the same transaction as the scan it is about.

    The relay hands pending rows to the queue and marks them delivered; while Redis is down
    they wait here (with backoff), so an accepted scan never loses its evaluation. The job
    marks its row completed when the task finished; a delivered row not completed within
    the redelivery lease is handed to the queue again (app/worker/outbox.py).
    """

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    created_at: Mapped[CreatedAt]
    task: Mapped[str] = mapped_column(String(64))
    args: Mapped[list[Any]] = mapped_column(JSONVariant, default=list)
    job_id: Mapped[str] = mapped_column(String(160), unique=True)
    available_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    attempts: Mapped[int] = mapped_column(default=0)
    last_error: Mapped[str | None] = mapped_column(Text)
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    # Set by the job when its task finished (migration 0008): until then a delivered row is
    # delivered again after its lease, as job `<job_id>@<deliveries>`.
    completed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    deliveries: Mapped[int] = mapped_column(default=0, server_default="0")
