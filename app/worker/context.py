"""The one typed context every background job receives, whichever queue runs it.

arq hands tasks a dict (`ctx`); the worker's startup, the server's in-process queue and the
CLI all put one `JobContext` in it under `JOB_CONTEXT_KEY`, built by `open_job_context`, so
tasks read typed attributes instead of dict keys spelled in three places.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.session import create_engine, create_sessionmaker
from app.db.transaction import reading, transaction
from app.llm.registry import ProviderRegistry
from app.ocr.rapid import RapidOcrReader
from app.pipeline.context import PipelineContext
from app.pipeline.exploration import Exploration
from app.pipeline.graph import SolveGraph, build_graph
from app.providers import open_providers
from app.retrieval.bank import ProblemBankRetriever
from app.scans.jobs import ScanJobServices
from app.scans.provider_counts import ProviderResultCounts, new_provider_counts
from app.settings import Settings
from app.symbolic.sandbox import SymbolicSandbox
from app.verification.calibration_files import CalibrationFiles
from app.worker.task_queue import TaskQueue

JOB_CONTEXT_KEY = "solveverify"


@dataclass(slots=True)
class JobContext:
    settings: Settings
    sessionmaker: async_sessionmaker[AsyncSession]
    registry: ProviderRegistry
    sandbox: SymbolicSandbox
    queue: TaskQueue
    # What queued scans run with, built once with the context (open_job_context): the
    # process's pipeline context (the server's requests and queued scans share it), the
    # compiled graph and the provider counts. None only where a test builds a context for
    # jobs that run no scan.
    scans: ScanJobServices | None = None
    # Wakes this process's outbox relay once a job's transaction staged follow-up jobs: set
    # by the server (open_resources) and the worker (its startup), which run a relay. None
    # where no relay runs in the process (`solveverify calibrate`, tests): the staged rows
    # then wait for the next poll of a server's or a worker's relay, which delivers them.
    wake_outbox: Callable[[], None] | None = None

    def transaction(self) -> AbstractAsyncContextManager[AsyncSession]:
        """A job's transaction: the requests' contract (app/db/transaction.py)."""
        return transaction(self.sessionmaker, on_commit=self.wake_outbox)

    def reading(self) -> AbstractAsyncContextManager[AsyncSession]:
        """A job's read-only block: rolled back when it ends."""
        return reading(self.sessionmaker)


def job_context(ctx: dict[str, Any]) -> JobContext:
    """The JobContext inside an arq-style ctx dict."""
    context = ctx[JOB_CONTEXT_KEY]
    assert isinstance(context, JobContext)
    return context


async def open_job_context(
    settings: Settings,
    stack: AsyncExitStack,
    queue: TaskQueue,
    *,
    sessionmaker: async_sessionmaker[AsyncSession] | None = None,
    providers: tuple[SymbolicSandbox, ProviderRegistry] | None = None,
    pipeline: PipelineContext | None = None,
    graph: SolveGraph | None = None,
    provider_counts: ProviderResultCounts | None = None,
) -> JobContext:
    """Open what jobs need (engine, sandbox, providers, the pipeline context), closed with
    `stack`. A process that has some of them open already (the API server) passes them in:
    its queued scans then run with the same OCR engine and calibrators as its requests. A
    pipeline context made here has its problem bank warmed before the first scan."""
    if sessionmaker is None:
        engine = create_engine(settings.database)
        stack.push_async_callback(engine.dispose)
        sessionmaker = create_sessionmaker(engine)
    if providers is None:
        sandbox, _, registry = await open_providers(settings, stack)
    else:
        sandbox, registry = providers
    if pipeline is None:
        pipeline = build_pipeline_context(settings, sessionmaker, registry, sandbox)
        assert isinstance(pipeline.retriever, ProblemBankRetriever)
        await pipeline.retriever.warm_up()
    scans = ScanJobServices(
        settings=settings,
        graph=graph or build_graph(),
        pipeline=pipeline,
        provider_counts=provider_counts or new_provider_counts(),
    )
    return JobContext(settings, sessionmaker, registry, sandbox, queue, scans)


def build_pipeline_context(
    settings: Settings,
    sessionmaker: async_sessionmaker[AsyncSession],
    registry: ProviderRegistry,
    sandbox: SymbolicSandbox,
) -> PipelineContext:
    """The one place a process's pipeline context is made: OCR, the problem bank (warmed by
    its first user), and the calibrators read from their files at every run."""
    calibration = CalibrationFiles(settings.verify)
    calibrator, step_calibrator = calibration.current()
    return PipelineContext(
        registry=registry,
        sandbox=sandbox,
        verify=settings.verify,
        retriever=ProblemBankRetriever(sessionmaker, settings.verify.ground_truth_min_similarity),
        ocr=RapidOcrReader(settings.ocr),
        top_k=settings.retrieval.top_k,
        calibrator=calibrator,
        step_calibrator=step_calibrator,
        calibration=calibration,
        exploration=Exploration(settings.verify.evidence_exploration_every),
    )
