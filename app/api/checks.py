"""POST /v1/checks: is this answer to this problem right? (JSON text or multipart image)."""

from __future__ import annotations

from typing import cast

from fastapi import APIRouter, Request
from fastapi import UploadFile as FastApiUploadFile
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.datastructures import FormData, UploadFile

from app.api.auth import Caller
from app.api.deps import ServicesDep
from app.api.errors import ApiError
from app.api.openapi_docs import errors
from app.api.uploads import read_image
from app.schemas.checks import CheckCreate, CheckResponse
from app.services.checks import check_answer
from app.services.scans import UnreadableInput

router = APIRouter(prefix="/v1/checks", tags=["checks"])

_MULTIPART_SCHEMA = {
    "type": "object",
    "required": ["image", "answer"],
    "properties": {
        "image": {
            "type": "string",
            "format": "binary",
            "description": "PNG or JPEG photo of the problem.",
            "examples": ["(the image's bytes)"],
        },
        "answer": {"type": "string", "description": "The student's answer.", "examples": ["-14"]},
        "problem": {
            "type": "string",
            "description": "Optional typed text to go with the image.",
            "examples": ["If 7 - 4x = 15, what is 8x + 2?"],
        },
    },
}
_OPENAPI_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/CheckCreate"}},
            "multipart/form-data": {"schema": _MULTIPART_SCHEMA},
        },
    }
}


@router.post(
    "",
    operation_id="createCheck",
    response_model=CheckResponse,
    openapi_extra=_OPENAPI_BODY,
    responses=errors(401, 413, 415, 422, 429, 503),
)
async def create_check(request: Request, services: ServicesDep, _caller: Caller) -> CheckResponse:
    """Judge an answer: correct, incorrect, or unknown when no check is sure. Nothing is stored."""
    limits = services.settings.input
    content_type = request.headers.get("content-type", "")
    image: bytes | None = None
    if content_type.startswith("multipart/form-data"):
        form = await request.form(max_files=1, max_fields=8)
        upload = form.get("image")
        if not isinstance(upload, UploadFile):
            raise ApiError(422, "missing_image", "multipart uploads need an 'image' file field")
        # The answer is validated before the image is read: a bad request costs no decoding.
        answer = _validated(CheckCreate, problem="(image)", answer=_form_str(form, "answer")).answer
        image = await read_image(
            # read_image only reads: starlette's UploadFile (what forms hold) is all it needs.
            cast(FastApiUploadFile, upload),
            max_bytes=limits.max_upload_bytes,
            max_pixels=limits.max_image_pixels,
        )
        problem = _form_str(form, "problem")
    elif content_type.startswith("application/json") or not content_type:
        try:
            body = CheckCreate.model_validate_json(await request.body())
        except ValidationError as exc:
            raise _as_request_error(exc) from exc
        problem, answer = body.problem, body.answer
    else:
        raise ApiError(
            415,
            "unsupported_media_type",
            "send application/json with 'problem' and 'answer', or multipart/form-data with "
            "'image' and 'answer'",
        )
    if problem is not None and len(problem) > limits.max_text_chars:
        raise ApiError(
            422, "text_too_long", f"the problem is longer than {limits.max_text_chars} characters"
        )
    try:
        return await check_answer(services, answer=answer, problem=problem, image=image)
    except UnreadableInput as exc:
        raise ApiError(422, exc.code, exc.message) from exc


def _form_str(form: FormData, key: str) -> str | None:
    value = form.get(key)
    return value if isinstance(value, str) else None


def _validated(model: type[CheckCreate], **fields: str | None) -> CheckCreate:
    try:
        return model.model_validate(fields)
    except ValidationError as exc:
        raise _as_request_error(exc) from exc


def _as_request_error(exc: ValidationError) -> RequestValidationError:
    """Reported by the app's one handler for invalid requests (422, the JSON envelope)."""
    return RequestValidationError([{**e, "loc": ("body", *e["loc"])} for e in exc.errors()])
