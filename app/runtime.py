"""Everything a process needs to solve and verify, opened once and closed once.

The API lifespan, the CLI and the benchmark open the same Services, so they run the same
compiled graph against the same providers and database.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from langgraph.graph.state import CompiledStateGraph
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.db.migrate import upgrade_async
from app.db.session import create_engine, create_sessionmaker
from app.llm.base import ModelClient
from app.llm.factory import configured_clients
from app.llm.registry import ProviderRegistry, build_registry
from app.ocr.rapid import RapidOcrReader
from app.pipeline.context import PipelineContext
from app.pipeline.graph import build_graph
from app.retrieval.bank import ProblemBankRetriever, load_if_empty
from app.settings import Settings
from app.symbolic.sandbox import SymbolicSandbox
from app.worker.queue import ArqQueue, InProcessQueue, TaskQueue
from app.worker.tasks import TASKS

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Services:
    settings: Settings
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    sandbox: SymbolicSandbox
    registry: ProviderRegistry
    graph: CompiledStateGraph
    pipeline: PipelineContext
    queue: TaskQueue
    ocr: RapidOcrReader


@asynccontextmanager
async def open_services(
    settings: Settings,
    *,
    extra_clients: Sequence[ModelClient] = (),
    migrate: bool | None = None,
) -> AsyncIterator[Services]:
    """Open engine, sandbox, providers, queue. `migrate` defaults to "yes on SQLite"."""
    if migrate if migrate is not None else settings.database.is_sqlite:
        await upgrade_async(settings.database.url)
    engine = create_engine(settings.database)
    sessionmaker = create_sessionmaker(engine)
    sandbox = SymbolicSandbox(settings.verify.symbolic_workers, settings.verify.symbolic_timeout_s)
    queue: TaskQueue | None = None
    try:
        await sandbox.warm_up()
        registry = build_registry(
            settings.llm.default_provider_order,
            [*configured_clients(settings.llm, sandbox), *extra_clients],
        )
        if settings.retrieval.load_on_start:
            await load_if_empty(sessionmaker, settings.retrieval.problem_bank_path)
        ocr = RapidOcrReader()
        retriever = ProblemBankRetriever(sessionmaker, settings.verify.ground_truth_min_similarity)
        pipeline = PipelineContext(
            registry=registry,
            sandbox=sandbox,
            verify=settings.verify,
            retriever=retriever,
            ocr=ocr,
            top_k=settings.retrieval.top_k,
        )
        worker_ctx: dict[str, Any] = {
            "sessionmaker": sessionmaker,
            "registry": registry,
            "settings": settings,
        }
        if settings.redis.url:
            queue = await ArqQueue.connect(settings.redis.url, settings.redis.queue_name)
        else:
            queue = InProcessQueue(TASKS, worker_ctx, max_tries=settings.worker.max_tries)
        yield Services(
            settings=settings,
            engine=engine,
            sessionmaker=sessionmaker,
            sandbox=sandbox,
            registry=registry,
            graph=build_graph(settings.verify),
            pipeline=pipeline,
            queue=queue,
            ocr=ocr,
        )
    finally:
        if queue is not None:
            await queue.close()
        sandbox.close()
        await engine.dispose()
