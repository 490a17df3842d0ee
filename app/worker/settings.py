"""arq WorkerSettings: `solveverify worker` runs these tasks from Redis."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from typing import Any

from arq import func
from arq.connections import RedisSettings

from app.process import freeze_startup_heap
from app.scans.sweeper import sweep_stuck_scans
from app.settings import get_settings
from app.worker.context import JOB_CONTEXT_KEY, open_job_context
from app.worker.outbox import OutboxRelay
from app.worker.queue import ArqQueue, for_arq
from app.worker.tasks import TASKS


async def startup(ctx: dict[str, Any]) -> None:
    if JOB_CONTEXT_KEY in ctx:
        return  # the poll loop restarted after a Redis outage (app/worker/runner.py)
    settings = get_settings()
    stack = AsyncExitStack()
    queue = ArqQueue(ctx["redis"], settings.redis.queue_name)
    jobs = await open_job_context(settings, stack, queue)
    # Workers relay the outbox too, so jobs staged by a server that has since gone away
    # are still delivered.
    relay = OutboxRelay.from_settings(jobs.sessionmaker, queue, settings.worker)
    jobs.wake_outbox = relay.kick  # follow-up jobs a job staged go out at once
    relaying = asyncio.create_task(relay.run())
    stack.push_async_callback(_cancel, relaying)
    # Scans whose job was lost with a Redis that died are queued again.
    sweeping = asyncio.create_task(sweep_stuck_scans(jobs.sessionmaker, queue, settings.worker))
    stack.push_async_callback(_cancel, sweeping)
    ctx["stack"] = stack
    ctx[JOB_CONTEXT_KEY] = jobs
    freeze_startup_heap()


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
            func(for_arq(f, name), name=name, max_tries=settings.worker.max_tries)
            for name, f in TASKS.items()
        ],
        # No arq cron: the servers' upkeep leader stages the daily recalibration in the outbox
        # (app/calibration/upkeep.py), so it is redelivered until it completes like every job.
        "on_startup": startup,
        "on_shutdown": shutdown,
        "redis_settings": RedisSettings.from_dsn(settings.redis.url),
        "queue_name": settings.redis.queue_name,
        "keep_result": 3600,
        "job_timeout": settings.worker.job_timeout_s,
    }
