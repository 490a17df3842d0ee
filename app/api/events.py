"""GET /v1/scans/{id}/events: Server-Sent Events read from the durable scan_events table.

Events: one per pipeline node as it finishes (`ocr`, `analyze`, `retrieve`, `solve`,
`quick_verify`, `enrich`), then `done` (the solution) or `failed`, then `status_changed` when
a later check changes the badge (read from solutions.status_history). Ids are sequence
numbers; `Last-Event-ID` resumes after one. The table is polled, so any process's events are
seen; heartbeats are SSE comments; the stream ends a quiet period after `done`/`failed`.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import StreamingResponse

from app.api.auth import Caller
from app.api.deps import ServicesDep, SessionDep
from app.api.errors import ApiError
from app.api.openapi_docs import errors
from app.api.params import ScanId
from app.db.repositories.scan_events import ScanEventRepository
from app.db.repositories.scans import ScanRepository
from app.resources import Resources

router = APIRouter(prefix="/v1/scans", tags=["scans"])
FINAL_KINDS = ("done", "failed")


def sse(event_id: int, kind: str, data: Any) -> str:
    return f"id: {event_id}\nevent: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


@router.get(
    "/{scan_id}/events",
    operation_id="streamScanEvents",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "text/event-stream: `id`, `event` (ocr, analyze, retrieve, solve, "
            "quick_verify, enrich, done, failed, status_changed) and JSON `data`.",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        **errors(401, 404, 422, 429),
    },
)
async def stream_scan_events(
    scan_id: ScanId,
    request: Request,
    services: ServicesDep,
    session: SessionDep,
    caller: Caller,
    last_event_id: Annotated[
        str | None,
        Header(description="Resume after this event id (SSE reconnects send it).", examples=["5"]),
    ] = None,
) -> StreamingResponse:
    """Progress of a scan as Server-Sent Events (resumable with Last-Event-ID)."""
    if await ScanRepository(session).get_scan(scan_id, caller.tenant) is None:
        raise ApiError(404, "not_found", f"scan {scan_id} does not exist")
    after = int(last_event_id) if last_event_id and last_event_id.isdigit() else 0
    return StreamingResponse(
        _events(services, request, scan_id, after),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


async def _events(
    services: Resources, request: Request, scan_id: uuid.UUID, after: int
) -> AsyncIterator[str]:
    api = services.settings.api
    last = after
    final_seq: int | None = None
    quiet_since: float | None = None
    last_sent = time.monotonic()
    while not await request.is_disconnected():
        async with services.sessionmaker() as session:
            repo = ScanEventRepository(session)
            events = [(e.seq, e.kind, e.data) for e in await repo.after(scan_id, last)]
            if final_seq is None and not events:  # resumed after the final event
                final_seq = await repo.final_seq(scan_id, FINAL_KINDS)
                quiet_since = time.monotonic() if final_seq is not None else None
            histories = await ScanRepository(session).status_histories(scan_id)
            await session.rollback()
        chunks: list[str] = []
        for seq, kind, data in events:
            chunks.append(sse(seq, kind, data))
            last = seq
            if kind in FINAL_KINDS:
                final_seq, quiet_since = seq, time.monotonic()
        if final_seq is not None:
            # Badge changes follow the final event, numbered after it (monotonic ids).
            changes = [c for _, history in histories for c in history]
            for index, change in enumerate(changes, 1):
                if final_seq + index > last:
                    chunks.append(sse(final_seq + index, "status_changed", change))
                    last, quiet_since = final_seq + index, time.monotonic()
        if chunks:
            last_sent = time.monotonic()
            yield "".join(chunks)
        elif time.monotonic() - last_sent > api.events_heartbeat_s:
            last_sent = time.monotonic()
            yield ": keep-alive\n\n"
        if quiet_since is not None and time.monotonic() - quiet_since > api.events_quiet_s:
            return
        await asyncio.sleep(api.events_poll_s)
