"""One verifier's judgement of one answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

VerdictKind = Literal["approve", "reject", "abstain"]
Method = Literal["programmatic", "ground_truth", "llm"]


@dataclass(frozen=True, slots=True)
class Verdict:
    verdict: VerdictKind
    method: Method
    verifier_id: str  # e.g. "symbolic:substitution", "problem_bank:gsm8k", "gemini:quick_verify"
    # This verifier's estimate that the answer is correct; None when it abstained.
    score: float | None
    rationale: str = ""
    independent_answer: str | None = None
    latency_ms: float = 0.0
    tokens: int = 0
    # An abstention that ends the validation: the value is right but the answer is not one to
    # what is asked ("7 × 8" for "7 × 8 = ?"), so no later method may call it correct.
    conclusive: bool = False

    @property
    def decisive(self) -> bool:
        return self.verdict != "abstain"


def abstain(
    method: Method,
    verifier_id: str,
    why: str,
    latency_ms: float = 0.0,
    *,
    conclusive: bool = False,
) -> Verdict:
    return Verdict(
        "abstain", method, verifier_id, None, why, latency_ms=latency_ms, conclusive=conclusive
    )
