"""The public HTTP contract for "check my answer"."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.schemas.scans import MAX_TEXT_CHARS

MAX_ANSWER_CHARS = 200
CheckVerdict = Literal["correct", "incorrect", "unknown"]
CheckMethod = Literal["programmatic", "ground_truth", "llm"]


class CheckCreate(BaseModel):
    """The JSON body of POST /v1/checks: a problem and the student's answer to it."""

    problem: str = Field(
        min_length=1,
        max_length=MAX_TEXT_CHARS,
        description="The problem as typed by the student.",
        examples=["If 7 - 4x = 15, what is 8x + 2?"],
    )
    answer: str = Field(
        min_length=1,
        max_length=MAX_ANSWER_CHARS,
        description="The student's answer, in any notation (`-14`, `x = 4`, `\\frac{3}{4}`).",
        examples=["-14"],
    )

    @field_validator("problem", "answer")
    @classmethod
    def not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be only whitespace")
        return value.strip()


class CheckResponse(BaseModel):
    """The verdict on an answer; `unknown` whenever no check is sure. Nothing is stored."""

    model_config = ConfigDict(extra="forbid")

    verdict: CheckVerdict = Field(
        description="`correct`, `incorrect`, or `unknown` when no check could decide.",
        examples=["correct"],
    )
    method: CheckMethod | None = Field(
        description="The check that decided: `programmatic` (the sandbox), `ground_truth` "
        "(the problem bank) or `llm` (an admitted model verifier); null when none could.",
        examples=["programmatic"],
    )
    expected: str | None = Field(
        default=None,
        description="The right answer, when the sandbox or the problem bank knows it (never a "
        "model's guess).",
        examples=["-14"],
    )
    detail: str = Field(
        description="Why (English, for developers).",
        examples=["substitution: 8x + 2 = -14 at x = -2"],
    )
    confidence: float | None = Field(
        ge=0,
        le=1,
        description="P(the verdict is right) from the deciding check; null for `unknown`.",
        examples=[1.0],
    )
