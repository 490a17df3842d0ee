"""POST /v1/checks: is this answer to this problem right? (JSON text or multipart image)."""

from __future__ import annotations

from typing import Any, cast

from fastapi import APIRouter, Request
from fastapi import UploadFile as FastApiUploadFile
from starlette.datastructures import FormData, UploadFile

from app.api.auth import Caller
from app.api.deps import ServicesDep
from app.api.errors import ApiError, parse_or_422
from app.api.forms import max_field_bytes, read_multipart
from app.api.openapi_docs import errors
from app.api.uploads import read_image
from app.schemas.checks import CheckCreate, CheckForm, CheckResponse
from app.services.checks import check_answer
from app.services.scans import UnreadableInput

router = APIRouter(prefix="/v1/checks", tags=["checks"])
FORM_FIELDS = ("answer", "problem")

_MULTIPART_SCHEMA = {
    "type": "object",
    "required": ["image", "answer"],
    "additionalProperties": False,
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
        form = await read_multipart(
            request,
            max_files=1,
            max_fields=len(FORM_FIELDS) + 4,  # room for unknown fields, named in the 422
            max_field_bytes=max_field_bytes(limits.max_text_chars),
        )
        upload = form.get("image")
        if not isinstance(upload, UploadFile):
            raise ApiError(422, "missing_image", "multipart uploads need an 'image' file field")
        # The text is validated before the image is read: a bad request costs no decoding.
        fields: dict[str, Any] = {k: _form_str(form, k) for k in FORM_FIELDS}
        fields.update({k: "" for k in sorted(set(form.keys()) - {"image", *FORM_FIELDS})})
        checked = parse_or_422(
            CheckForm,
            {k: v for k, v in fields.items() if v is not None},
            max_text_chars=limits.max_text_chars,
        )
        image = await read_image(
            # read_image only reads: starlette's UploadFile (what forms hold) is all it needs.
            cast(FastApiUploadFile, upload),
            max_bytes=limits.max_upload_bytes,
            max_pixels=limits.max_image_pixels,
            max_aspect_ratio=limits.max_image_aspect_ratio,
            max_segments=limits.max_image_segments,
        )
        problem, answer = checked.problem, checked.answer
    elif content_type.startswith("application/json") or not content_type:
        body = parse_or_422(CheckCreate, await request.body(), max_text_chars=limits.max_text_chars)
        problem, answer = body.problem, body.answer
    else:
        raise ApiError(
            415,
            "unsupported_media_type",
            "send application/json with 'problem' and 'answer', or multipart/form-data with "
            "'image' and 'answer'",
        )
    try:
        return await check_answer(services, answer=answer, problem=problem, image=image)
    except UnreadableInput as exc:
        raise ApiError(422, exc.code, exc.message) from exc


def _form_str(form: FormData, key: str) -> str | None:
    """A blank field is an absent one (browsers send every input of a form)."""
    value = form.get(key)
    return value.strip() or None if isinstance(value, str) else None
