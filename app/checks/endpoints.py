"""POST /v1/checks: is this answer to this problem right? (JSON text or multipart image).
With worked steps the check is stored (tenant-scoped) and DELETE /v1/checks/{id} erases it."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status
from fastapi.responses import JSONResponse

from app.api.deps import ServicesDep, SessionDep
from app.api.errors import ApiError, parse_or_422
from app.api.forms import read_image_form
from app.api.openapi_docs import errors
from app.api.params import CheckId
from app.auth.caller import Caller
from app.checks.schemas import CheckCreate, CheckForm, CheckResponse
from app.checks.service import checked_answer, erase_check, read_work, store_check
from app.errors import NotFound

router = APIRouter(prefix="/v1/checks", tags=["checks"])
FORM_FIELDS = ("answer", "problem", "steps", "image_of")

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
        "steps": {
            "type": "string",
            "description": "Optional: the student's worked steps, one per line.",
            "examples": ["7 - 4x = 15\n-4x = 8\nx = -2"],
        },
        "image_of": {
            "type": "string",
            "enum": ["problem", "work"],
            "description": "What the image shows: `problem` (default), or `work`: the "
            "student's worked steps, one per line, read in order (the problem then comes "
            "as text in `problem`).",
            "examples": ["work"],
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
async def create_check(
    request: Request, services: ServicesDep, session: SessionDep, caller: Caller
) -> JSONResponse:
    """Judge an answer: correct, incorrect, or unknown when no check is sure; with the
    student's steps, also the first wrong step and a verdict per step. A check without steps
    is not stored; one with steps is stored with the evidence behind it (`check_id`)."""
    limits = services.settings.input
    content_type = request.headers.get("content-type", "").lower()  # media types ignore case
    image: bytes | None = None
    if content_type.startswith("multipart/form-data"):
        checked, image, _ = await read_image_form(request, limits, CheckForm, FORM_FIELDS)
        problem, answer, steps = checked.problem, checked.answer, checked.steps
        if checked.image_of == "work":
            steps = await read_work(services, image)
            image = None
    elif content_type.startswith("application/json") or not content_type:
        body = parse_or_422(CheckCreate, await request.body(), max_text_chars=limits.max_text_chars)
        problem, answer, steps = body.problem, body.answer, body.steps
    else:
        raise ApiError(
            415,
            "unsupported_media_type",
            "send application/json with 'problem' and 'answer', or multipart/form-data with "
            "'image' and 'answer'",
        )
    result = await checked_answer(
        services, answer=answer, problem=problem, image=image, steps=steps
    )
    if result.work is not None:
        result.response.check_id = await store_check(session, caller.tenant, result, caller.user_id)
    return JSONResponse(result.response.public())


@router.delete(
    "/{check_id}",
    operation_id="deleteCheck",
    status_code=status.HTTP_204_NO_CONTENT,
    responses={204: {"description": "Erased."}, **errors(401, 404, 422, 429)},
)
async def delete_check(check_id: CheckId, session: SessionDep, caller: Caller) -> Response:
    """Erase a stored check (one sent with steps) with its step verdicts and evidence. A
    student token erases its own user's checks only."""
    if not await erase_check(session, check_id, caller.tenant, caller.user_id):
        raise NotFound("check", check_id)
    return Response(status_code=204)
