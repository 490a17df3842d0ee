"""POST /v1/scans (sync with a deadline, or `Prefer: respond-async`), GET one, list, erase."""

from __future__ import annotations

import base64
import binascii
import uuid
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request, Response, status
from fastapi.responses import JSONResponse
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.background import BackgroundTask

from app.api.deps import ServicesDep, SessionDep
from app.api.errors import ApiError, sent_more_than_once
from app.api.openapi_docs import errors
from app.api.params import ScanId
from app.auth.caller import Caller, acting_user
from app.auth.keys import Principal
from app.db.models import Scan
from app.errors import NotFound
from app.idempotency import service as idempotency
from app.idempotency.repository import IdempotencyRepository
from app.resources import Resources
from app.scans.input import MULTIPART_SCHEMA, read_scan_request
from app.scans.jobs import finish_handed_over
from app.scans.repository import ScanRepository
from app.scans.schemas import (
    USER_ID_MAX_CHARS,
    USER_ID_PATTERN,
    ScanAccepted,
    ScanOut,
    ScanPage,
    SolutionResponse,
)
from app.scans.service import (
    DeadlineExceeded,
    ScanRequest,
    accept_scan,
    scan_out,
    solution_response,
    submit_scan,
)

router = APIRouter(prefix="/v1/scans", tags=["scans"])

# A scan accepted past the synchronous deadline, and the run that goes on to finish it.
HandedOver = tuple[Scan, DeadlineExceeded]

_OPENAPI_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/ScanCreate"}},
            "multipart/form-data": {"schema": MULTIPART_SCHEMA},
        },
    }
}
_LOCATION = {"Location": {"description": "/v1/scans/{id}", "schema": {"type": "string"}}}


@router.post(
    "",
    operation_id="createScan",
    status_code=status.HTTP_201_CREATED,
    response_model=SolutionResponse,
    openapi_extra=_OPENAPI_BODY,
    responses={
        201: {"description": "Solved and verified.", "headers": _LOCATION},
        202: {
            "model": ScanAccepted,
            "description": "Queued (`Prefer: respond-async`, or past the deadline): poll "
            "`Location` or stream `/v1/scans/{id}/events`.",
            "headers": _LOCATION,
        },
        **errors(401, 404, 409, 413, 415, 422, 429, 503),
    },
)
async def create_scan(
    request: Request,
    services: ServicesDep,
    session: SessionDep,
    caller: Caller,
    prefer: Annotated[
        str | None,
        Header(
            description="`respond-async`: answer 202 at once and solve in the background.",
            examples=["respond-async"],
        ),
    ] = None,
    idempotency_key: Annotated[
        str | None,
        Header(
            min_length=1,
            max_length=255,
            pattern=idempotency.IDEMPOTENCY_KEY_PATTERN,
            description="Replays the first response for the same key and body (24 h): 1-255 "
            "printable ASCII characters (a UUID, say).",
            examples=["c0a8f3e2-5b1d-4f6a-9e8d-7c6b5a4f3e2d"],
        ),
    ] = None,
) -> Response:
    """Solve and verify a problem (JSON text or a photo). The body is capped before it is read."""
    if len(request.headers.getlist("idempotency-key")) > 1:
        raise sent_more_than_once(["Idempotency-Key"])  # FastAPI reads one of them
    scan_request, request_hash = await read_scan_request(request, services, caller)
    if scan_request.corrects_scan_id is not None:
        await _check_correction(session, scan_request, caller)
    if idempotency_key:
        # A student's keys are their own: another student's identical key and body must not
        # replay this one's scan.
        idempotency_key = idempotency.user_scoped(caller.user_id, idempotency_key)
        stored = await idempotency.begin(
            services, caller.tenant, idempotency_key, "createScan", request_hash
        )
        if stored is not None:
            headers = {**stored.headers, "Idempotent-Replayed": "true"}
            return JSONResponse(stored.body, status_code=stored.status, headers=headers)
    handed_over: HandedOver | None = None
    try:
        response_status, body, handed_over = await _create(services, session, scan_request, prefer)
        location = f"/v1/scans/{body['scan_id']}"
        if idempotency_key:
            await IdempotencyRepository(session).complete(
                idempotency.tenant_scope(caller.tenant),
                idempotency_key,
                response_status,
                body,
                {"Location": location},
            )
    except BaseException:
        if handed_over is not None:
            handed_over[1].run.cancel()  # nothing was accepted: the run stops here
        if idempotency_key:
            await idempotency.release(services, caller.tenant, idempotency_key)
        raise
    finish = _finish_later(services, scan_request, handed_over)
    return JSONResponse(
        body, status_code=response_status, headers={"Location": location}, background=finish
    )


async def _check_correction(
    session: AsyncSession, scan_request: ScanRequest, caller: Principal
) -> None:
    """The scan a text names as the photo it corrects: the caller's tenant's, and its user's
    when it has one (404 otherwise, as for a scan that does not exist), and a photo (422).
    A student token reaches its own user's scans only (not even a scan bound to no user)."""
    named = scan_request.corrects_scan_id
    assert named is not None
    owner = await ScanRepository(session).scan_owner(named, scan_request.tenant)
    # End the read: the scan's rows are written in a new transaction (on SQLite one that read
    # first cannot write once another connection has committed).
    await session.commit()
    if (
        owner is None
        or (owner[1] is not None and owner[1] != scan_request.user_id)
        or (caller.is_student_token and owner[1] != caller.user_id)
    ):
        raise NotFound("scan", named)
    if owner[0] != "image":
        raise ApiError(422, "not_a_photo", f"scan {named} is not a photo scan: nothing to correct")


