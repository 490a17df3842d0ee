"""Run a queued scan in a background job: progress events as each node finishes (each in its
own short transaction, so any process can stream them), then the rows, `done`, and the input
deleted. Every transaction keeps the one contract (app/db/transaction.py): committed when its
block succeeds, rolled back otherwise, and the outbox relay woken once the result's follow-up
jobs are committed. A second delivery finds the scan done.
A scan erased (DELETE) while its job runs stops the job quietly: its rows can no longer be
written (the foreign keys say so), and that is the expected end, not an error."""

from __future__ import annotations

import logging
import traceback
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Scan
from app.db.transaction import reading, transaction
from app.ocr.errors import OcrBusy
from app.pipeline.context import PipelineContext
from app.pipeline.graph import SolveGraph
from app.pipeline.prompts.localized import RETAKE_PHOTO, Language
from app.pipeline.state import SolveState
from app.scans.event_repository import ScanEventRepository, ScanInputRepository
from app.scans.pipeline import RetakePhoto
from app.scans.provider_counts import ProviderResultCounts
from app.scans.repository import ScanRepository
from app.scans.service import (
    DeadlineExceeded,
    ScanRequest,
    ScanStorage,
    UnreadableInput,
    done_event,
    run_request,
    store_result,
)
from app.schemas.common import ErrorCode
from app.settings import Settings
from app.worker.job_signals import RetryLater, is_transient

log = logging.getLogger(__name__)
INTERNAL_ERROR = {
    "en": "Something went wrong while solving this problem. Please try again.",
    "zh": "解题时出现了错误，请重试。",
}


@dataclass(slots=True)
class ScanJobServices:
    """What queued scans run with in a process, built once with its job context
    (app/worker/context.py open_job_context): the server's own pipeline context, graph and
    provider counts, or a worker's. It is the `ScanSolver` of app/scans/service.py."""

    settings: Settings
    graph: SolveGraph
    pipeline: PipelineContext
    provider_counts: ProviderResultCounts


class ScanErased(Exception):
    """The scan was deleted while its job ran: nothing of it may be written any more."""


@asynccontextmanager
async def unless_erased(
    sessionmaker: async_sessionmaker[AsyncSession],
    scan_id: uuid.UUID,
    wake_outbox: Callable[[], None] | None,
) -> AsyncIterator[AsyncSession]:
    """A transaction on the scan's rows; its commit refused (a foreign key) because the scan is
    gone becomes ScanErased: nothing is written, so an erased scan is never brought back."""
    committing = False
    try:
        async with transaction(sessionmaker, on_commit=wake_outbox) as session:
            yield session
            committing = True  # the block is done: what fails now is the commit
    except IntegrityError:
        if committing and await _erased(sessionmaker, scan_id):
            raise ScanErased(str(scan_id)) from None
        raise


async def _erased(sessionmaker: async_sessionmaker[AsyncSession], scan_id: uuid.UUID) -> bool:
    async with reading(sessionmaker) as check:
        return await ScanRepository(check).get_any_scan(scan_id) is None


class EventWriter:
    """Appends a scan's events in their own transactions (visible to SSE readers at once).
    The job is the scan's only writer, so sequence numbers are counted here: each
    transaction only writes (SQLite cannot turn a read snapshot into a write after another
    connection committed). `wake_outbox`: the job's after-commit hook (its relay's kick)."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        scan_id: uuid.UUID,
        first_seq: int,
        wake_outbox: Callable[[], None] | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.scan_id = scan_id
        self.seq = first_seq
        self.wake_outbox = wake_outbox

    def take(self) -> int:
        self.seq += 1
        return self.seq - 1

    def transaction(self) -> AbstractAsyncContextManager[AsyncSession]:
        """A transaction on the scan's rows, ScanErased when the scan is gone at commit."""
        return unless_erased(self.sessionmaker, self.scan_id, self.wake_outbox)

    async def append(self, kind: str, data: dict[str, Any]) -> None:
        async with self.transaction() as session:
            ScanEventRepository(session).add(self.scan_id, self.take(), kind, data)


async def run_queued_scan(
    services: ScanStorage,
    graph: SolveGraph,
    pipeline: PipelineContext,
    sessionmaker: async_sessionmaker[AsyncSession],
    scan_id: uuid.UUID,
    *,
    wake_outbox: Callable[[], None] | None = None,
) -> str:
    """`services`: what storing the result uses (the job context's ScanJobServices, or the
    server's Resources).
    `wake_outbox`: the job's after-commit hook, run once the result's follow-up jobs are
    committed (None where no relay runs in this process: its poll delivers them)."""
    async with reading(sessionmaker) as session:  # the write below is its own transaction
        scan = await ScanRepository(session).get_any_scan(scan_id)
        scan_input = await ScanInputRepository(session).get(scan_id)
        if scan is None or scan.state in ("done", "failed") or scan_input is None:
            return "nothing to do"
        request = ScanRequest(
            text=scan_input.text,
            image=scan_input.image,
            content_type=scan_input.content_type,
            tenant=scan.tenant,
            user_id=scan.user_id,
            **{k: (scan_input.options or {}).get(k) for k in ("subject", "grade")},
        )
        first_seq = await ScanEventRepository(session).next_seq(scan_id)
    async with transaction(sessionmaker) as session:
        await ScanRepository(session).set_state(scan_id, "running")

    writer = EventWriter(sessionmaker, scan_id, first_seq, wake_outbox)
    run = run_request(
        graph,
        pipeline,
        request,
        min_ocr_confidence=services.settings.ocr.min_confidence,
        on_node=writer.append,
    )
    try:
        return await _finish(services, writer, request, run)
    except ScanErased:
        log.info("scan %s was erased while its job ran; job stopped", scan_id)
        return "erased"


