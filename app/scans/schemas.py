"""The public HTTP contract for scans."""

from __future__ import annotations

import uuid

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from app.scans.text_input import (
    DEFAULT_MAX_TEXT_CHARS,
    check_hint,
    check_problem_text,
    max_text_chars,
)
from app.schemas.common import (
    CautionReason,
    Language,
    ScanState,
    Subject,
    UtcDateTime,
    VerificationStatus,
)

# The default limit, for schemas and docs; requests are checked against the settings' value.
MAX_TEXT_CHARS = DEFAULT_MAX_TEXT_CHARS
USER_ID_MAX_CHARS = 128
USER_ID_PATTERN = r"^[A-Za-z0-9._:@-]+$"  # an opaque id: no spaces, no controls, no unicode

_SUBJECT = Field(
    default=None,
    description="The subject, when the app knows it; otherwise it is detected.",
    examples=["math"],
)
_GRADE = Field(
    default=None,
    max_length=32,
    description='The student\'s grade, free form ("7", "grade 7", "初一").',
    examples=["7"],
)
_USER_ID = Field(
    default=None,
    min_length=1,
    max_length=USER_ID_MAX_CHARS,
    pattern=USER_ID_PATTERN,
    description="Opaque end-user id chosen by the app's backend; history is listed by it.",
    examples=["user_8c1f2a"],
)

_CORRECTS = Field(
    default=None,
    description="The photo scan this text scan corrects; null when it corrects none (or that "
    "scan was erased).",
    examples=[None],
)