async def _create(
    services: Resources, session: AsyncSession, scan_request: ScanRequest, prefer: str | None
) -> tuple[int, dict[str, Any], HandedOver | None]:
    if prefer and "respond-async" in prefer.lower():
        return 202, _accepted(accept_scan(session, scan_request)), None
    try:
        scan, solution = await submit_scan(
            services, session, scan_request, deadline_s=services.settings.api.sync_deadline_s
        )
    except DeadlineExceeded as late:
        # Never a minutes-long wait: the same run finishes the scan once the response is
        # committed and sent (never started again); its job is the backstop should this
        # process die first.
        job_timeout_s = services.settings.worker.job_timeout_s
        accepted = accept_scan(
            session, scan_request, handed_over=late, backstop_after_s=job_timeout_s
        )
        return 202, _accepted(accepted), (accepted, late)
    return 201, solution_response(scan, solution).model_dump(mode="json"), None


def _finish_later(
    services: Resources, scan_request: ScanRequest, handed_over: HandedOver | None
) -> BackgroundTask | None:
    if handed_over is None:
        return None
    scan, late = handed_over
    return BackgroundTask(
        finish_handed_over,
        services,
        services.sessionmaker,
        scan,
        scan_request,
        late,
        wake_outbox=services.outbox.kick,
    )


def _accepted(scan: Any) -> dict[str, Any]:
    return ScanAccepted(scan_id=scan.id, state=scan.state).model_dump(mode="json")


@router.get(
    "",
    operation_id="listScans",
    response_model=ScanPage,
    responses=errors(401, 403, 422, 429),
)
async def list_scans(
    session: SessionDep,
    caller: Caller,
    user_id: Annotated[
        str | None,
        Query(
            max_length=USER_ID_MAX_CHARS,
            pattern=USER_ID_PATTERN,
            description="Only this end user's scans.",
            examples=["user_8c1f2a"],
        ),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100, description="Page size.", examples=[20])] = 20,
    cursor: Annotated[
        str | None,
        Query(
            max_length=200,
            description="`next_cursor` of the previous page.",
            examples=["MjAyNi0xMS0yMVQxMzowMDowMCswMDowMHwzZjhh"],
        ),
    ] = None,
) -> ScanPage:
    """The tenant's scans, newest first (keyset pagination: stable while scans are added).
    With a student token: that user's scans only (`user_id` left out or the token's own)."""
    user_id = acting_user(caller, user_id)
    before = _decode_cursor(cursor) if cursor else None
    scans = await ScanRepository(session).list_scans(
        caller.tenant, user_id=user_id, limit=limit + 1, before=before
    )
    page, more = scans[:limit], len(scans) > limit
    next_cursor = _encode_cursor(page[-1].created_at, page[-1].id) if more else None
    return ScanPage(items=[scan_out(s) for s in page], next_cursor=next_cursor)


@router.get(
    "/{scan_id}",
    operation_id="getScan",
    response_model=ScanOut,
    responses=errors(401, 404, 422, 429),
)
async def get_scan(scan_id: ScanId, session: SessionDep, caller: Caller) -> ScanOut:
    """The scan, its state and, once done, its latest solution."""
    scan = await ScanRepository(session).get_scan(scan_id, caller.tenant, user_id=caller.user_id)
    if scan is None:
        raise NotFound("scan", scan_id)
    return scan_out(scan)


@router.delete(
    "/{scan_id}",
    operation_id="deleteScan",
    status_code=status.HTTP_204_NO_CONTENT,
    responses={204: {"description": "Erased."}, **errors(401, 404, 422, 429)},
)
async def delete_scan(scan_id: ScanId, session: SessionDep, caller: Caller) -> Response:
    """Erase a scan with its solutions, verdicts, evaluations and events."""
    erased = await ScanRepository(session).erase_scan(
        scan_id, caller.tenant, user_id=caller.user_id
    )
    if not erased:
        raise NotFound("scan", scan_id)
    return Response(status_code=204)


def _encode_cursor(created_at: datetime, scan_id: uuid.UUID) -> str:
    raw = f"{created_at.isoformat()}|{scan_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode_cursor(cursor: str) -> tuple[datetime, uuid.UUID]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created_at, scan_id = raw.split("|")
        # In UTC, as the API writes them: a +14:00 at 0001-01-01 (or -14:00 at 9999-12-31)
        # has no UTC instant, and would fail inside the query instead of here.
        when = datetime.fromisoformat(created_at)
        return when.replace(tzinfo=when.tzinfo or UTC).astimezone(UTC), uuid.UUID(scan_id)
    except (ValueError, OverflowError, binascii.Error, UnicodeDecodeError):
        raise ApiError(422, "invalid_cursor", "cursor is not a next_cursor from this API") from None
