from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from sqlalchemy import Float, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.base import Base
from app.db.documents import DeepEvaluation, StoredStep
from app.db.jsonb import JSONVariant, PydanticJSON
from app.db.models._columns import CreatedAt, UUIDPk

if TYPE_CHECKING:
    from app.db.models.scan import Scan
    from app.db.models.verification import VerificationRecord


class Solution(Base):
    """The answer returned to the student, with its verification badge."""

    __tablename__ = "solutions"

    id: Mapped[UUIDPk]
    created_at: Mapped[CreatedAt]
    scan_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("scans.id", ondelete="CASCADE"), index=True
    )
    provider: Mapped[str | None] = mapped_column(String(64), index=True)
    model: Mapped[str | None] = mapped_column(String(128))
    final_answer: Mapped[str | None] = mapped_column(Text)
    steps: Mapped[list[StoredStep]] = mapped_column(PydanticJSON(list[StoredStep]), default=list)
    verification_status: Mapped[str] = mapped_column(String(16), index=True)
    verification_confidence: Mapped[float] = mapped_column(Float, default=0.0)
    confidence_calibrated: Mapped[bool] = mapped_column(default=False)
    # Internal detail for analysts (may name a provider); never shown to students.
    caution_reason: Mapped[str | None] = mapped_column(Text)
    # Stable, vendor-free code (app/solutions/caution.py); rendered in the scan's language.
    caution_code: Mapped[str | None] = mapped_column(String(32))
    independent_answer: Mapped[str | None] = mapped_column(Text)
    ground_truth: Mapped[str | None] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(default=0)
    providers_tried: Mapped[list[str]] = mapped_column(PydanticJSON(list[str]), default=list)
    knowledge_points: Mapped[list[str]] = mapped_column(PydanticJSON(list[str]), default=list)
    hint: Mapped[str | None] = mapped_column(Text)
    latency_ms: Mapped[float] = mapped_column(Float, default=0.0)
    # Model requests this scan made before answering (every attempt, verifier and sample):
    # its cost. Migration 0007.
    model_calls: Mapped[int] = mapped_column(default=0, server_default="0")
    # Filled in by the worker after the response (design-notes §4); null until then.
    deep_evaluation: Mapped[DeepEvaluation | None] = mapped_column(PydanticJSON(DeepEvaluation))
    # Badge changes after the response, oldest first: {"at", "from", "to", "reason",
    # "evidence_ids"} (app/solutions/schemas.py StatusChange). Plain JSON so the worker can
    # append dicts; reassign the list (no mutation tracking).
    status_history: Mapped[list[dict[str, Any]]] = mapped_column(
        JSONVariant, default=list, server_default="[]"
    )

    scan: Mapped[Scan] = relationship(back_populates="solutions", lazy="raise")
    verifications: Mapped[list[VerificationRecord]] = relationship(
        back_populates="solution", order_by="VerificationRecord.created_at", lazy="raise"
    )
