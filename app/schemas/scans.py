"""The public HTTP contract for scans and solutions."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from app.schemas.evaluation import DeepEvaluation
from app.schemas.text_input import (
    DEFAULT_MAX_TEXT_CHARS,
    check_hint,
    check_problem_text,
    max_text_chars,
)

# The default limit, for schemas and docs; requests are checked against the settings' value.
MAX_TEXT_CHARS = DEFAULT_MAX_TEXT_CHARS


class ScanCreate(BaseModel):
    """The JSON body. The text limit comes from settings (validation context
    `max_text_chars`, else the process settings); the schema shows the default."""

    text: str = Field(
        min_length=1,
        examples=["Solve 2x + 3 = 11"],
        json_schema_extra={"maxLength": DEFAULT_MAX_TEXT_CHARS},
    )
    subject: str | None = Field(default=None, max_length=32, examples=["math"])
    grade: str | None = Field(default=None, max_length=32, examples=["7"])

    @field_validator("text")
    @classmethod
    def problem_text(cls, value: str, info: ValidationInfo) -> str:
        return check_problem_text(value, max_text_chars(info.context))

    @field_validator("subject", "grade")
    @classmethod
    def hint(cls, value: str | None) -> str | None:
        return check_hint(value)


class ScanForm(BaseModel):
    """The text fields of a multipart upload (the image is checked on its own)."""

    text: str | None = None
    subject: str | None = Field(default=None, max_length=32)
    grade: str | None = Field(default=None, max_length=32)

    @field_validator("text")
    @classmethod
    def problem_text(cls, value: str | None, info: ValidationInfo) -> str | None:
        return None if value is None else check_problem_text(value, max_text_chars(info.context))

    @field_validator("subject", "grade")
    @classmethod
    def hint(cls, value: str | None) -> str | None:
        return check_hint(value)


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
