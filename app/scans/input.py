"""Read a POST /v1/scans body (JSON text or multipart image) into a ScanRequest, with a
fingerprint of what was asked (for Idempotency-Key: the multipart boundary does not count)."""

from __future__ import annotations

import hashlib
from typing import Any

from fastapi import Request

from app.api.errors import ApiError, parse_or_422
from app.api.forms import read_image_form
from app.auth.caller import acting_user
from app.auth.keys import Principal
from app.idempotency.service import fingerprint
from app.resources import Resources
from app.scans.schemas import ScanCreate, ScanForm
from app.scans.service import ScanRequest

FORM_FIELDS = ("text", "subject", "grade", "user_id")

MULTIPART_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["image"],
    "additionalProperties": False,
    "properties": {
        "image": {
            "type": "string",
            "format": "binary",
            "description": "PNG or JPEG photo of the problem (at most 10 MB, 40 Mpx).",
            "examples": ["(the image's bytes)"],
        },
        "text": {
            "type": "string",
            "description": "Optional typed text to go with the image.",
            "examples": ["Solve for x"],
        },
        "subject": {
            "$ref": "#/components/schemas/Subject",
            "description": "The subject, when the app knows it; otherwise it is detected.",
            "examples": ["math"],
        },
        "grade": {
            "type": "string",
            "description": "The student's grade, free form.",
            "examples": ["7"],
        },
        "user_id": {
            "type": "string",
            "description": "Opaque end-user id chosen by the app's backend.",
            "examples": ["user_8c1f2a"],
        },
    },
}


async def read_scan_request(
    request: Request, services: Resources, caller: Principal
) -> tuple[ScanRequest, str]:
    """The request and its fingerprint. A student token's scan is its user's: the body's
    `user_id` may be left out or be that user's (another is a 403)."""
    tenant = caller.tenant
    limits = services.settings.input
    content_type = request.headers.get("content-type", "").lower()  # media types ignore case
    if content_type.startswith("multipart/form-data"):
        checked, image, image_type = await read_image_form(request, limits, ScanForm, FORM_FIELDS)
        scan = ScanRequest(
            text=checked.text,
            image=image,
            content_type=image_type,
            subject=checked.subject.value if checked.subject else None,
            grade=checked.grade,
            user_id=acting_user(caller, checked.user_id),
            tenant=tenant,
        )
    elif content_type.startswith("application/json") or not content_type:
        body = parse_or_422(ScanCreate, await request.body(), max_text_chars=limits.max_text_chars)
        scan = ScanRequest(
            text=body.text,
            subject=body.subject.value if body.subject else None,
            grade=body.grade,
            user_id=acting_user(caller, body.user_id),
            tenant=tenant,
            corrects_scan_id=body.corrects_scan_id,
        )
    else:
        raise ApiError(
            415,
            "unsupported_media_type",
            "send application/json with 'text' or multipart/form-data with 'image'",
        )
    image_hash = hashlib.sha256(scan.image).hexdigest() if scan.image is not None else None
    # The scan corrected counts only when named: the fingerprints of other requests stay.
    corrects = (str(scan.corrects_scan_id),) if scan.corrects_scan_id is not None else ()
    parts = (scan.text, image_hash, scan.subject, scan.grade, scan.user_id, *corrects)
    return scan, fingerprint(*parts)
