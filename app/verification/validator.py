"""DELLM's validator: programmatic > ground truth > LLM, first decisive method wins.

Stages are awaited lazily in priority order, so a programmatic verdict never pays for an LLM
call. A stage that abstains is recorded and the next one runs; if all abstain the outcome is
`passed=None` ("could not verify"), which the pipeline reports as unverified. A conclusive
abstention (the right value, not worked out) ends it there: unknown, never approved later.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from app.verification.verdict import Method, Verdict

Stage = Callable[[], Awaitable[Verdict]]


@dataclass(frozen=True, slots=True)
class Thresholds:
    programmatic: float = 0.95
    ground_truth: float = 0.95
    llm: float = 0.75

    def for_method(self, method: Method) -> float:
        return float(getattr(self, method))


@dataclass(slots=True)
class ValidationOutcome:
    passed: bool | None
    confidence: float
    primary_method: Method | None = None
    independent_answer: str | None = None
    error: str | None = None
    verdicts: list[Verdict] = field(default_factory=list)

    @property
    def approved(self) -> bool | None:
        """The deciding verdict's direction, whatever its score: an approval below the
        method's threshold is uncertain (design-notes §3: retried), not a failure."""
        if self.primary_method is None:
            return None
        decisive = next(v for v in reversed(self.verdicts) if v.decisive)
        return decisive.verdict == "approve"


async def validate(stages: Sequence[Stage], thresholds: Thresholds) -> ValidationOutcome:
    verdicts: list[Verdict] = []
    for stage in stages:
        verdict = await stage()
        verdicts.append(verdict)
        if verdict.conclusive:
            break  # "not worked out": unknown, whatever a later method would say
        if not verdict.decisive:
            continue
        assert verdict.score is not None
        passed = verdict.score >= thresholds.for_method(verdict.method)
        return ValidationOutcome(
            passed=passed,
            confidence=verdict.score,
            primary_method=verdict.method,
            independent_answer=verdict.independent_answer,
            error=None if passed else verdict.rationale or "the answer did not pass verification",
            verdicts=verdicts,
        )
    reasons = "; ".join(f"{v.method}: {v.rationale}" for v in verdicts) or "no verifier available"
    return ValidationOutcome(passed=None, confidence=0.0, error=reasons, verdicts=verdicts)
