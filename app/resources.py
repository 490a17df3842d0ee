"""Everything a process needs to solve and verify, opened once and closed once.

The API lifespan, the CLI and the benchmark open the same Resources, so they run the same
compiled graph against the same providers and database.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

from pydantic import SecretStr
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.auth.ratelimit import MemoryRateLimiter, RateLimiter, RedisRateLimiter
from app.db.capabilities import capabilities
from app.db.migrate import upgrade_async
from app.db.session import create_engine, create_sessionmaker
from app.db.transaction import transaction
from app.llm.base import ModelClient
from app.llm.budget import Budget, InMemoryBudget, RedisBudget
from app.llm.factory import configured_providers
from app.llm.registry import ProviderRegistry, build_registry
from app.ocr.rapid import RapidOcrReader
from app.pipeline.context import PipelineContext
from app.pipeline.graph import SolveGraph, build_graph
from app.retrieval.bank import ProblemBankRetriever, load_if_empty
from app.services.auth import KeyAuthenticator
from app.services.provider_counts import ProviderResultCounts
from app.services.stored_secrets import DASHBOARD_SECRET_NAME, StoredSecret
from app.services.upkeep import UpkeepLeader, keep_fresh
from app.settings import Settings
from app.symbolic.sandbox import SymbolicSandbox
from app.verification.spot_check_sampling import SpotCheckRates
from app.worker.context import build_pipeline_context, open_job_context
from app.worker.outbox import OutboxRelay
from app.worker.queue import ArqQueue, InProcessQueue, TaskQueue
from app.worker.tasks import TASKS

__all__ = ["Resources", "keep_fresh", "open_resources", "unit_of_work"]

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


def open_redis(settings: Settings, stack: AsyncExitStack) -> Redis | None:
    if not settings.redis.url:
        return None
    # Short timeouts: a Redis outage must fail fast (budgets and limits fail open), not hang.
    redis: Redis = Redis.from_url(settings.redis.url, socket_timeout=2, socket_connect_timeout=2)
    stack.push_async_callback(redis.aclose)
    return redis


async def open_providers(
    settings: Settings,
    stack: AsyncExitStack,
    extra_clients: Sequence[ModelClient] = (),
    redis: Redis | None = None,
) -> tuple[SymbolicSandbox, Budget, ProviderRegistry]:
    """`redis`: a client the caller already opened (else one is opened when configured)."""
    sandbox = SymbolicSandbox(settings.verify.symbolic_workers, settings.verify.symbolic_timeout_s)
    stack.callback(sandbox.close)
    await sandbox.warm_up()
    redis = redis or open_redis(settings, stack)
    # Budgets are shared in Redis when there is one (all processes count together).
    budget: Budget = InMemoryBudget() if redis is None else RedisBudget(redis)
    registry = build_registry(
        settings.llm.default_provider_order,
        [*configured_providers(settings.llm, sandbox, budget, stack), *extra_clients],
    )
    return sandbox, budget, registry


def reload_calibration(services: Resources) -> bool:
    """Swap in a refitted calibrator (written by `solveverify calibrate` or the worker), and
    the step critique's when its file changed (pipeline runs read the files themselves; this
    keeps `services.pipeline`'s own fields, which checks and the API read, current too)."""
    current = services.pipeline.current()
    if current is services.pipeline:
        return False
    services.pipeline = current
    return True


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
        jobs = await open_job_context(
            settings,
            stack,
            queue,
            sessionmaker=sessionmaker,
            providers=(sandbox, registry),
            pipeline=pipeline,
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
            graph=build_graph(),
            pipeline=pipeline,
            queue=queue,
            ocr=ocr,
            outbox=outbox,
            authenticator=KeyAuthenticator.from_settings(sessionmaker, settings.auth),
            rate_limiter=MemoryRateLimiter() if redis is None else RedisRateLimiter(redis),
            provider_counts=ProviderResultCounts(SpotCheckRates().new_provider_results),
            upkeep=upkeep,
            dashboard_secret=StoredSecret(
                sessionmaker,
                DASHBOARD_SECRET_NAME,
                _configured(settings.api.dashboard_secret),
            ),
        )


def _configured(secret: SecretStr | None) -> str | None:
    return secret.get_secret_value() if secret is not None else None
