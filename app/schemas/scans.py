"""The public HTTP contract for scans and solutions."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.schemas.evaluation import DeepEvaluation

MAX_TEXT_CHARS = 4000


class ScanCreate(BaseModel):
    text: str = Field(min_length=1, max_length=MAX_TEXT_CHARS, examples=["Solve 2x + 3 = 11"])
    subject: str | None = Field(default=None, max_length=32, examples=["math"])
    grade: str | None = Field(default=None, max_length=32, examples=["7"])

    @field_validator("text")
    @classmethod
    def not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("text must contain the problem, not only whitespace")
        return value.strip()


class Step(BaseModel):
    index: int
    description: str
    latex: str | None = None


class SolutionResponse(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    scan_id: uuid.UUID
    solution_id: uuid.UUID
    created_at: datetime
    problem_text: str
    subject: str
    grade_band: str
    difficulty: str
    language: str
    final_answer: str | None
    steps: list[Step]
    verification_status: Literal["verified", "unverified", "caution"]
    verification_confidence: float
    # True once a fitted calibrator maps the signals to P(correct); false: the raw signal.
    verification_confidence_calibrated: bool = False
    caution_reason: str | None
    attempts: int
    provider: str | None
    model: str | None
    knowledge_points: list[str]
    hint: str | None


class VerificationOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    tier: str
    attempt: int
    answer_provider: str | None
    answer: str | None
    method: str
    verifier_id: str
    verdict: Literal["approve", "reject", "abstain"]
    score: float | None
    rationale: str | None
    independent_answer: str | None
    latency_ms: float


class SolutionDetail(SolutionResponse):
    verifications: list[VerificationOut]
    deep_evaluation: DeepEvaluation | None


class ScanOut(BaseModel):
    id: uuid.UUID
    created_at: datetime
    source: Literal["text", "image"]
    problem_text: str
    ocr_confidence: float | None
    subject: str
    grade_band: str
    difficulty: str
    language: str
    solution: SolutionResponse | None
