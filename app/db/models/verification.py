from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from sqlalchemy import Float, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.base import Base
from app.db.models._columns import CreatedAt, UUIDPk
from app.metrics import VERIFIER_ABSTENTIONS

if TYPE_CHECKING:
    from app.db.models.solution import Solution
    from app.verification.verdict import Verdict


class VerificationRecord(Base):
    """One verdict by one verifier on one attempt (quick verify now; consensus/spot later)."""

    __tablename__ = "verifications"

    id: Mapped[UUIDPk]
    created_at: Mapped[CreatedAt]
    solution_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("solutions.id", ondelete="CASCADE"), index=True
    )
    tier: Mapped[str] = mapped_column(String(16))  # quick | consensus | spot
    attempt: Mapped[int] = mapped_column(default=1)
    answer_provider: Mapped[str | None] = mapped_column(String(64))  # whose answer was judged
    answer_model: Mapped[str | None] = mapped_column(String(128))  # and its model (0007)
    answer: Mapped[str | None] = mapped_column(Text)
    method: Mapped[str] = mapped_column(String(16), index=True)  # programmatic|ground_truth|llm
    verifier_id: Mapped[str] = mapped_column(String(128))
    verdict: Mapped[str] = mapped_column(String(8))  # approve | reject | abstain
    score: Mapped[float | None] = mapped_column(Float)
    rationale: Mapped[str | None] = mapped_column(Text)
    independent_answer: Mapped[str | None] = mapped_column(Text)
    latency_ms: Mapped[float] = mapped_column(Float, default=0.0)
    tokens: Mapped[int] = mapped_column(default=0)

    solution: Mapped[Solution] = relationship(back_populates="verifications", lazy="raise")

    @classmethod
    def from_verdict(
        cls,
        solution: Solution,
        verdict: Verdict,
        *,
        tier: str,
        attempt: int,
        answer_provider: str | None,
        answer: str | None,
        answer_model: str | None = None,
    ) -> VerificationRecord:
        """One verifier's verdict on one answer of `solution`, as a row (an abstention is
        counted for /metrics here, where every recorded verdict passes)."""
        if verdict.verdict == "abstain":
            VERIFIER_ABSTENTIONS.labels(tier, verdict.method).inc()
        return cls(
            solution=solution,
            solution_id=solution.id,
            tier=tier,
            attempt=attempt,
            answer_provider=answer_provider,
            answer_model=answer_model,
            answer=answer,
            method=verdict.method,
            verifier_id=verdict.verifier_id,
            verdict=verdict.verdict,
            score=verdict.score,
            rationale=verdict.rationale,
            independent_answer=verdict.independent_answer,
            latency_ms=verdict.latency_ms,
            tokens=verdict.tokens,
        )
