"""arq WorkerSettings: `solveverify worker` runs these tasks from Redis."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from typing import Any

from arq import cron, func
from arq.connections import RedisSettings

from app.db.session import create_engine, create_sessionmaker
from app.settings import get_settings
from app.worker.outbox import OutboxRelay
from app.worker.queue import ArqQueue
from app.worker.tasks import TASKS


async def startup(ctx: dict[str, Any]) -> None:
    from app.resources import open_providers

    settings = get_settings()
    stack = AsyncExitStack()
    engine = create_engine(settings.database)
    stack.push_async_callback(engine.dispose)
    sandbox, _, registry = await open_providers(settings, stack)
    sessionmaker = create_sessionmaker(engine)
    queue = ArqQueue(ctx["redis"], settings.redis.queue_name)
    # Workers relay the outbox too, so jobs staged by a server that has since gone away
    # are still delivered.
    relay = OutboxRelay.from_settings(sessionmaker, queue, settings.worker)
    relaying = asyncio.create_task(relay.run())
    stack.push_async_callback(_cancel, relaying)
    ctx.update(
        settings=settings,
        stack=stack,
        sessionmaker=sessionmaker,
        registry=registry,
        sandbox=sandbox,
        queue=queue,
    )


async def shutdown(ctx: dict[str, Any]) -> None:
    await ctx["stack"].aclose()


async def _cancel(task: asyncio.Task[Any]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


def worker_settings() -> dict[str, Any]:
    settings = get_settings()
    if not settings.redis.url:
        raise RuntimeError("SOLVEVERIFY_REDIS_URL is not set: the server runs jobs in-process")
    return {
        "functions": [
            func(f, name=name, max_tries=settings.worker.max_tries) for name, f in TASKS.items()
        ],
        # Daily recalibration at 03:00 UTC from the accumulated validated outcomes.
        "cron_jobs": [
            cron(TASKS["recalibrate"], name="recalibrate", hour={3}, minute={0}, unique=True)
        ],
        "on_startup": startup,
        "on_shutdown": shutdown,
        "redis_settings": RedisSettings.from_dsn(settings.redis.url),
        "queue_name": settings.redis.queue_name,
        "keep_result": 3600,
        "job_timeout": settings.worker.job_timeout_s,
    }