class ScanCreate(BaseModel):
    """The JSON body. The text limit comes from settings (validation context
    `max_text_chars`, else the process settings); the schema shows the default."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(
        min_length=1,
        description="The problem as typed by the student.",
        examples=["Solve 2x + 3 = 11"],
        json_schema_extra={"maxLength": DEFAULT_MAX_TEXT_CHARS},
    )
    subject: Subject | None = _SUBJECT
    grade: str | None = _GRADE
    user_id: str | None = _USER_ID
    corrects_scan_id: uuid.UUID | None = Field(
        default=None,
        description="The photo scan this text corrects (the student typed what the photo "
        "says): a scan of the same tenant, and of the same `user_id` when that scan has one; "
        "else 404 `not_found` (422 `not_a_photo` for a text scan).",
        examples=["3f8a2c4e-9b1d-4c6e-8f2a-1b3c5d7e9f01"],
    )

    @field_validator("text")
    @classmethod
    def problem_text(cls, value: str, info: ValidationInfo) -> str:
        return check_problem_text(value, max_text_chars(info.context))

    @field_validator("grade")
    @classmethod
    def hint(cls, value: str | None) -> str | None:
        return check_hint(value)


class ScanForm(BaseModel):
    """The text fields of a multipart upload (the image is checked on its own)."""

    model_config = ConfigDict(extra="forbid")

    text: str | None = Field(
        default=None,
        description="Optional typed text to go with the image.",
        examples=["Solve for x"],
    )
    subject: Subject | None = _SUBJECT
    grade: str | None = _GRADE
    user_id: str | None = _USER_ID

    @field_validator("text")
    @classmethod
    def problem_text(cls, value: str | None, info: ValidationInfo) -> str | None:
        return None if value is None else check_problem_text(value, max_text_chars(info.context))

    @field_validator("grade")
    @classmethod
    def hint(cls, value: str | None) -> str | None:
        return check_hint(value)


class Step(BaseModel):
    """One worked step of a solution."""

    index: int = Field(description="1-based position of the step.", examples=[1])
    description: str = Field(
        description="What the step does, in the scan's language.",
        examples=["Subtract 3 from both sides"],
    )
    latex: str | None = Field(
        default=None,
        description="The step's math as bare LaTeX (no delimiters), if any.",
        examples=["2x = 8"],
    )


class SolutionResponse(BaseModel):
    """A solved scan: the answer, its steps and the verification badge."""

    model_config = ConfigDict(from_attributes=True)

    scan_id: uuid.UUID = Field(
        description="The scan's id.", examples=["3f8a2c4e-9b1d-4c6e-8f2a-1b3c5d7e9f01"]
    )
    solution_id: uuid.UUID = Field(
        description="The solution's id (GET /v1/solutions/{id}).",
        examples=["7d1e5b3a-2c4f-4e6a-9b8d-0f1e2d3c4b5a"],
    )
    created_at: UtcDateTime = Field(
        description="When the solution was stored (UTC).", examples=["2026-11-21T13:00:00Z"]
    )
    problem_text: str = Field(
        description="The problem as read (typed text, or OCR of the photo).",
        examples=["Solve 2x + 3 = 11"],
    )
    ocr_text: str | None = Field(
        default=None,
        description="What OCR read off the photo; null for text scans.",
        examples=["Solve 2x + 3 = 11"],
    )
    ocr_confidence: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="OCR confidence in [0, 1]; null for text scans.",
        examples=[0.93],
    )
    ocr_latex: str | None = Field(
        default=None,
        description="What was read off the photo, as LaTeX (fractions, roots and powers as "
        "they were printed), to show the student and let them correct it; null for text scans.",
        examples=[r"\frac{x}{4}=3"],
    )
    second_reading: str | None = Field(
        default=None,
        description="What a second reader (a model that reads images) read off the photo, as "
        "LaTeX; null for text scans and when none read it. A photo is solved only when both "
        "readings are the same problem (else `readings_disagree`).",
        examples=[r"\frac{x}{4}=3"],
    )
    corrects_scan_id: uuid.UUID | None = _CORRECTS
    subject: Subject = Field(description="The subject.", examples=["math"])
    grade_band: str = Field(description="primary, middle or high.", examples=["middle"])
    difficulty: str = Field(description="easy, medium or hard.", examples=["easy"])
    language: Language = Field(description="The scan's language.", examples=["en"])
    final_answer: str | None = Field(
        description="The answer; null when nothing could answer.", examples=["x = 4"]
    )
    steps: list[Step] = Field(
        description="Worked steps, in the scan's language.",
        examples=[[{"index": 1, "description": "Write the equation", "latex": "2x + 3 = 11"}]],
    )
    verification_status: VerificationStatus = Field(
        description="The badge: `verified` (checked), `unverified` (could not check), "
        "`caution` (the check failed or was unsure).",
        examples=["verified"],
    )
    verification_confidence: float = Field(
        description="Confidence of the verification in [0, 1].", examples=[1.0]
    )
    verification_confidence_calibrated: bool = Field(
        default=False,
        description="True once a fitted calibrator maps the signals to P(correct).",
        examples=[False],
    )
    caution_reason: CautionReason | None = Field(
        description="Why the badge is not `verified`; null when verified.",
        examples=[None],
    )
    attempts: int = Field(description="How many solving attempts were made.", examples=[1])
    model_calls: int = Field(
        default=0,
        ge=0,
        description="Model requests this scan made before answering (every solving attempt, "
        "verifier and sample; 0 when only the symbolic solver and the problem bank answered): "
        "its cost.",
        examples=[3],
    )
    provider: str | None = Field(
        description="Which solver answered (for operators; not for students).",
        examples=["symbolic"],
    )
    model: str | None = Field(
        description="Which model answered (for operators; not for students).",
        examples=["sympy"],
    )
    knowledge_points: list[str] = Field(
        description="Knowledge points, in the scan's language; empty when unsure.",
        examples=[["Linear equations"]],
    )
    hint: str | None = Field(
        description="A hint for the student, in the scan's language; null when unsure.",
        examples=["Get the unknown alone: undo additions first, then multiplications."],
    )


class ScanAccepted(BaseModel):
    """202: the scan is queued (or took longer than the deadline); follow `Location`."""

    scan_id: uuid.UUID = Field(
        description="The scan's id.", examples=["3f8a2c4e-9b1d-4c6e-8f2a-1b3c5d7e9f01"]
    )
    state: ScanState = Field(description="queued or running.", examples=["queued"])


class ScanOut(BaseModel):
    """A scan in its current state (GET /v1/scans/{id}, history pages)."""

    id: uuid.UUID = Field(
        description="The scan's id.", examples=["3f8a2c4e-9b1d-4c6e-8f2a-1b3c5d7e9f01"]
    )
    created_at: UtcDateTime = Field(
        description="When the scan was received (UTC).", examples=["2026-11-21T13:00:00Z"]
    )
    state: ScanState = Field(description="queued → running → done (or failed).", examples=["done"])
    failure_code: str | None = Field(
        default=None,
        description="Why a failed scan failed (the error code a synchronous POST would give).",
        examples=["retake_photo"],
    )
    user_id: str | None = Field(
        default=None, description="The end user's opaque id.", examples=["user_8c1f2a"]
    )
    source: str = Field(description="text or image.", examples=["text"])
    problem_text: str = Field(
        description="The problem as read; empty while a photo is queued.",
        examples=["Solve 2x + 3 = 11"],
    )
    ocr_confidence: float | None = Field(
        description="OCR confidence in [0, 1]; null for text scans.", examples=[0.93]
    )
    corrects_scan_id: uuid.UUID | None = _CORRECTS
    subject: Subject = Field(description="The subject.", examples=["math"])
    grade_band: str = Field(description="primary, middle or high.", examples=["middle"])
    difficulty: str = Field(description="easy, medium or hard.", examples=["easy"])
    language: Language = Field(description="The scan's language.", examples=["en"])
    solution: SolutionResponse | None = Field(
        description="The latest solution, once done.", examples=[None]
    )


class ScanPage(BaseModel):
    """One page of a history, newest first."""

    items: list[ScanOut] = Field(description="Scans, newest first.", examples=[[]])
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page.",
        examples=["MjAyNi0xMS0yMVQxMzowMDowMCswMDowMHwzZjhh"],
    )
