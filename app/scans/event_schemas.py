"""The `data` of each Server-Sent Event of `GET /v1/scans/{id}/events`
(app/scans/event_endpoints.py).

One event per pipeline node as it finishes (what app/scans/pipeline.py's
`public_progress` lets a client see: never providers, models or raw errors), then `done` (the
SolutionResponse) or `failed`, then `status_changed` (a StatusChange) and finally `settled`.
OpenAPI lists them as components and maps each event name to its schema (`x-events` on the
stream's 200 response)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.scans.schemas import SolutionResponse
from app.schemas.common import ErrorCode, VerificationStatus
from app.solutions.schemas import StatusChange

_FORBID = ConfigDict(extra="forbid")


class OcrEvent(BaseModel):
    """`ocr`: the photo was read (a text scan passes through the node too)."""

    model_config = _FORBID

    node: Literal["ocr"] = Field(description="The node that finished.", examples=["ocr"])
    ocr_confidence: float | None = Field(
        description="How sure the reading is, 0–1; null for a text scan.", examples=[0.93]
    )


class AnalyzeEvent(BaseModel):
    """`analyze`: the problem's subject, language and grade band."""

    model_config = _FORBID

    node: Literal["analyze"] = Field(description="The node that finished.", examples=["analyze"])
    subject: str | None = Field(description="The subject it was read as.", examples=["math"])
    language: str | None = Field(description="The scan's language (en, zh).", examples=["en"])
    grade_band: str | None = Field(description="The grade band.", examples=["middle"])


class RetrieveEvent(BaseModel):
    """`retrieve`: similar solved problems were looked up."""

    model_config = _FORBID

    node: Literal["retrieve"] = Field(description="The node that finished.", examples=["retrieve"])
    similar_problems: int = Field(
        description="How many similar problems were found.", ge=0, examples=[3]
    )


class SolveEvent(BaseModel):
    """`solve`: an answer was (or could not be) found."""

    model_config = _FORBID

    node: Literal["solve"] = Field(description="The node that finished.", examples=["solve"])
    answered: bool = Field(description="Whether there is an answer.", examples=[True])


class QuickVerifyEvent(BaseModel):
    """`quick_verify`: the first check of the answer."""

    model_config = _FORBID

    node: Literal["quick_verify"] = Field(
        description="The node that finished.", examples=["quick_verify"]
    )
    passed: bool | None = Field(
        description="Whether it passed; null when nothing could check.", examples=[True]
    )


class EnrichEvent(BaseModel):
    """`enrich`: the badge, steps and hint are ready (`done` follows)."""

    model_config = _FORBID

    node: Literal["enrich"] = Field(description="The node that finished.", examples=["enrich"])
    verification_status: VerificationStatus | None = Field(
        description="The badge.", examples=["verified"]
    )


class FailedEvent(BaseModel):
    """`failed`: the scan ended without an answer (also the scan's `failure_code`)."""

    model_config = _FORBID

    code: ErrorCode = Field(
        description="The error code, as in the error envelope.", examples=["retake_photo"]
    )
    message: str = Field(
        description="Why, in the scan's language, for the student.",
        examples=["The photo is hard to read. Please take it again."],
    )


class SettledEvent(BaseModel):
    """`settled` (no `id`): nothing more is owed, the ledger is final; the stream ends."""

    model_config = _FORBID

    final_answer: str | None = Field(description="The final answer.", examples=["x = 4"])
    verification_status: VerificationStatus = Field(
        description="The final badge.", examples=["verified"]
    )
    verification_confidence: float | None = Field(
        description="The final confidence.", examples=[0.97]
    )


NODE_EVENTS: dict[str, type[BaseModel]] = {
    "ocr": OcrEvent,
    "analyze": AnalyzeEvent,
    "retrieve": RetrieveEvent,
    "solve": SolveEvent,
    "quick_verify": QuickVerifyEvent,
    "enrich": EnrichEvent,
}
EVENT_SCHEMAS: dict[str, type[BaseModel]] = {
    **NODE_EVENTS,
    "done": SolutionResponse,
    "failed": FailedEvent,
    "status_changed": StatusChange,
    "settled": SettledEvent,
}
"""Event name -> the model of its `data`."""
