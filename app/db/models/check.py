"""Checks of a student's worked steps and the evidence behind them (issue 30, migration 0010).

A check sent with steps is stored, tenant-scoped: what was sent, what the student was shown,
and every witness (`CheckVerdict`): the answer check's verdicts, each step's symbolic finding
and the model's step critique. `DELETE /v1/checks/{id}` erases all of it. The rows mirror a
scan's `verifications` ledger (method, verifier, verdict, score, rationale, cost), which cannot
hold them: a verdict there belongs to a solution, and a check has none.
"""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import Float, ForeignKey, Integer, String, Text, Uuid
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.base import Base
from app.db.jsonb import JSONVariant
from app.db.models._columns import CreatedAt, UUIDPk


class Check(Base):
    __tablename__ = "checks"

    id: Mapped[UUIDPk]
    created_at: Mapped[CreatedAt]
    # The API key's tenant; NULL for checks made without a key (the open mode).
    tenant: Mapped[str | None] = mapped_column(String(64), index=True)
    # The user a per-student token made it for (only that token's user may erase it); NULL
    # for a check made with the tenant's key (migration 0011).
    user_id: Mapped[str | None] = mapped_column(String(128), index=True)
    problem_text: Mapped[str] = mapped_column(Text)
    answer: Mapped[str] = mapped_column(Text)
    steps: Mapped[list[str]] = mapped_column(JSONVariant, default=list)
    language: Mapped[str] = mapped_column(String(8))
    # What the student was shown: the answer's verdict and each step's (StepCheck as JSON).
    verdict: Mapped[str] = mapped_column(String(16))  # correct | incorrect | unknown
    method: Mapped[str | None] = mapped_column(String(16))
    confidence: Mapped[float | None] = mapped_column(Float)
    first_error_step: Mapped[int | None] = mapped_column(Integer)
    first_flagged_step: Mapped[int | None] = mapped_column(Integer)
    step_checks: Mapped[list[dict[str, Any]]] = mapped_column(JSONVariant, default=list)

    verdicts: Mapped[list[CheckVerdict]] = relationship(
        back_populates="check", order_by="CheckVerdict.created_at", lazy="raise"
    )


class CheckVerdict(Base):
    """One witness on a check. `judged`: `answer` (the answer check's validator verdicts) or
    `work` (a step's symbolic finding, `step` its index; the step critique, `step` the step
    it named, NULL when it found none or abstained). Score: P(what was judged is right)."""

    __tablename__ = "check_verdicts"

    id: Mapped[UUIDPk]
    created_at: Mapped[CreatedAt]
    check_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("checks.id", ondelete="CASCADE"), index=True
    )
    judged: Mapped[str] = mapped_column(String(8))  # answer | work
    step: Mapped[int | None] = mapped_column(Integer)
    method: Mapped[str] = mapped_column(String(16))  # programmatic | ground_truth | llm
    verifier_id: Mapped[str] = mapped_column(String(128))
    verdict: Mapped[str] = mapped_column(String(8))  # approve | reject | abstain
    score: Mapped[float | None] = mapped_column(Float)
    rationale: Mapped[str | None] = mapped_column(Text)
    latency_ms: Mapped[float] = mapped_column(Float, default=0.0)
    tokens: Mapped[int] = mapped_column(default=0)

    check: Mapped[Check] = relationship(back_populates="verdicts", lazy="raise")
