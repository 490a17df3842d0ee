"""Shared pieces of the public contract: enums, the error envelope, the caution reason."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field


class Subject(StrEnum):
    """School subject."""

    math = "math"
    physics = "physics"
    chemistry = "chemistry"
    biology = "biology"
    general = "general"


class VerificationStatus(StrEnum):
    """The badge: `verified` (checked), `unverified` (could not check), `caution` (the check
    failed or was unsure)."""

    verified = "verified"
    unverified = "unverified"
    caution = "caution"


class ScanState(StrEnum):
    """queued → running → done, or failed."""

    queued = "queued"
    running = "running"
    done = "done"
    failed = "failed"


class Language(StrEnum):
    """The scan's language: answers, steps, hints and reasons are written in it."""

    en = "en"
    zh = "zh"


class CautionCode(StrEnum):
    """Stable machine-readable reason the badge is not `verified`."""

    no_answer = "no_answer"
    not_verified = "not_verified"
    failed_verification = "failed_verification"
    low_confidence = "low_confidence"
    incomplete_reading = "incomplete_reading"
    readings_disagree = "readings_disagree"


class CautionReason(BaseModel):
    """Why the badge is not `verified`, for the student: no vendor or model is ever named."""

    code: CautionCode = Field(
        description="Stable machine-readable reason; `no_answer`: nothing could answer, "
        "`not_verified`: answered but nothing could check it.",
        examples=["not_verified"],
    )
    message: str = Field(
        description="Human-readable reason in the scan's language (en or zh).",
        examples=["We could not check this answer automatically. Please double-check it."],
    )


ErrorCode = Literal[
    # 401
    "unauthorized",
    "invalid_api_key",
    "invalid_token",
    "token_expired",
    "api_key_in_url",
    # 403
    "forbidden",
    # 404, 405 and any other status a route or Starlette raises as an HTTPException
    "not_found",
    "method_not_allowed",
    "http_error",
    # 409
    "idempotency_key_reused",
    "idempotency_key_in_use",
    # 413
    "payload_too_large",
    "image_too_large",
    # 415
    "unsupported_media_type",
    # 422: the request
    "invalid_request",
    "invalid_cursor",
    "invalid_last_event_id",
    "invalid_text",
    "missing_image",
    "empty_image",
    "text_too_long",
    "too_many_files",
    "too_many_fields",
    "not_a_photo",
    # 422: the image or problem cannot be read (also a failed scan's `failure_code`)
    "retake_photo",
    "no_text_found",
    "ocr_unavailable",
    "corrupt_image",
    "image_aspect_ratio",
    "incomplete_reading",
    "too_many_steps",
    # 429
    "rate_limited",
    "too_many_failed_authentications",
    # 500
    "internal_error",
    # 503
    "service_unavailable",
    "ocr_busy",
    "too_many_streams",
]
"""Every error code the API returns, in the envelope and as a failed scan's code: a client
branches on these (OpenAPI: an `enum`), and mypy checks every literal the server raises."""

ERROR_CODES: frozenset[str] = frozenset(get_args(ErrorCode))


class ErrorDetail(BaseModel):
    """One invalid field of a 422 `invalid_request`."""

    field: str = Field(description="Dotted path of the offending field.", examples=["text"])
    problem: str = Field(description="What is wrong with it.", examples=["Field required"])


class ErrorBody(BaseModel):
    """The error: a stable code for programs and a message for developers."""

    model_config = ConfigDict(extra="allow")

    code: ErrorCode = Field(
        description="Stable machine-readable error code.", examples=["invalid_request"]
    )
    message: str = Field(
        description="Human-readable explanation (English, for developers).",
        examples=["text: Field required"],
    )
    details: list[ErrorDetail] | None = Field(
        default=None,
        description="Per-field problems, on validation errors (422 `invalid_request`).",
        examples=[[{"field": "text", "problem": "Field required"}]],
    )
    request_id: str | None = Field(
        default=None,
        description="The request id (also in `X-Request-ID`), on internal errors.",
        examples=["5f0c6e2a9b4d4e1f8a7c3b2d1e0f9a8b"],
    )


class ErrorResponse(BaseModel):
    """Every error the API returns: `{"error": {"code", "message", ...}}`."""

    error: ErrorBody = Field(
        description="The error.",
        examples=[{"code": "not_found", "message": "scan 0b9c... does not exist"}],
    )


def _as_utc(value: datetime) -> datetime:
    # SQLite keeps no time zone: its times are UTC, stored naive. Sent with one, always.
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


UtcDateTime = Annotated[datetime, AfterValidator(_as_utc)]
