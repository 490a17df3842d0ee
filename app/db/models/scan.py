from __future__ import annotations

import uuid
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import DateTime, Float, ForeignKey, Index, String, Text, Uuid
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.base import Base
from app.db.jsonb import PydanticJSON
from app.db.models._columns import CreatedAt, UUIDPk

if TYPE_CHECKING:
    from app.db.models.solution import Solution


class Scan(Base):
    """What the student sent, and what ANALYZE made of it."""

    __tablename__ = "scans"
    # Keyset pagination of a tenant's history: newest first on (created_at, id).
    __table_args__ = (Index("ix_scans_tenant_created_id", "tenant", "created_at", "id"),)

    id: Mapped[UUIDPk]
    created_at: Mapped[CreatedAt]
    # The API key's tenant; NULL for scans made without a key (the embedded, open mode).
    tenant: Mapped[str | None] = mapped_column(String(64), index=True)
    # Opaque end-user id set by the app's backend (history per user); never interpreted.
    user_id: Mapped[str | None] = mapped_column(String(128), index=True)
    # queued | running | done | failed (app/schemas/common.py ScanState).
    state: Mapped[str] = mapped_column(String(16), default="done", server_default="done")
    failure_code: Mapped[str | None] = mapped_column(String(32))
    updated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    source: Mapped[str] = mapped_column(String(16))  # text | image
    problem_text: Mapped[str] = mapped_column(Text)
    image_sha256: Mapped[str | None] = mapped_column(String(64))
    image_bytes: Mapped[int | None]
    ocr_confidence: Mapped[float | None] = mapped_column(Float)
    # What a model that reads images read off the photo (LaTeX), beside the OCR's reading in
    # problem_text; NULL when none read it. Migration 0009.
    second_reading: Mapped[str | None] = mapped_column(Text)
    # The photo scan (same tenant, same user when bound) this text scan corrects: the student
    # sent what the photo says. NULL once that scan is erased. Migration 0009.
    corrects_scan_id: Mapped[uuid.UUID | None] = mapped_column(
        Uuid, ForeignKey("scans.id", ondelete="SET NULL"), index=True
    )
    subject: Mapped[str] = mapped_column(String(32), index=True)
    grade_band: Mapped[str] = mapped_column(String(16))
    # The grade the caller sent, normalised ("7" for "grade 7" or "初一"); NULL when none was
    # sent (analytics then group by the band). Migration 0012.
    grade: Mapped[str | None] = mapped_column(String(32))
    difficulty: Mapped[str] = mapped_column(String(16), index=True)
    language: Mapped[str] = mapped_column(String(8))
    topics: Mapped[list[str]] = mapped_column(PydanticJSON(list[str]), default=list)

    solutions: Mapped[list[Solution]] = relationship(
        back_populates="scan", order_by="Solution.created_at", lazy="raise"
    )
