"""Submit a scan: run the pipeline, add its rows and stage its follow-up jobs; or queue it for a
worker. The caller owns the transaction (`app.resources.unit_of_work` or the job wrapper): it
commits and wakes the outbox relay. What a use case needs besides the session is named here
(`ScanStorage`, `ScanSolver`): the server's Resources and a job context's ScanJobServices
both provide it."""

from __future__ import annotations

import asyncio
import hashlib
import random
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal, Protocol, get_args

from sqlalchemy.ext.asyncio import AsyncSession

from app.analysis.classifier import grade_label
from app.db.base import Base
from app.db.models import Scan, ScanEvent, ScanInput, Solution, VerificationRecord
from app.db.models._columns import utcnow
from app.db.repositories.outbox import OutboxRepository
from app.errors import DomainError
from app.metrics import SCANS
from app.ocr.words import usable_reading
from app.pipeline.context import PipelineContext
from app.pipeline.graph import SolveGraph
from app.pipeline.state import SolveState
from app.scans.event_repository import ScanInputRepository
from app.scans.pipeline import NodeListener, RetakePhoto, stream_pipeline
from app.scans.provider_counts import ProviderResultCounts
from app.scans.repository import ScanRepository
from app.scans.views import scan_out, solution_detail, solution_response
from app.schemas.common import ErrorCode
from app.settings import Settings, VerifySettings
from app.solutions.caution import caution_code
from app.verification.spot_check_sampling import draw_spot_check

__all__ = [
    "DeadlineExceeded",
    "Progress",
    "RetakePhoto",
    "ScanRequest",
    "ScanSolver",
    "ScanStorage",
    "UnreadableInput",
    "accept_scan",
    "scan_out",
    "solution_detail",
    "solution_response",
    "submit_scan",
]

_rng = random.Random()


