"""GET /v1/scans/{id}/events: Server-Sent Events read from the durable scan_events table.

Events: one per pipeline node as it finishes (`ocr`, `analyze`, `retrieve`, `solve`,
`quick_verify`, `enrich`), then `done` (the solution) or `failed`, then `status_changed` when
a later check changes the badge or the answer (read from solutions.status_history: the new
badge, answer, confidence and reason). Ids are sequence numbers; `Last-Event-ID` resumes after
one. The table is polled, so any process's events are seen; heartbeats are SSE comments. The
stream stays open while a follow-up job about the solution is owed (the outbox), and once none
is and nothing changed for `events_quiet_s`, it sends `settled` (no id: the final answer,
badge and confidence) and ends: a client closes its EventSource on `settled` or `failed`.

Streams are bounded so listeners cannot starve the server: at most `events_max_streams` per
process and `events_max_streams_per_tenant` of them for any one tenant, so one tenant cannot
hold every slot, and `events_max_streams_per_user` of those for one student token's user, so
one student cannot hold the school's (beyond any: 503 + Retry-After), each open at most
`events_max_lifetime_s` (the client reconnects with Last-Event-ID), and the poll interval
backs off while nothing changes.

Browsers' EventSource cannot send an Authorization header: the stream also takes a per-student
token as `?access_token=` (never an API key; app/auth/caller.py), and access logs redact it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from app.api.deps import ServicesDep, SessionDep
from app.api.errors import ApiError
from app.api.openapi_docs import errors
from app.api.params import ScanId
from app.auth.caller import StreamCaller
from app.db.errors import is_try_later
from app.db.repositories.outbox import OutboxRepository
from app.errors import NotFound
from app.resources import Resources
from app.scans.event_repository import ScanEventRepository
from app.scans.event_schemas import EVENT_SCHEMAS
from app.scans.repository import ScanRepository, SolutionState

log = logging.getLogger(__name__)
router = APIRouter(prefix="/v1/scans", tags=["scans"])
FINAL_KINDS = ("done", "failed")
# Sequence numbers are a 32-bit INTEGER column: a larger Last-Event-ID is past every event.
MAX_EVENT_ID = 2**31 - 1
_MAX_EVENT_ID_DIGITS = 64  # beyond any id; int() of it is cheap


def parse_last_event_id(value: str | None) -> int:
    """The id to resume after: 0 when absent; 422 unless ASCII digits (not "²", not 5,000 of
    them); ids beyond any event are clamped (the stream then has nothing to replay)."""
    if value is None or not value.strip():
        return 0
    value = value.strip()
    if not (value.isascii() and value.isdecimal() and len(value) <= _MAX_EVENT_ID_DIGITS):
        raise ApiError(
            422,
            "invalid_last_event_id",
            "Last-Event-ID must be an event id this stream sent (a non-negative integer)",
        )
    return min(int(value), MAX_EVENT_ID)


class StreamSlots:
    """How many event streams this process serves at once (each polls the database), in all,
    per tenant and per student token's user. The open server's one anonymous tenant (None) has
    only the overall limit; a key (user None) has its tenant's share."""

    def __init__(self, limit: int, per_tenant: int, per_user: int = 4) -> None:
        self.limit, self.per_tenant, self.per_user, self.open = limit, per_tenant, per_user, 0
        self._by_tenant: dict[str, int] = {}
        self._by_user: dict[tuple[str, str], int] = {}

    def take(self, tenant: str | None, user_id: str | None = None) -> bool:
        if self.open >= self.limit:
            return False
        if tenant is not None:
            if self._by_tenant.get(tenant, 0) >= self.per_tenant:
                return False
            if user_id is not None:
                if self._by_user.get((tenant, user_id), 0) >= self.per_user:
                    return False
                self._by_user[(tenant, user_id)] = self._by_user.get((tenant, user_id), 0) + 1
            self._by_tenant[tenant] = self._by_tenant.get(tenant, 0) + 1
        self.open += 1
        return True

    def give_back(self, tenant: str | None, user_id: str | None = None) -> None:
        self.open -= 1
        if tenant is not None:
            _count_down(self._by_tenant, tenant)
            if user_id is not None:
                _count_down(self._by_user, (tenant, user_id))


