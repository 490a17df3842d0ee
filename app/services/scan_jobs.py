"""Run a queued scan in a background job: progress events as each node finishes (each in its
own short transaction, so any process can stream them), then the rows, `done`, and the input
deleted. The job wrapper owns the final transaction; a second delivery finds the scan done.
A scan erased (DELETE) while its job runs stops the job quietly: its rows can no longer be
written (the foreign keys say so), and that is the expected end, not an error."""

from __future__ import annotations

import logging
import traceback
import uuid
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.repositories.scan_events import ScanEventRepository, ScanInputRepository
from app.db.repositories.scans import ScanRepository
from app.ocr.errors import OcrBusy
from app.pipeline.context import PipelineContext
from app.pipeline.prompts.localized import RETAKE_PHOTO
from app.schemas.common import ErrorCode
from app.services.scan_pipeline import RetakePhoto
from app.services.scans import (
    ScanRequest,
    UnreadableInput,
    done_event,
    run_request,
    store_result,
)
from app.worker.queue import RetryLater

log = logging.getLogger(__name__)
INTERNAL_ERROR = {
    "en": "Something went wrong while solving this problem. Please try again.",
    "zh": "解题时出现了错误，请重试。",
}


class ScanErased(Exception):
    """The scan was deleted while its job ran: nothing of it may be written any more."""


async def _commit_unless_erased(
    session: AsyncSession, sessionmaker: async_sessionmaker[AsyncSession], scan_id: uuid.UUID
) -> None:
    """Commit; a foreign-key failure because the scan is gone becomes ScanErased."""
    try:
        await session.commit()
    except IntegrityError:
        await session.rollback()
        async with sessionmaker() as check:
            gone = await ScanRepository(check).get_any_scan(scan_id) is None
            await check.rollback()
        if gone:
            raise ScanErased(str(scan_id)) from None
        raise


class EventWriter:
    """Appends a scan's events in their own transactions (visible to SSE readers at once).
    The job is the scan's only writer, so sequence numbers are counted here: each
    transaction only writes (SQLite cannot turn a read snapshot into a write after another
    connection committed)."""

    def __init__(
        self, sessionmaker: async_sessionmaker[AsyncSession], scan_id: uuid.UUID, first_seq: int
    ) -> None:
        self.sessionmaker = sessionmaker
        self.scan_id = scan_id
        self.seq = first_seq

    def take(self) -> int:
        self.seq += 1
        return self.seq - 1

    async def append(self, kind: str, data: dict[str, Any]) -> None:
        async with self.sessionmaker() as session:
            ScanEventRepository(session).add(self.scan_id, self.take(), kind, data)
            await _commit_unless_erased(session, self.sessionmaker, self.scan_id)


async def run_queued_scan(
    services: Any,
    graph: Any,
    pipeline: PipelineContext,
    sessionmaker: async_sessionmaker[AsyncSession],
    scan_id: uuid.UUID,
) -> str:
    """`services`: anything with `settings` and `provider_counts` (Resources or a job's)."""
    async with sessionmaker() as session:
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
        await session.rollback()  # reads end here; the write below is its own transaction
    async with sessionmaker() as session:
        await ScanRepository(session).set_state(scan_id, "running")
        await session.commit()

    writer = EventWriter(sessionmaker, scan_id, first_seq)
    try:
        return await _run(services, graph, pipeline, sessionmaker, writer, request)
    except ScanErased:
        log.info("scan %s was erased while its job ran; job stopped", scan_id)
        return "erased"


