"""Delivery is acknowledged by completion (issue 26, findings 2 and 3): a transient database
or Redis error is retried with backoff, never a failed job; an outbox row whose job was lost
(or whose tries ran out) is delivered again under a new job id, unless the queue still holds
it; a completed job is never delivered again. Real Redis and both database backends."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from arq.connections import RedisSettings
from arq.worker import Worker, func
from sqlalchemy import inspect, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine

from app.db.migrate import alembic_config
from app.settings import Settings
from app.worker.context import JOB_CONTEXT_KEY, JobContext
from app.worker.outbox import OutboxRelay
from app.worker.queue import ArqQueue, InProcessQueue, for_arq
from tests.conftest import REDIS_URL
from tests.worker.test_outbox import rows, stage
from tests.worker.test_retry_contract import QUEUES, Run


def job_context(made: async_sessionmaker[AsyncSession]) -> JobContext:
    # Only the sessionmaker is used to acknowledge; the rest is what the tasks here need.
    return JobContext(Settings(), made, None, None, None)  # type: ignore[arg-type]


@pytest.mark.parametrize("run", QUEUES)
async def test_a_transient_infrastructure_error_is_retried_not_failed(run: Run) -> None:
    calls: list[int] = []

    async def flaky_database(ctx: dict[str, Any], name: str) -> str:
        calls.append(ctx["job_try"])
        if ctx["job_try"] < 3:
            raise ConnectionRefusedError("the database is restarting")
        return "done"

    await run({"flaky_database": flaky_database}, "flaky_database", f"db:{uuid.uuid4().hex}")
    assert calls == [1, 2, 3]


@pytest.fixture
async def arq_queue() -> AsyncIterator[ArqQueue]:
    queue = ArqQueue.from_url(REDIS_URL, f"test:durable:{uuid.uuid4().hex}")
    try:
        yield queue
    finally:
        await (await queue.pool()).delete(queue.queue_name)
        await queue.close()


async def run_worker(
    queue: ArqQueue, made: async_sessionmaker[AsyncSession], seen: list[str]
) -> None:
    async def deep_evaluate(ctx: dict[str, Any], solution_id: str) -> None:
        seen.append(ctx["job_id"])

    worker = Worker(
        functions=[func(for_arq(deep_evaluate), name="deep_evaluate", max_tries=3)],
        redis_settings=RedisSettings.from_dsn(REDIS_URL),
        queue_name=queue.queue_name,
        burst=True,
        poll_delay=0.02,
        handle_signals=False,
        ctx={JOB_CONTEXT_KEY: job_context(made)},
    )
    try:
        await asyncio.wait_for(worker.async_run(), 30)
    finally:
        await worker.close()


@pytest.mark.redis
async def test_a_job_lost_by_redis_is_delivered_again_until_it_completes(
    sessionmaker: async_sessionmaker[AsyncSession], arq_queue: ArqQueue
) -> None:
    job_ids = await stage(sessionmaker, 3)
    relay = OutboxRelay(sessionmaker, arq_queue, redeliver_after_s=0.0, lease_s=0.0)
    assert await relay.drain() == 3
    pool = await arq_queue.pool()
    # Delivered but not completed, and still queued: a new lease, not a second delivery.
    assert await relay.drain() == 0
    assert {j.job_id for j in await pool.queued_jobs(queue_name=arq_queue.queue_name)} == set(
        job_ids
    )
    assert [m.deliveries for m in await rows(sessionmaker, job_ids)] == [1, 1, 1]

    # Redis restarted without its data: the jobs are gone.
    await pool.delete(arq_queue.queue_name, *[f"arq:job:{j}" for j in job_ids])
    assert await relay.drain() == 3
    again = {j.job_id for j in await pool.queued_jobs(queue_name=arq_queue.queue_name)}
    assert again == {f"{j}@1" for j in job_ids}  # new ids: arq refuses a kept one

    seen: list[str] = []
    await run_worker(arq_queue, sessionmaker, seen)
    assert sorted(seen) == sorted(again)
    done = await rows(sessionmaker, job_ids)
    assert all(m.completed_at is not None for m in done) and [m.deliveries for m in done] == [2] * 3
    assert await relay.drain() == 0  # completed: never delivered again


@pytest.mark.redis
async def test_a_job_that_never_completes_is_given_up_after_max_deliveries(
    sessionmaker: async_sessionmaker[AsyncSession], arq_queue: ArqQueue
) -> None:
    [job_id] = await stage(sessionmaker, 1)
    relay = OutboxRelay(
        sessionmaker, arq_queue, redeliver_after_s=0.0, lease_s=0.0, max_deliveries=2
    )
    pool = await arq_queue.pool()
    delivered = []
    for _ in range(4):
        delivered.append(await relay.drain())
        await pool.delete(arq_queue.queue_name)  # lost every time
    assert delivered == [1, 1, 0, 0]
    [row] = await rows(sessionmaker, [job_id])
    assert row.deliveries == 2 and row.completed_at is not None
    assert "not completed after 2 deliveries" in (row.last_error or "")


async def test_the_in_process_queue_acknowledges_completion(
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    seen: list[str] = []

    async def deep_evaluate(ctx: dict[str, Any], solution_id: str) -> None:
        seen.append(solution_id)

    queue = InProcessQueue({"deep_evaluate": deep_evaluate})
    queue.bind(job_context(sessionmaker))
    job_ids = await stage(sessionmaker, 2)
    relay = OutboxRelay(sessionmaker, queue, redeliver_after_s=0.0, lease_s=0.0)
    await relay.drain()
    await queue.join()
    assert all(m.completed_at is not None for m in await rows(sessionmaker, job_ids))
    assert await relay.drain() == 0 and len(seen) == 2


async def test_the_migration_counts_earlier_deliveries_as_done(tmp_path: Path) -> None:
    """0008 on a database with rows from before it: delivered rows (acknowledged at enqueue
    then) are completed, pending ones are not; the downgrade removes the two columns."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'm.db'}"
    config = alembic_config(url)
    await asyncio.to_thread(command.upgrade, config, "0007_evidence_badge")
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            for job_id, delivered in (("a", "2026-11-20 10:00:00"), ("b", None)):
                await connection.execute(
                    text(
                        "INSERT INTO outbox (created_at, task, args, job_id, available_at, "
                        "attempts, delivered_at) VALUES "
                        "('2026-11-20 09:00:00', 't', '[]', :j, '2026-11-20 09:00:00', 0, :d)"
                    ),
                    {"j": job_id, "d": delivered},
                )
        await asyncio.to_thread(command.upgrade, config, "head")
        async with engine.connect() as connection:
            found = (
                await connection.execute(
                    text("SELECT job_id, completed_at, deliveries FROM outbox ORDER BY job_id")
                )
            ).all()
        assert [tuple(r) for r in found] == [("a", "2026-11-20 10:00:00", 1), ("b", None, 0)]
        await asyncio.to_thread(command.downgrade, config, "0007_evidence_badge")
        async with engine.connect() as connection:
            columns = await connection.run_sync(
                lambda sync: {c["name"] for c in inspect(sync).get_columns("outbox")}
            )
        assert "completed_at" not in columns and "deliveries" not in columns
    finally:
        await engine.dispose()
