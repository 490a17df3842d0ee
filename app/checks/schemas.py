"""The public HTTP contract for "check my answer"."""

from __future__ import annotations

import uuid
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from app.scans.schemas import MAX_TEXT_CHARS
from app.scans.text_input import check_problem_text, max_text_chars

MAX_ANSWER_CHARS = 200
MAX_STEPS = 40
MAX_STEP_CHARS = 1000
CheckVerdict = Literal["correct", "incorrect", "unknown"]
CheckMethod = Literal["programmatic", "ground_truth", "llm"]
ImageOf = Literal["problem", "work"]
StepText = Annotated[str, Field(max_length=MAX_STEP_CHARS)]
StepVerdict = Literal["ok", "wrong", "unchecked"]
StepMethod = Literal["arithmetic", "equation", "llm"]


_ANSWER = Field(
    min_length=1,
    max_length=MAX_ANSWER_CHARS,
    description="The student's answer, in any notation (`-14`, `x = 4`, `\\frac{3}{4}`).",
    examples=["-14"],
)


class _CheckedText(BaseModel):
    """Problem and answer pass the scans' text rules (app/scans/text_input.py): no control
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

    @field_validator("steps", check_fields=False)
    @classmethod
    def step_texts(cls, value: list[str] | None) -> list[str] | None:
        """Each step passes the text rules; blank steps are refused (indices must match)."""
        if value is None:
            return None
        return [check_problem_text(step, MAX_STEP_CHARS) for step in value]


_STEPS = Field(
    default=None,
    min_length=1,
    max_length=MAX_STEPS,
    description="The student's worked steps, one line (or short paragraph) each, in order. "
    "With steps, the response says which step is the first wrong one.",
    examples=[["7 - 4x = 15", "-4x = 8", "x = -2", "8x + 2 = -14"]],
)


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
    steps: list[StepText] | None = _STEPS


class CheckForm(_CheckedText):
    """The text fields of a multipart check (the image is checked on its own)."""

    answer: str = _ANSWER
    problem: str | None = None
    steps: list[StepText] | None = _STEPS
    image_of: ImageOf = "problem"

    @model_validator(mode="after")
    def work_needs_the_problem(self) -> CheckForm:
        """A photo of the work: the problem comes as text and the steps from the photo."""
        if self.image_of == "work" and not self.problem:
            raise ValueError("a photo of the work needs the problem as text ('problem')")
        if self.image_of == "work" and self.steps:
            raise ValueError("send the steps as text or as a photo of the work, not both")
        return self

    @field_validator("steps", mode="before")
    @classmethod
    def one_step_per_line(cls, value: object) -> object:
        """A form sends the steps as one text field, one step per line."""
        if isinstance(value, str):
            return [line for line in value.splitlines() if line.strip()] or None
        return value


class StepCheck(BaseModel):
    """The verdict on one of the student's steps."""

    model_config = ConfigDict(extra="forbid")

    index: int = Field(ge=0, description="The step's index (0 is the first).", examples=[1])
    text: str = Field(
        description="The step as it was checked: as sent, or as read from a photo of the work "
        "(a misreading shows here).",
        examples=["18 - 6 = 11"],
    )
    verdict: StepVerdict = Field(
        description="`ok` (every calculation in it checks, or a model checker found it right), "
        "`wrong`, or `unchecked` (nothing could decide).",
        examples=["wrong"],
    )
    method: StepMethod | None = Field(
        description="What decided: `arithmetic` (each calculation evaluated exactly), "
        "`equation` (the equation keeps the problem's solutions), `llm` (a model checker, "
        "on another provider); null for `unchecked`.",
        examples=["arithmetic"],
    )
    explanation: str | None = Field(
        description="For the student, in their language (zh/en): where the mistake is, "
        "without giving the answer away; null unless the step is `wrong`.",
        examples=["Step 2: check the calculation 18 - 6 = 11 again: the two sides are not equal."],
    )


class CheckResponse(BaseModel):
    """The verdict on an answer; `unknown` whenever no check is sure. A check without steps
    is not stored; one with steps is (see `check_id`)."""

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
        "model's guess). Withheld (null) for an incorrect answer sent with its steps: the check "
        "then points at the mistake without giving the answer away.",
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
    check_id: uuid.UUID | None = Field(
        default=None,
        description="Only when steps were sent: the stored check (its step verdicts and the "
        "evidence behind them), erased with `DELETE /v1/checks/{check_id}`.",
        examples=["3f1c2a9e-6b7d-4c1e-9a55-0d2e8f4b7c61"],
    )
    first_error_step: int | None = Field(
        default=None,
        description="Only when steps were sent: the index of the first wrong step, given only "
        "when every step before it was found right; null otherwise (no step found wrong, or "
        "an earlier step nothing could check: see `first_flagged_step`).",
        examples=[1],
    )
    first_flagged_step: int | None = Field(
        default=None,
        description="Only when steps were sent: the index of the first step found wrong, "
        "whatever came before it (an earlier step nothing could check may hold the first "
        "mistake); null when no step was found wrong.",
        examples=[1],
    )
    steps: list[StepCheck] | None = Field(
        default=None,
        description="Only when steps were sent: one verdict per step, in order.",
        examples=[
            [
                {
                    "index": 0,
                    "text": "7 - 4x = 15",
                    "verdict": "ok",
                    "method": "equation",
                    "explanation": None,
                },
                {
                    "index": 1,
                    "text": "-4x = 22",
                    "verdict": "wrong",
                    "method": "equation",
                    "explanation": "Step 2: going from 7 - 4x = 15 to -4x = 22 changes the "
                    "solution of the equation. Check this step.",
                },
            ]
        ],
    )

    def public(self) -> dict[str, object]:
        """The JSON body: without steps sent, exactly the answer check's fields."""
        if self.steps is None:
            return self.model_dump(
                mode="json",
                exclude={"check_id", "first_error_step", "first_flagged_step", "steps"},
            )
        return self.model_dump(mode="json")