class ScanStorage(Protocol):
    """What storing an answered scan uses besides the session: the settings (the verify
    section's spot-check and MARS switches) and the providers' answer counts (the spot-check
    sampler's "new provider" rate)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def provider_counts(self) -> ProviderResultCounts: ...


class ScanSolver(ScanStorage, Protocol):
    """What solving a scan now uses besides storing it: the compiled graph and the process's
    pipeline context (the settings give OCR's confidence floor)."""

    @property
    def graph(self) -> SolveGraph: ...

    @property
    def pipeline(self) -> PipelineContext: ...


UnreadableCode = Literal[
    "no_text_found", "ocr_unavailable", "text_too_long", "incomplete_reading", "too_many_steps"
]


class UnreadableInput(DomainError):
    """No problem (or no work) could be read from the input: also a failed scan's code."""

    status = 422
    codes = get_args(UnreadableCode)

    def __init__(self, code: UnreadableCode, message: str) -> None:
        super().__init__(message, code=code)


class Progress:
    """A run's progress events: kept while a request waits for it; once the run is handed
    over to the background (past the deadline), written to the scan as they come."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.stored = 0  # how many went in with the accepted scan
        self._write: NodeListener | None = None
        self._lock = asyncio.Lock()  # the hand-over and an event arriving do not interleave

    async def __call__(self, node: str, data: dict[str, Any]) -> None:
        async with self._lock:
            if self._write is None:
                self.events.append((node, data))
            else:
                await self._write(node, data)

    def store(self) -> list[tuple[str, dict[str, Any]]]:
        """The events so far, to store with the accepted scan."""
        self.stored = len(self.events)
        return self.events[: self.stored]

    async def write_on(self, write: NodeListener) -> None:
        """Write the events that came after `store`, then every later one, in order."""
        async with self._lock:
            for node, data in self.events[self.stored :]:
                await write(node, data)
            self._write = write


class DeadlineExceeded(Exception):
    """The synchronous answer took longer than the deadline: the caller answers 202 and the
    run goes on in the background (`run`, its `progress` so far), never started again. Not a
    DomainError: no error is answered (app/scans/endpoints.py)."""

    def __init__(self, run: asyncio.Task[SolveState], progress: Progress) -> None:
        super().__init__("the synchronous deadline passed")
        self.run = run
        self.progress = progress


_UNREADABLE: dict[ErrorCode, str] = {
    "no_text_found": "no text was found in the image",
    "ocr_unavailable": "this server cannot read images",
}


@dataclass(frozen=True, slots=True)
class ScanRequest:
    text: str | None = None
    image: bytes | None = None
    content_type: str | None = None
    subject: str | None = None
    grade: str | None = None
    user_id: str | None = None
    tenant: str | None = None
    corrects_scan_id: uuid.UUID | None = None  # the photo scan this text corrects (checked)

    def options(self) -> dict[str, Any]:
        return {"subject": self.subject, "grade": self.grade}


async def run_request(
    services_graph: SolveGraph,
    pipeline: PipelineContext,
    request: ScanRequest,
    *,
    min_ocr_confidence: float,
    on_node: NodeListener | None = None,
) -> SolveState:
    """Run the pipeline for a request; UnreadableInput / RetakePhoto when it cannot."""
    state = SolveState(
        problem_text=request.text or "",
        image=request.image,
        subject_hint=request.subject,
        grade_hint=request.grade,
    )
    result = await stream_pipeline(
        services_graph,
        pipeline,
        state,
        on_node=on_node,
        min_ocr_confidence=min_ocr_confidence,
    )
    if result.ocr_unread and not usable_reading(result.problem_text):
        # Ink was seen, but nothing of it that could be shown for correction was read.
        raise RetakePhoto(result.ocr_confidence, result.problem_text, request.text)
    if result.error or not result.problem_text.strip():
        code = _unreadable_code(result.error)
        raise UnreadableInput(code, _UNREADABLE[code])
    return result


async def submit_scan(
    services: ScanSolver,
    session: AsyncSession,
    request: ScanRequest | None = None,
    *,
    deadline_s: float | None = None,
    **fields: Any,
) -> tuple[Scan, Solution]:
    """Solve now (`request`, or its fields as keywords: text=, image=, subject=, ...). Past
    `deadline_s` DeadlineExceeded is raised with the run still going: the caller accepts the
    scan (`accept_scan(..., handed_over=)`) and lets the run finish it in the background
    (app/scans/jobs.py, `finish_handed_over`); its model calls are not paid twice."""
    request = request or ScanRequest(**fields)
    progress = Progress()
    run = asyncio.ensure_future(
        run_request(
            services.graph,
            services.pipeline,
            request,
            min_ocr_confidence=services.settings.ocr.min_confidence,
            on_node=progress,
        )
    )
    try:
        done, _ = await asyncio.wait({run}, timeout=deadline_s)
    except BaseException:  # the request itself cancelled: its run goes with it
        run.cancel()
        raise
    if not done:
        raise DeadlineExceeded(run, progress)
    # The events of a synchronous scan are written with it: a client may still read them.
    return await store_result(services, session, run.result(), request, events=progress.events)


def _unreadable_code(error: str | None) -> UnreadableCode:
    """The pipeline's `error` (app/pipeline/nodes/ocr.py) as the API's error code."""
    return "ocr_unavailable" if error == "ocr_unavailable" else "no_text_found"


def done_event(scan: Scan, solution: Solution) -> dict[str, Any]:
    return solution_response(scan, solution).model_dump(mode="json")


async def store_result(
    services: ScanStorage,
    session: AsyncSession,
    result: SolveState,
    request: ScanRequest,
    scan: Scan | None = None,
    *,
    events: list[tuple[str, dict[str, Any]]] | None = None,
) -> tuple[Scan, Solution]:
    """Write the scan (new, or a queued one filled in), its solution and verdicts, `events`
    (the progress of a synchronous scan, then `done`) and the follow-up jobs. New rows go in
    with one INSERT per table (no unit of work: this is every answered scan's cost)."""
    new_scan = scan is None
    scan = _fill_scan(scan or Scan(id=uuid.uuid4(), created_at=utcnow()), result, request)
    solution, verifications = _solution_rows(scan, result)
    repo = ScanRepository(session)
    # Written before anything is read in this transaction: on SQLite a transaction that read
    # first fails at once ("database is locked") when it writes after another one committed.
    await repo.insert_new([*([scan] if new_scan else []), solution, *verifications])
    # The follow-up jobs are written in the scan's own transaction (the outbox): once it is
    # committed the evaluation cannot be lost, even if Redis is down right now.
    verify, counts = services.settings.verify, services.provider_counts
    jobs = await followup_jobs(verify, counts, session, scan, solution)
    rows: list[Base] = [*OutboxRepository(session).messages(jobs)]
    if events is not None:
        done = ("done", done_event(scan, solution))
        rows += [
            ScanEvent(scan_id=scan.id, seq=seq, kind=kind, data=data)
            for seq, (kind, data) in enumerate([*events, done], 1)
        ]
    await repo.insert_new(rows)
    if not new_scan:
        await session.flush()  # the queued scan's UPDATE: a database error surfaces here
    SCANS.labels(result.verification_status, result.verify_method or "none").inc()
    return scan, solution


def accept_scan(
    session: AsyncSession,
    request: ScanRequest,
    *,
    handed_over: DeadlineExceeded | None = None,
    backstop_after_s: float = 0.0,
) -> Scan:
    """Queue a scan: its row (state queued), its input, and a `run_scan` job in the outbox,
    all in the caller's transaction, so the work survives a restart.

    `handed_over`: a run already going on (past the synchronous deadline). The scan is
    `running` with the events so far, and its job is a backstop, due `backstop_after_s`
    later: it finds the scan done, unless this process died first."""
    scan = Scan(
        id=uuid.uuid4(),
        tenant=request.tenant,
        user_id=request.user_id,
        state="queued" if handed_over is None else "running",
        source="image" if request.image is not None else "text",
        problem_text=request.text or "",
        image_sha256=_sha256(request.image),
        image_bytes=len(request.image) if request.image is not None else None,
        subject=request.subject or "general",
        grade_band="primary",
        grade=grade_label(request.grade),
        difficulty="easy",
        language="zh" if request.text and _has_cjk(request.text) else "en",
        topics=[],
        corrects_scan_id=request.corrects_scan_id,
    )
    session.add(scan)
    ScanInputRepository(session).add(
        ScanInput(
            scan_id=scan.id,
            text=request.text,
            image=request.image,
            content_type=request.content_type,
            options={**request.options(), "user_id": request.user_id},
        )
    )
    backstop = utcnow() + timedelta(seconds=backstop_after_s) if handed_over else None
    OutboxRepository(session).stage(
        "run_scan", [str(scan.id)], job_id=f"run_scan:{scan.id}", available_at=backstop
    )
    if handed_over is not None:
        session.add_all(
            ScanEvent(scan_id=scan.id, seq=seq, kind=kind, data=data)
            for seq, (kind, data) in enumerate(handed_over.progress.store(), 1)
        )
    return scan


def _has_cjk(text: str) -> bool:
    return any("\u3400" <= c <= "\u9fff" for c in text)


def _sha256(image: bytes | None) -> str | None:
    return hashlib.sha256(image).hexdigest() if image is not None else None


def _fill_scan(scan: Scan, result: SolveState, request: ScanRequest) -> Scan:
    scan.tenant = request.tenant
    scan.user_id = request.user_id
    scan.state = "done"
    scan.source = "image" if request.image is not None else "text"
    scan.problem_text = result.problem_text
    scan.image_sha256 = _sha256(request.image)
    scan.image_bytes = len(request.image) if request.image is not None else None
    scan.ocr_confidence = result.ocr_confidence
    scan.second_reading = result.second_reading
    if request.corrects_scan_id is not None:  # a queued scan's row has it already
        scan.corrects_scan_id = request.corrects_scan_id
    scan.subject = result.subject
    scan.grade_band = result.grade_band
    scan.grade = grade_label(request.grade)
    scan.difficulty = result.difficulty
    scan.language = result.language
    scan.topics = result.topics
    return scan


def _solution_rows(scan: Scan, result: SolveState) -> tuple[Solution, list[VerificationRecord]]:
    # Ids are chosen here, not at flush, so the outbox can name the solution before the commit.
    solution = Solution(
        id=uuid.uuid4(),
        scan_id=scan.id,  # not `scan=`: that would also queue it for the unit of work
        created_at=utcnow(),
        provider=result.provider,
        model=result.model,
        final_answer=result.solution.final_answer if result.solution else None,
        steps=result.solution.steps if result.solution else [],
        verification_status=result.verification_status,
        verification_confidence=result.verify_confidence,
        confidence_calibrated=result.verify_calibrated,
        caution_reason=result.caution_reason,
        caution_code=caution_code(result),
        independent_answer=result.independent_answer,
        ground_truth=result.ground_truth,
        attempts=result.attempt_count,
        providers_tried=result.provider_history,
        knowledge_points=result.knowledge_points,
        hint=result.hint,
        latency_ms=sum(a.latency_ms for a in result.attempts),
        model_calls=result.model_calls,
        status_history=[],
    )
    verifications = [
        VerificationRecord.from_verdict(
            solution,
            v,
            tier="quick",
            attempt=attempt.number,
            answer_provider=attempt.provider,
            answer_model=attempt.model,
            answer=attempt.final_answer,
        )
        for attempt in result.attempts
        for v in attempt.verdicts
    ]
    return solution, verifications


async def followup_jobs(
    verify: VerifySettings,
    provider_counts: ProviderResultCounts,
    session: AsyncSession,
    scan: Scan,
    solution: Solution,
) -> list[tuple[str, tuple[str, ...], str]]:
    """The background jobs of an answered scan, as (task, args, job id): deep evaluation, the
    tier-2 consensus check, and a tier-3 spot check when the sampler draws it. The outbox
    relay hands them to the queue once committed (at once, or when Redis is back)."""
    jobs: list[tuple[str, tuple[str, ...]]] = [
        ("deep_evaluate", (str(solution.id),)),
        ("consensus_check", (str(solution.id),)),
    ]
    uncertain = solution.verification_status != "verified"
    draw, reason = draw_spot_check(
        _rng,
        subject=scan.subject,
        confidence=solution.verification_confidence,
        provider_results=0 if uncertain else await provider_counts.get(session, solution.provider),
        uncertain=uncertain,
        high_stakes=verify.high_stakes_subjects,
    )
    if draw:
        jobs.append(("spot_check", (str(solution.id), reason)))
    if solution.verification_status == "caution" and verify.mars_second_chance:
        jobs.append(("mars_second_chance", (str(solution.id),)))  # app/solutions/followups/mars.py
    return [(task, args, f"{task}:{solution.id}") for task, args in jobs]
