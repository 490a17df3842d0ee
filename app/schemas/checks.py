"""The public HTTP contract for "check my answer"."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator

from app.schemas.scans import MAX_TEXT_CHARS

MAX_ANSWER_CHARS = 200
CheckVerdict = Literal["correct", "incorrect", "unknown"]


class CheckCreate(BaseModel):
    problem: str = Field(
        min_length=1, max_length=MAX_TEXT_CHARS, examples=["If 7 - 4x = 15, what is 8x + 2?"]
    )
    answer: str = Field(min_length=1, max_length=MAX_ANSWER_CHARS, examples=["-14"])

    @field_validator("problem", "answer")
    @classmethod
    def not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be only whitespace")
        return value.strip()


class CheckResponse(BaseModel):
    verdict: CheckVerdict
    # programmatic | ground_truth | llm; None when nothing could decide
    method: str | None
    expected: str | None = Field(
        default=None, description="the right answer, when a programmatic check or the bank knows it"
    )
    detail: str
    # P(the verdict is right) from the deciding check; None for "unknown"
    confidence: float | None
