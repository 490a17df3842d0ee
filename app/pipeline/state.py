"""SolveState: what flows through the graph (the design's verify_* fields plus the rest)."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Literal

from app.llm.outputs import SolveOutput
from app.verification.verdict import Verdict

VerificationStatus = Literal["verified", "unverified", "caution"]


@dataclass(slots=True)
class Example:
    """A similar solved problem from the problem bank."""

    question: str
    solution: str
    final_answer: str
    similarity: float
    same_problem: bool = False


@dataclass(slots=True)
class AttemptRecord:
    """One SOLVE → QUICK_VERIFY round, kept for the response and the verifications table."""

    number: int
    provider: str
    model: str
    final_answer: str
    verify_passed: bool | None
    verify_confidence: float
    verdicts: list[Verdict]
    latency_ms: float
    # What the best-attempt choice needs to hand this attempt back as the answer.
    solution: SolveOutput | None = None
    verify_method: str | None = None
    verify_signal: float = 0.0
    verify_calibrated: bool = False
    verify_error: str | None = None
    independent_answer: str | None = None
    # Why model evidence cannot verify this answer, only a proof (combiner.only_a_proof): it
    # does not plainly state one value, the problem's figure is drawing code; None: it may.
    proof_only: str | None = None


@dataclass(slots=True)
class SolveState:
    # Input
    problem_text: str = ""
    image: bytes | None = None
    subject_hint: str | None = None
    grade_hint: str | None = None
    # OCR
    ocr_confidence: float | None = None
    ocr_latex: str | None = None  # the photo's structured reading, when the layout step read it
    ocr_unread: str | None = None  # why the reading misses part of the photo: not solved
    # What a model that reads images read off the photo (LaTeX), when one did (app/pipeline/
    # reading.py); when it is not the same problem as the OCR's reading, nothing is solved.
    second_reading: str | None = None
    readings_disagree: bool = False
    error: str | None = None  # set when the input cannot be processed at all
    # ANALYZE
    subject: str = "general"
    grade_band: str = "primary"
    difficulty: str = "easy"
    language: Literal["zh", "en"] = "en"
    topics: list[str] = field(default_factory=list)
    # RETRIEVE
    examples: list[Example] = field(default_factory=list)
    ground_truth: str | None = None
    # SOLVE
    solution: SolveOutput | None = None
    provider: str | None = None
    model: str | None = None
    solve_latency_ms: float = 0.0
    attempt_count: int = 0
    solved_this_round: bool = False
    provider_history: Annotated[list[str], operator.add] = field(default_factory=list)
    solve_errors: Annotated[list[str], operator.add] = field(default_factory=list)
    # QUICK_VERIFY (seed fields)
    verify_passed: bool | None = None
    verify_confidence: float = 0.0
    verify_calibrated: bool = False  # verify_confidence is a calibrated P(correct)
    verify_method: str | None = None  # the validator stage that decided (programmatic, …)
    verify_signal: float = 0.0  # that stage's raw score, before calibration
    independent_answer: str | None = None
    verify_error: str | None = None
    attempts: Annotated[list[AttemptRecord], operator.add] = field(default_factory=list)
    model_calls: Annotated[int, operator.add] = 0  # model requests this scan made (cost)
    # ENRICH
    knowledge_points: list[str] = field(default_factory=list)
    hint: str | None = None
    verification_status: VerificationStatus = "unverified"
    caution_reason: str | None = None
