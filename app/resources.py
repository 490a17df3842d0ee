"""Everything a process needs to solve and verify, opened once and closed once.

The API lifespan, the CLI and the benchmark open the same Resources, so they run the same
compiled graph against the same providers and database. This is the composition root of a
serving process: it builds the job context and the services' collaborators here and hands
each use case only what it names (the Protocols and dataclasses in the domains' services).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

from pydantic import SecretStr
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.auth.ratelimit import MemoryRateLimiter, RateLimiter, RedisRateLimiter
from app.auth.service import KeyAuthenticator
from app.auth.stored_secrets import DASHBOARD_SECRET_NAME, StoredSecret
from app.calibration import upkeep
from app.calibration.upkeep import UpkeepLeader
from app.db.capabilities import capabilities
from app.db.migrate import upgrade_async
from app.db.session import create_engine, create_sessionmaker
from app.db.transaction import transaction
from app.llm.base import ModelClient
from app.llm.budget import Budget
from app.llm.registry import ProviderRegistry
from app.ocr.rapid import RapidOcrReader
from app.pipeline.context import PipelineContext
from app.pipeline.graph import SolveGraph, build_graph
from app.providers import open_providers, open_redis
from app.retrieval.bank import ProblemBankRetriever, load_if_empty
from app.scans.provider_counts import ProviderResultCounts, new_provider_counts
from app.settings import Settings
from app.symbolic.sandbox import SymbolicSandbox
from app.worker.context import build_pipeline_context, open_job_context
from app.worker.outbox import OutboxRelay
from app.worker.queue import ArqQueue, InProcessQueue, TaskQueue
from app.worker.tasks import TASKS

# open_providers: where the CLI and the benchmark have always found it (app/providers.py).
__all__ = [
    "Resources",
    "keep_fresh",
    "open_providers",
    "open_resources",
    "reload_calibration",
    "unit_of_work",
]

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Resources:
    settings: Settings
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    sandbox: SymbolicSandbox
    budget: Budget
    registry: ProviderRegistry
    graph: SolveGraph
    pipeline: PipelineContext
    queue: TaskQueue
    ocr: RapidOcrReader
    outbox: OutboxRelay
    authenticator: KeyAuthenticator
    rate_limiter: RateLimiter
    provider_counts: ProviderResultCounts
    upkeep: UpkeepLeader  # does this process run the service-wide jobs?
    # Signs dashboard links and cookies: configured, or kept in the database (one for all).
    dashboard_secret: StoredSecret


def unit_of_work(resources: Resources) -> AbstractAsyncContextManager[AsyncSession]:
    """One transaction, owned by the caller of a use case (the request dependency, the CLI):
    the contract of app/db/transaction.py, whose after-commit hook wakes the outbox relay if
    the use case staged follow-up jobs, so they go out at once. Jobs keep the same contract
    (JobContext.transaction)."""
    return transaction(resources.sessionmaker, on_commit=resources.outbox.kick)


def reload_calibration(services: Resources) -> bool:
    """Swap in a refitted calibrator (written by `solveverify calibrate` or the worker), and
    the step critique's when its file changed (pipeline runs read the files themselves; this
    keeps `services.pipeline`'s own fields, which checks and the API read, current too)."""
    current = services.pipeline.current()
    if current is services.pipeline:
        return False
    services.pipeline = current
    return True


async def keep_fresh(services: Resources) -> None:
    """The server's upkeep loop (app/calibration/upkeep.py) on this process's pieces."""
    await upkeep.keep_fresh(
        services.sessionmaker,
        services.registry,
        services.settings.verify,
        services.upkeep,
        reload_calibration=lambda: reload_calibration(services),
        wake_outbox=services.outbox.kick,
    )


@asynccontextmanager
async def open_resources(
    settings: Settings,
    *,
    extra_clients: Sequence[ModelClient] = (),
    migrate: bool | None = None,
) -> AsyncIterator[Resources]:
    """Open engine, sandbox, providers, queue. `migrate` defaults to "yes on the embedded
    database"."""
    if migrate if migrate is not None else capabilities(settings.database).embedded:
        await upgrade_async(settings.database.url)
    async with AsyncExitStack() as stack:
        engine = create_engine(settings.database)
        stack.push_async_callback(engine.dispose)
        sessionmaker = create_sessionmaker(engine)
        redis = open_redis(settings, stack)  # one client for budgets and rate limits
        sandbox, budget, registry = await open_providers(settings, stack, extra_clients, redis)
        if settings.retrieval.load_on_start:
            await load_if_empty(sessionmaker, settings.retrieval.problem_bank_path)
        pipeline = build_pipeline_context(settings, sessionmaker, registry, sandbox)
        assert isinstance(pipeline.retriever, ProblemBankRetriever)
        assert isinstance(pipeline.ocr, RapidOcrReader)
        ocr = pipeline.ocr
        await pipeline.retriever.warm_up()
        queue: TaskQueue
        if settings.redis.url:
            queue = ArqQueue.from_url(settings.redis.url, settings.redis.queue_name)
        else:
            queue = InProcessQueue(TASKS, max_tries=settings.worker.max_tries)
        graph = build_graph()  # one compiled graph for requests and queued scans
        provider_counts = new_provider_counts()
        jobs = await open_job_context(
            settings,
            stack,
            queue,
            sessionmaker=sessionmaker,
            providers=(sandbox, registry),
            pipeline=pipeline,
            graph=graph,
            provider_counts=provider_counts,
        )
        outbox = OutboxRelay.from_settings(sessionmaker, queue, settings.worker)
        # The process's jobs wake its relay as its requests do (the server runs the relay; the
        # CLI drains it itself).
        jobs.wake_outbox = outbox.kick
        if isinstance(queue, InProcessQueue):
            queue.bind(jobs)
        stack.push_async_callback(queue.close)  # closed first: drains jobs that need the rest
        upkeep = UpkeepLeader(engine, settings.database.url)
        stack.push_async_callback(upkeep.close)
        yield Resources(
            settings=settings,
            engine=engine,
            sessionmaker=sessionmaker,
            sandbox=sandbox,
            budget=budget,
            registry=registry,
            graph=graph,
            pipeline=pipeline,
            queue=queue,
            ocr=ocr,
            outbox=outbox,
            authenticator=KeyAuthenticator.from_settings(sessionmaker, settings.auth),
            rate_limiter=MemoryRateLimiter() if redis is None else RedisRateLimiter(redis),
            provider_counts=provider_counts,
            upkeep=upkeep,
            dashboard_secret=StoredSecret(
                sessionmaker,
                DASHBOARD_SECRET_NAME,
                _configured(settings.api.dashboard_secret),
            ),
        )


def _configured(secret: SecretStr | None) -> str | None:
    return secret.get_secret_value() if secret is not None else None
