"""The outbox: jobs are staged with the scan, wait while the queue is down, then delivered."""

from __future__ import annotations

import asyncio
import logging
import socket
import uuid
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import OutboxMessage
from app.db.repositories.outbox import OutboxRepository
from app.db.session import open_sessionmaker
from app.settings import DatabaseSettings
from app.worker.outbox import OutboxRelay
from app.worker.queue import ArqQueue, InProcessQueue
from tests.conftest import REDIS_URL


def dead_redis_url() -> str:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        return f"redis://127.0.0.1:{sock.getsockname()[1]}/15"


async def stage(sessionmaker: async_sessionmaker[AsyncSession], n: int) -> list[str]:
    job_ids = [f"deep_evaluate:{uuid.uuid4()}" for _ in range(n)]
    async with sessionmaker() as session:
        for job_id in job_ids:
            OutboxRepository(session).stage("deep_evaluate", [job_id.split(":")[1]], job_id)
        await session.commit()
    return job_ids


async def rows(sessionmaker, job_ids: list[str]) -> list[OutboxMessage]:  # type: ignore[no-untyped-def]
    async with sessionmaker() as session:
        found = await session.scalars(
            select(OutboxMessage).where(OutboxMessage.job_id.in_(job_ids))
        )
        return sorted(found, key=lambda m: m.id)


@pytest.mark.redis
async def test_jobs_wait_while_redis_is_down_and_are_delivered_when_it_is_back(
    sessionmaker: async_sessionmaker[AsyncSession], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="app.worker.outbox")
    job_ids = await stage(sessionmaker, 3)
    down = ArqQueue.from_url(dead_redis_url(), "test:outbox")
    relay = OutboxRelay(sessionmaker, down, max_backoff_s=0.0, enqueue_timeout_s=1)
    assert await relay.drain() == 0
    assert await relay.drain() == 0  # the outage goes on: logged once, when it started
    waiting = await rows(sessionmaker, job_ids)
    assert [m.delivered_at for m in waiting] == [None] * 3
    assert waiting[0].attempts == 2 and "Connect" in (waiting[0].last_error or "")

    queue_name = f"test:outbox:{uuid.uuid4().hex}"
    up = ArqQueue.from_url(REDIS_URL, queue_name)
    relay.queue = up
    try:
        assert await relay.drain() >= 3
        assert all(m.delivered_at is not None for m in await rows(sessionmaker, job_ids))
        pool = await up.pool()
        queued = {j.job_id for j in await pool.queued_jobs(queue_name=queue_name)}
        assert set(job_ids) <= queued
        # Delivering again (a second relay, a crash before marking) changes nothing.
        assert [await up.enqueue("deep_evaluate", "x", job_id=j) for j in job_ids] == [False] * 3
        assert outage_lines(caplog) == [
            "queue unavailable; jobs wait in the outbox",
            "queue reachable again; the outbox delivers what waited",
        ]
    finally:
        await (await up.pool()).delete(queue_name)
        await up.close()
        await down.close()


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The relay's lines, without the exception's class or the outage's length."""
    return [r.getMessage().split(" (")[0] for r in caplog.records if r.name == "app.worker.outbox"]


async def test_a_database_outage_is_logged_when_it_starts_and_when_it_ends(
    sessionmaker: async_sessionmaker[AsyncSession],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="app.worker.outbox")
    unreachable = DatabaseSettings(url=f"sqlite+aiosqlite:///{tmp_path / 'no' / 'such.db'}")
    async with open_sessionmaker(unreachable) as away:
        relay = OutboxRelay(away, InProcessQueue({}), poll_s=0.01, gather_s=0)
        running = asyncio.create_task(relay.run())
        try:
            await asyncio.sleep(0.3)  # many polls fail
            relay.sessionmaker = sessionmaker
            await asyncio.sleep(0.3)  # many polls succeed
        finally:
            running.cancel()
    assert outage_lines(caplog) == [
        "outbox relay cannot reach the database; retrying every 0 s",
        "outbox relay reaches the database again",
    ]


async def test_relay_delivers_to_the_in_process_queue(
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    seen: list[str] = []

    async def deep_evaluate(ctx: dict, solution_id: str) -> None:
        seen.append(solution_id)

    queue = InProcessQueue({"deep_evaluate": deep_evaluate})
    job_ids = await stage(sessionmaker, 2)
    relay = OutboxRelay(sessionmaker, queue)
    await relay.drain()
    await queue.join()
    assert sorted(seen) == sorted(j.split(":")[1] for j in job_ids)
    assert await relay.drain() == 0  # marked delivered: not handed over twice