def _count_down(counts: dict[Any, int], key: Any) -> None:
    left = counts.pop(key) - 1
    if left:
        counts[key] = left


def _slots(request: Request, limit: int, per_tenant: int, per_user: int) -> StreamSlots:
    slots: StreamSlots | None = getattr(request.app.state, "event_stream_slots", None)
    if slots is None or (slots.limit, slots.per_tenant, slots.per_user) != (
        limit,
        per_tenant,
        per_user,
    ):
        slots = request.app.state.event_stream_slots = StreamSlots(limit, per_tenant, per_user)
    return slots


class SlotStreamingResponse(StreamingResponse):
    """Gives its stream slot back however the response ends (finished, disconnected,
    cancelled), even when the body generator never started."""

    def __init__(
        self,
        *args: Any,
        slots: StreamSlots,
        tenant: str | None,
        user_id: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.slots, self.tenant, self.user_id = slots, tenant, user_id

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.slots.give_back(self.tenant, self.user_id)


def sse(event_id: int | None, kind: str, data: Any) -> str:
    field = "" if event_id is None else f"id: {event_id}\n"
    return f"{field}event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def _settled(solution: SolutionState) -> dict[str, Any]:
    """The final word on the scan: its answer, badge and confidence once nothing is owed."""
    return {
        "final_answer": solution.final_answer,
        "verification_status": solution.verification_status,
        "verification_confidence": solution.verification_confidence,
    }


@router.get(
    "/{scan_id}/events",
    operation_id="streamScanEvents",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "text/event-stream: `id`, `event` (ocr, analyze, retrieve, solve, "
            "quick_verify, enrich, done, failed, status_changed, settled) and JSON `data`; "
            "`x-events` maps each event name to the schema of its `data`.",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
            "x-events": {
                name: {"$ref": f"#/components/schemas/{model.__name__}"}
                for name, model in EVENT_SCHEMAS.items()
            },
        },
        **errors(401, 404, 422, 429, 503),
    },
)
async def stream_scan_events(
    scan_id: ScanId,
    request: Request,
    services: ServicesDep,
    session: SessionDep,
    caller: StreamCaller,
    last_event_id: Annotated[
        str | None,
        Header(description="Resume after this event id (SSE reconnects send it).", examples=["5"]),
    ] = None,
) -> StreamingResponse:
    """Progress of a scan as Server-Sent Events (resumable with Last-Event-ID). Browsers pass
    a per-student token as `?access_token=` (EventSource sends no headers)."""
    after = parse_last_event_id(last_event_id)
    found = await ScanRepository(session).get_scan(scan_id, caller.tenant, user_id=caller.user_id)
    if found is None:
        raise NotFound("scan", scan_id)
    api = services.settings.api
    slots = _slots(
        request,
        api.events_max_streams,
        api.events_max_streams_per_tenant,
        api.events_max_streams_per_user,
    )
    if not slots.take(caller.tenant, caller.user_id):
        raise ApiError(
            503,
            "too_many_streams",
            "too many event streams are open right now; poll the scan or retry shortly",
            headers={"Retry-After": str(max(1, round(api.events_poll_max_s)))},
        )
    return SlotStreamingResponse(
        _events(services, request, scan_id, after),
        slots=slots,
        tenant=caller.tenant,
        user_id=caller.user_id,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _reconnect(after_s: float) -> str:
    """The SSE reconnection delay, sent as a stream ends before the scan is settled."""
    return f"retry: {1000 * max(1, round(after_s))}\n\n"


Poll = tuple[list[tuple[int, str, Any]], list[SolutionState], bool, int | None]


async def _poll(
    services: Resources, scan_id: uuid.UUID, last: int, final_seq: int | None
) -> Poll | None:
    """One look at the database: the events after `last`, the scan's solutions, whether a
    follow-up job about them is owed (once the final event is known), and the final event's
    id when the stream resumed after it; None when the scan was erased."""
    async with services.sessionmaker() as session:
        repo = ScanEventRepository(session)
        events = [(e.seq, e.kind, e.data) for e in await repo.after(scan_id, last)]
        resumed_final = None
        if final_seq is None and not events:
            resumed_final = await repo.final_seq(scan_id, FINAL_KINDS)
        scans = ScanRepository(session)
        if not events and not await scans.scan_exists(scan_id):
            return None
        solutions = await scans.solution_states(scan_id)
        final_known = final_seq is not None or resumed_final is not None
        owed = final_known and await OutboxRepository(session).owes_jobs_about(
            [str(solution.id) for solution in solutions]
        )
        await session.rollback()
    return events, solutions, owed, resumed_final


async def _events(
    services: Resources, request: Request, scan_id: uuid.UUID, after: int
) -> AsyncIterator[str]:
    api = services.settings.api
    last = after
    final_seq: int | None = None
    quiet_since: float | None = None
    last_sent = opened = time.monotonic()
    poll_s = api.events_poll_s
    while not await request.is_disconnected():
        try:
            poll = await _poll(services, scan_id, last, final_seq)
        except Exception as exc:
            # The response has started: no 503 can be sent now. End the stream with the SSE
            # reconnection delay; the client comes back with Last-Event-ID and misses nothing
            # (the events are in the database), or gets the 503 + Retry-After while it is away.
            if is_try_later(exc):
                log.warning(
                    "event stream of scan %s ended: database unavailable (%s)", scan_id, exc
                )
            else:
                log.exception("event stream of scan %s ended by an error", scan_id)
            yield _reconnect(api.events_poll_max_s)
            return
        if poll is None:  # erased while the stream was open (a reconnect gets 404)
            return
        events, solutions, owed, resumed_final = poll
        if final_seq is None and resumed_final is not None:  # resumed after the final event
            final_seq, quiet_since = resumed_final, time.monotonic()
        chunks: list[str] = []
        for seq, kind, data in events:
            chunks.append(sse(seq, kind, data))
            last = seq
            if kind in FINAL_KINDS:
                final_seq, quiet_since = seq, time.monotonic()
        if final_seq is not None:
            # Later changes follow the final event, numbered after it (monotonic ids).
            changes = [c for solution in solutions for c in solution.history]
            for index, change in enumerate(changes, 1):
                if final_seq + index > last:
                    chunks.append(sse(final_seq + index, "status_changed", change))
                    last, quiet_since = final_seq + index, time.monotonic()
            if owed:
                quiet_since = None  # a follow-up job may still change the badge or answer
            elif quiet_since is None:
                quiet_since = time.monotonic()
        if chunks:
            last_sent = time.monotonic()
            yield "".join(chunks)
        elif time.monotonic() - last_sent > api.events_heartbeat_s:
            last_sent = time.monotonic()
            yield ": keep-alive\n\n"
        if quiet_since is not None and time.monotonic() - quiet_since > api.events_quiet_s:
            # Every follow-up job has completed and nothing changed for the quiet period:
            # the ledger is final. `settled` has no id (a resumed stream sends it again); a
            # failed scan has no answer to settle.
            if solutions:
                yield sse(None, "settled", _settled(solutions[0]))
            return
        if time.monotonic() - opened > api.events_max_lifetime_s:
            yield _reconnect(api.events_poll_max_s)  # with Last-Event-ID: it misses nothing
            return
        # Quick while events arrive; backing off while nothing changes (idle listeners).
        poll_s = api.events_poll_s if chunks else min(poll_s * 2, api.events_poll_max_s)
        await asyncio.sleep(poll_s)
