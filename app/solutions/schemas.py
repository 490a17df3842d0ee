"""GET /v1/solutions/{id}: a solution with every verdict, its evaluation and badge history."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from app.scans.schemas import SolutionResponse
from app.schemas.common import UtcDateTime, VerificationStatus
from app.solutions.evaluation_schemas import DeepEvaluation


class VerificationOut(BaseModel):
    """One verdict on an answer (for operators)."""

    model_config = ConfigDict(from_attributes=True)

    tier: str = Field(description="quick, consensus or spot_check.", examples=["quick"])
    attempt: int = Field(description="The solving attempt it checked.", examples=[1])
    answer_provider: str | None = Field(
        description="Who produced the checked answer.", examples=["symbolic"]
    )
    answer: str | None = Field(description="The checked answer.", examples=["x = 4"])
    method: str = Field(description="programmatic, ground_truth or llm.", examples=["programmatic"])
    verifier_id: str = Field(
        description="Which verifier judged.", examples=["symbolic:substitution"]
    )
    verdict: str = Field(description="approve, reject or abstain.", examples=["approve"])
    score: float | None = Field(description="The verifier's score in [0, 1].", examples=[1.0])
    rationale: str | None = Field(
        description="The verifier's reasoning (operators).", examples=["2*4 + 3 = 11"]
    )
    independent_answer: str | None = Field(description="The verifier's own answer.", examples=["4"])
    latency_ms: float = Field(description="How long it took.", examples=[12.5])


class StatusChange(BaseModel):
    """One change of badge or answer after the response (e.g. a later check disagreed, or the
    MARS second chance replaced the answer)."""

    model_config = ConfigDict(populate_by_name=True)

    at: UtcDateTime = Field(description="When it changed (UTC).", examples=["2026-11-21T13:05:00Z"])
    from_: VerificationStatus = Field(
        alias="from", description="The badge before.", examples=["verified"]
    )
    to: VerificationStatus = Field(description="The badge after.", examples=["caution"])
    reason: str | None = Field(
        default=None, description="Why it changed.", examples=["consensus disagreed"]
    )
    evidence_ids: list[str] = Field(
        default_factory=list,
        description="Ids of the verifications behind the change.",
        examples=[["12", "13"]],
    )
    answer: str | None = Field(
        default=None,
        description="The answer after the change (null on changes recorded before it was kept).",
        examples=["x = 4"],
    )
    answer_changed: bool = Field(
        default=False, description="Whether this change replaced the answer.", examples=[True]
    )
    confidence: float | None = Field(
        default=None, description="The confidence after the change.", examples=[0.42]
    )


class SolutionDetail(SolutionResponse):
    """A solution with every verdict, its deep evaluation and its badge history."""

    verifications: list[VerificationOut] = Field(
        description="Every verdict, oldest first.", examples=[[]]
    )
    deep_evaluation: DeepEvaluation | None = Field(
        description="The deep evaluation; null until the background job ran.", examples=[None]
    )
    status_history: list[StatusChange] = Field(
        default_factory=list,
        description="Badge changes after the response, oldest first.",
        examples=[[]],
    )
