"""Shutdown stops what it cancels. On Python 3.11 `asyncio.wait_for` swallows a cancellation
that lands in the tick its wait ends (CPython gh-86296): a request's kick to the outbox relay
as the server shut down left the relay running and the server hanging at "Waiting for
application shutdown" (seen in `bench perf` runs under load). The relay, the in-process
queue's close, OCR slots and the sandbox wait with `asyncio.timeout` instead."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.worker.outbox import OutboxRelay
from app.worker.queue import InProcessQueue


async def stops(task: asyncio.Task[object]) -> bool:
    done, _ = await asyncio.wait([task], timeout=2)
    if not done:  # leave nothing running behind the test
        task.cancel()
        await asyncio.wait([task], timeout=2)
    return bool(done)


@pytest.mark.parametrize("ticks", range(6))
async def test_a_kick_in_the_tick_of_the_cancel_does_not_keep_the_relay_running(
    sessionmaker: async_sessionmaker[AsyncSession], ticks: int
) -> None:
    relay = OutboxRelay(sessionmaker, InProcessQueue({}), poll_s=30, gather_s=0)
    task = asyncio.create_task(relay.run())
    for _ in range(ticks):
        await asyncio.sleep(0)
    relay.kick()  # the last request's commit, as the lifespan cancels the relay
    task.cancel()
    assert await stops(task)
