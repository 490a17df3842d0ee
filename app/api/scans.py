"""POST /v1/scans (JSON text or multipart image) and GET /v1/scans/{id}."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Request, status
from starlette.datastructures import UploadFile

from app.api.auth import Caller
from app.api.deps import ServicesDep, SessionDep
from app.api.errors import ApiError, parse_or_422
from app.api.uploads import read_image
from app.db.repositories.scans import ScanRepository
from app.schemas.scans import ScanCreate, ScanForm, ScanOut, SolutionResponse
from app.services.scans import (
    UnreadableInput,
    scan_out,
    solution_response,
    submit_scan,
)

router = APIRouter(prefix="/v1/scans", tags=["scans"])

_MULTIPART_SCHEMA = {
    "type": "object",
    "required": ["image"],
    "properties": {
        "image": {"type": "string", "format": "binary", "description": "PNG or JPEG photo"},
        "text": {"type": "string", "description": "optional typed text to go with the image"},
        "subject": {"type": "string"},
        "grade": {"type": "string"},
    },
}
_OPENAPI_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/ScanCreate"}},
            "multipart/form-data": {"schema": _MULTIPART_SCHEMA},
        },
    }
}


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=SolutionResponse,
    openapi_extra=_OPENAPI_BODY,
    responses={
        401: {"description": "missing or invalid API key"},
        413: {"description": "upload too large"},
        415: {"description": "not an image"},
        422: {"description": "invalid or unreadable problem"},
        429: {"description": "rate limit reached for this API key"},
    },
)
async def create_scan(
    request: Request, services: ServicesDep, session: SessionDep, caller: Caller
) -> SolutionResponse:
    """Solve and verify a problem. The body is capped (BodySizeLimit) before it is read."""
    limits = services.settings.input
    content_type = request.headers.get("content-type", "")
    image: bytes | None = None
    if content_type.startswith("multipart/form-data"):
        form = await request.form(max_files=1, max_fields=8)
        upload = form.get("image")
        if not isinstance(upload, UploadFile):
            raise ApiError(422, "missing_image", "multipart uploads need an 'image' file field")
        image = await read_image(
            upload,
            max_bytes=limits.max_upload_bytes,
            max_pixels=limits.max_image_pixels,
            max_aspect_ratio=limits.max_image_aspect_ratio,
        )
        fields = {k: _form_str(form, k) for k in ("text", "subject", "grade")}
        checked = parse_or_422(ScanForm, fields, max_text_chars=limits.max_text_chars)
        text, subject, grade = checked.text, checked.subject, checked.grade
    elif content_type.startswith("application/json") or not content_type:
        body = parse_or_422(ScanCreate, await request.body(), max_text_chars=limits.max_text_chars)
        text, subject, grade = body.text, body.subject, body.grade
    else:
        raise ApiError(
            415,
            "unsupported_media_type",
            "send application/json with 'text' or multipart/form-data with 'image'",
        )

    try:
        scan, solution = await submit_scan(
            services,
            session,
            text=text,
            image=image,
            subject=subject,
            grade=grade,
            tenant=caller.tenant,
        )
    except UnreadableInput as exc:
        raise ApiError(422, exc.code, exc.message) from exc
    return solution_response(scan, solution)


@router.get(
    "/{scan_id}",
    response_model=ScanOut,
    responses={404: {"description": "no such scan (or another tenant's)"}},
)
async def get_scan(scan_id: uuid.UUID, session: SessionDep, caller: Caller) -> ScanOut:
    scan = await ScanRepository(session).get_scan(scan_id, caller.tenant)
    if scan is None:
        raise ApiError(404, "not_found", f"scan {scan_id} does not exist")
    return scan_out(scan)


def _form_str(form: object, key: str) -> str | None:
    value = form.get(key)  # type: ignore[attr-defined]
    return value.strip() or None if isinstance(value, str) else None

