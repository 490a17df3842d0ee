"""The public HTTP contract for "check my answer"."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from app.schemas.scans import MAX_TEXT_CHARS
from app.schemas.text_input import check_problem_text, max_text_chars

MAX_ANSWER_CHARS = 200
CheckVerdict = Literal["correct", "incorrect", "unknown"]
CheckMethod = Literal["programmatic", "ground_truth", "llm"]


_ANSWER = Field(
    min_length=1,
    max_length=MAX_ANSWER_CHARS,
    description="The student's answer, in any notation (`-14`, `x = 4`, `\\frac{3}{4}`).",
    examples=["-14"],
)


class _CheckedText(BaseModel):
    """Problem and answer pass the scans' text rules (app/schemas/text_input.py): no control
    characters, not blank or invisible, within the length limit; unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("problem", check_fields=False)
    @classmethod
    def problem_text(cls, value: str | None, info: ValidationInfo) -> str | None:
        return None if value is None else check_problem_text(value, max_text_chars(info.context))

    @field_validator("answer", check_fields=False)
    @classmethod
    def answer_text(cls, value: str) -> str:
        return check_problem_text(value, MAX_ANSWER_CHARS)


class CheckCreate(_CheckedText):
    """The JSON body of POST /v1/checks: a problem and the student's answer to it. The text
    limit comes from settings (validation context `max_text_chars`); the schema shows the
    default."""

    problem: str = Field(
        min_length=1,
        description="The problem as typed by the student.",
        examples=["If 7 - 4x = 15, what is 8x + 2?"],
        json_schema_extra={"maxLength": MAX_TEXT_CHARS},
    )
    answer: str = _ANSWER


class CheckForm(_CheckedText):
    """The text fields of a multipart check (the image is checked on its own)."""

    answer: str = _ANSWER
    problem: str | None = None


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