async def finish_handed_over(
    services: ScanStorage,
    sessionmaker: async_sessionmaker[AsyncSession],
    scan: Scan,
    request: ScanRequest,
    late: DeadlineExceeded,
    *,
    wake_outbox: Callable[[], None] | None = None,
) -> str:
    """Finish a scan whose synchronous run passed its deadline (`accept_scan(...,
    handed_over=late)`, committed): the same run, its result stored as a queued scan's is.
    A transient outage or a restart leaves the scan to its backstop job."""
    writer = EventWriter(sessionmaker, scan.id, late.progress.stored + 1, wake_outbox)
    try:
        await late.progress.write_on(writer.append)
        return await _finish(services, writer, request, late.run)
    except ScanErased:
        late.run.cancel()
        log.info("scan %s was erased while it ran; run stopped", scan.id)
        return "erased"
    except Exception as exc:  # only a transient one reaches here: the backstop job runs it
        late.run.cancel()
        log.warning("scan %s left to its job: %s", scan.id, type(exc).__name__)
        return "left to its job"


async def _finish(
    services: ScanStorage,
    writer: EventWriter,
    request: ScanRequest,
    run: Awaitable[SolveState],
) -> str:
    """Await the run (progress events already going to `writer`), then store its result, or
    fail the scan for good when the input cannot be solved."""
    scan_id = writer.scan_id
    try:
        result = await run
    except RetakePhoto:
        await _fail(writer, "retake_photo", RETAKE_PHOTO[_lang(request)])
        return "failed: retake_photo"
    except UnreadableInput as exc:
        await _fail(writer, exc.code, exc.message)
        return f"failed: {exc.code}"
    except (RetryLater, ScanErased):
        raise  # RetryLater: a transient outage; the queue runs the job again, input kept
    except OcrBusy as exc:
        # Every OCR slot is taken: a request would get a 503 with Retry-After; an accepted
        # photo waits its turn (the queue runs the job again, input kept).
        raise RetryLater("OCR is busy", delay_s=exc.retry_after_s) from exc
    except Exception as exc:
        return await _unexpected(writer, request, exc)

    # The result, its `done` event and its follow-up jobs in one transaction: once committed,
    # the relay is woken and the jobs go out at once.
    try:
        async with writer.transaction() as session:
            # Write first (takes SQLite's write lock before any read snapshot exists).
            await ScanInputRepository(session).delete(scan_id)
            scan = await ScanRepository(session).get_any_scan(scan_id)
            if scan is None:  # erased while running
                await session.rollback()  # the delete above is undone: nothing left to commit
                return "erased"
            scan, solution = await store_result(services, session, result, request, scan)
            event = done_event(scan, solution)
            ScanEventRepository(session).add(scan_id, writer.take(), "done", event)
    except ScanErased:
        raise
    except Exception as exc:  # a result the database refuses ends the scan like any bug
        return await _unexpected(writer, request, exc)
    return "done"


async def _unexpected(writer: EventWriter, request: ScanRequest, exc: Exception) -> str:
    if is_transient(exc):
        # The database (a progress event's commit) or Redis away: the queue runs the job
        # again, input kept; the scan is not failed for an outage.
        raise exc
    # A bug or a broken dependency: end the scan, or pollers wait and streams never end
    # (and a restart would run it again, forever). The class and stack are logged, not
    # the message, which could quote the student.
    log.error(
        "scan %s failed: %s\n%s",
        writer.scan_id,
        type(exc).__name__,
        "".join(traceback.format_tb(exc.__traceback__)),
    )
    await _fail(writer, "internal_error", INTERNAL_ERROR[_lang(request)])
    return "failed: internal_error"


def _lang(request: ScanRequest) -> Language:
    text = request.text or ""
    return "zh" if any("\u3400" <= c <= "\u9fff" for c in text) else "en"


async def _fail(writer: EventWriter, code: ErrorCode, message: str) -> None:
    async with transaction(writer.sessionmaker) as session:
        await ScanInputRepository(session).delete(writer.scan_id)
        await ScanRepository(session).set_state(writer.scan_id, "failed", code)
    await writer.append("failed", {"code": code, "message": message})