async def _run(
    services: Any,
    graph: Any,
    pipeline: PipelineContext,
    sessionmaker: async_sessionmaker[AsyncSession],
    writer: EventWriter,
    request: ScanRequest,
) -> str:
    scan_id = writer.scan_id
    try:
        result = await run_request(
            graph,
            pipeline,
            request,
            min_ocr_confidence=services.settings.ocr.min_confidence,
            on_node=writer.append,
        )
    except RetakePhoto:
        await _fail(sessionmaker, writer, scan_id, "retake_photo", RETAKE_PHOTO[_lang(request)])
        return "failed: retake_photo"
    except UnreadableInput as exc:
        await _fail(sessionmaker, writer, scan_id, exc.code, exc.message)
        return f"failed: {exc.code}"
    except (RetryLater, ScanErased):
        raise  # RetryLater: a transient outage; the queue runs the job again, input kept
    except OcrBusy as exc:
        # Every OCR slot is taken: a request would get a 503 with Retry-After; an accepted
        # photo waits its turn (the queue runs the job again, input kept).
        raise RetryLater("OCR is busy", delay_s=exc.retry_after_s) from exc
    except Exception as exc:
        # A bug or a broken dependency: end the scan, or pollers wait and streams never end
        # (and a restart would run it again, forever). The class and stack are logged, not
        # the message, which could quote the student.
        log.error(
            "scan %s failed: %s\n%s",
            scan_id,
            type(exc).__name__,
            "".join(traceback.format_tb(exc.__traceback__)),
        )
        await _fail(sessionmaker, writer, scan_id, "internal_error", INTERNAL_ERROR[_lang(request)])
        return "failed: internal_error"

    async with sessionmaker() as session:
        # Write first (takes SQLite's write lock before any read snapshot exists).
        await ScanInputRepository(session).delete(scan_id)
        scan = await ScanRepository(session).get_any_scan(scan_id)
        if scan is None:  # erased while running
            await session.rollback()
            return "erased"
        scan, solution = await store_result(services, session, result, request, scan)
        ScanEventRepository(session).add(scan_id, writer.take(), "done", done_event(scan, solution))
        await _commit_unless_erased(session, sessionmaker, scan_id)
    return "done"


def _lang(request: ScanRequest) -> Any:
    text = request.text or ""
    return "zh" if any("\u3400" <= c <= "\u9fff" for c in text) else "en"


async def _fail(
    sessionmaker: async_sessionmaker[AsyncSession],
    writer: EventWriter,
    scan_id: uuid.UUID,
    code: ErrorCode,
    message: str,
) -> None:
    async with sessionmaker() as session:
        await ScanInputRepository(session).delete(scan_id)
        await ScanRepository(session).set_state(scan_id, "failed", code)
        await session.commit()
    await writer.append("failed", {"code": code, "message": message})


class JobScanServices:
    """What `run_queued_scan` needs, built once per job context (a worker process has no API
    Resources): the compiled graph, a pipeline context with OCR and the problem bank."""

    def __init__(self, jobs: Any) -> None:
        from app.pipeline.graph import build_graph
        from app.retrieval.bank import ProblemBankRetriever
        from app.services.provider_counts import ProviderResultCounts
        from app.verification.spot_check_sampling import SpotCheckRates
        from app.worker.context import build_pipeline_context

        settings = jobs.settings
        self.settings = settings
        self.graph = build_graph()
        # The process's own pipeline context (the server's, with its OCR engine and the
        # calibrators as refitted), or one like it for a context built without one.
        self.pipeline: PipelineContext = jobs.pipeline or build_pipeline_context(
            settings, jobs.sessionmaker, jobs.registry, jobs.sandbox
        )
        assert isinstance(self.pipeline.retriever, ProblemBankRetriever)
        self.retriever = self.pipeline.retriever
        self.provider_counts = ProviderResultCounts(SpotCheckRates().new_provider_results)
        self.warmed = False


_per_context: dict[int, JobScanServices] = {}


async def scan_services_for(jobs: Any) -> JobScanServices:
    services = _per_context.get(id(jobs))
    if services is None:
        services = _per_context[id(jobs)] = JobScanServices(jobs)
    if not services.warmed:
        await services.retriever.warm_up()
        services.warmed = True
    return services
