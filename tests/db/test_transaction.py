"""The one transaction contract (app/db/transaction.py) of requests and jobs, on real SQLite
and real Postgres: committed when the block succeeds, rolled back (nothing written) when it
raises, the after-commit hook run only once a commit that staged outbox jobs succeeded; a job
that stages follow-up work wakes its process's relay, and where no relay runs in the job's
process the follow-up is still delivered by a relay's poll."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import OutboxMessage, SigningSecret, Solution
from app.db.repositories.outbox import OutboxRepository
from app.db.transaction import reading, transaction
from app.resources import Resources
from app.scans import jobs as scan_jobs
from app.settings import Settings
from app.worker.context import JobContext, job_context
from app.worker.outbox import OutboxRelay
from app.worker.queue import InProcessQueue, Task
from tests.faults.test_scan_job_edges import _queued_scan_without_job


async def secret(sessionmaker: async_sessionmaker[AsyncSession], name: str) -> str | None:
    async with sessionmaker() as session:
        return await session.scalar(select(SigningSecret.secret).where(SigningSecret.name == name))


async def staged(sessionmaker: async_sessionmaker[AsyncSession], job_id: str) -> bool:
    async with sessionmaker() as session:
        found = await session.scalar(select(OutboxMessage.id).where(OutboxMessage.job_id == job_id))
        return found is not None


def name() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"


async def test_a_block_that_succeeds_is_committed(
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    key = name()
    async with transaction(sessionmaker) as session:
        session.add(SigningSecret(name=key, secret="s1"))
    assert await secret(sessionmaker, key) == "s1"  # seen from another connection


async def test_a_block_that_raises_is_rolled_back_and_wakes_nobody(
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    key, woken = name(), []
    with pytest.raises(RuntimeError, match="use case failed"):
        async with transaction(sessionmaker, on_commit=lambda: woken.append(1)) as session:
            session.add(SigningSecret(name=key, secret="s1"))
            OutboxRepository(session).stage("deep_evaluate", ["x"], job_id=f"job:{key}")
            await session.flush()  # written to the database, not yet committed
            raise RuntimeError("use case failed")
    assert await secret(sessionmaker, key) is None
    assert not await staged(sessionmaker, f"job:{key}")
    assert woken == []


async def test_the_hook_runs_after_a_commit_that_staged_jobs(
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    key, seen = name(), []
    async with transaction(sessionmaker, on_commit=lambda: seen.append(held.in_transaction())) as (
        held
    ):
        OutboxRepository(held).stage("deep_evaluate", ["x"], job_id=f"job:{key}")
        assert seen == []  # not while the block runs
    assert seen == [False]  # once, with the transaction over: committed
    assert await staged(sessionmaker, f"job:{key}")


async def test_no_hook_for_a_commit_that_staged_nothing(
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    key, woken = name(), []
    async with transaction(sessionmaker, on_commit=lambda: woken.append(1)) as session:
        session.add(SigningSecret(name=key, secret="s1"))
    assert await secret(sessionmaker, key) == "s1"
    assert woken == []


async def test_no_hook_when_the_commit_fails(
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    key, woken = name(), []
    async with transaction(sessionmaker) as session:
        session.add(SigningSecret(name=key, secret="first"))
    with pytest.raises(IntegrityError):
        async with transaction(sessionmaker, on_commit=lambda: woken.append(1)) as session:
            OutboxRepository(session).stage("deep_evaluate", ["x"], job_id=f"job:{key}")
            session.add(SigningSecret(name=key, secret="second"))  # refused at the commit
    assert woken == []
    assert not await staged(sessionmaker, f"job:{key}")  # the whole transaction is undone
    assert await secret(sessionmaker, key) == "first"


async def test_a_read_block_never_commits_and_keeps_what_it_loaded(
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    key = name()
    async with transaction(sessionmaker) as session:
        session.add(SigningSecret(name=key, secret="kept"))
    async with reading(sessionmaker) as session:
        row = await session.scalar(select(SigningSecret).where(SigningSecret.name == key))
        session.add(SigningSecret(name=f"{key}-stray", secret="s"))
        await session.flush()
    assert row is not None and row.secret == "kept"  # loaded values outlive the block
    assert await secret(sessionmaker, f"{key}-stray") is None


# -- jobs: the same contract, the relay woken by the job's own transaction


def follow_up_jobs(delivered: asyncio.Event) -> dict[str, Task]:
    async def first(ctx: dict[str, Any], key: str) -> str:
        async with job_context(ctx).transaction() as session:
            await OutboxRepository(session).stage_once("second", [key], job_id=f"second:{key}")
        return "staged"

    async def second(ctx: dict[str, Any], key: str) -> str:
        delivered.set()
        return "ran"

    return {"first": first, "second": second}


async def run_first_job(
    sessionmaker: async_sessionmaker[AsyncSession],
    *,
    relay_poll_s: float,
    job_has_relay: bool,
    wait_s: float = 10,
) -> bool:
    """Run a job that stages a follow-up: did the relay deliver the follow-up within wait_s?"""
    delivered = asyncio.Event()
    queue = InProcessQueue(follow_up_jobs(delivered))
    relay = OutboxRelay(sessionmaker, queue, poll_s=relay_poll_s)
    jobs = JobContext(Settings(), sessionmaker, None, None, queue)  # type: ignore[arg-type]
    if job_has_relay:
        jobs.wake_outbox = relay.kick  # as open_resources and the worker's startup wire it
    queue.bind(jobs)
    relaying = asyncio.create_task(relay.run())
    try:
        await queue.enqueue("first", name(), job_id=f"first:{uuid.uuid4()}")
        try:
            await asyncio.wait_for(delivered.wait(), wait_s)
        except TimeoutError:
            return False
        return True
    finally:
        relaying.cancel()
        await asyncio.gather(relaying, return_exceptions=True)
        await queue.close()


async def test_a_job_that_stages_follow_up_work_wakes_the_relay(
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    # The relay polls every 60 s: only the job's after-commit kick delivers within 5 s ...
    assert await run_first_job(sessionmaker, relay_poll_s=60, job_has_relay=True, wait_s=5)
    # ... which the same relay does not do for a job whose context has no hook.
    assert not await run_first_job(sessionmaker, relay_poll_s=60, job_has_relay=False, wait_s=1)


async def test_without_a_relay_in_the_job_process_the_poll_delivers_the_follow_up(
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    # No hook in the job's context (a process that runs no relay): a relay's poll finds it.
    assert await run_first_job(sessionmaker, relay_poll_s=0.3, job_has_relay=False)


async def test_a_queued_scan_wakes_the_relay_once_its_follow_up_jobs_are_committed(
    services: Resources,
) -> None:
    """The scan job's result transaction stages the deep evaluation and the consensus check;
    the server's job context wakes the server's relay (open_resources wires it)."""
    bound = services.queue.context  # type: ignore[attr-defined]
    assert isinstance(bound, JobContext) and bound.wake_outbox == services.outbox.kick
    scan_id = await _queued_scan_without_job(services, "Solve 5x = 35 (wake the relay)")
    woken: list[bool] = []

    def wake() -> None:
        woken.append(True)
        services.outbox.kick()

    outcome = await scan_jobs.run_queued_scan(
        services,
        services.graph,
        services.pipeline,
        services.sessionmaker,
        scan_id,
        wake_outbox=wake,
    )
    assert outcome == "done"
    assert woken == [True]  # once: the progress events' transactions stage nothing
    async with services.sessionmaker() as session:
        solution_id = await session.scalar(select(Solution.id).where(Solution.scan_id == scan_id))
    assert await staged(services.sessionmaker, f"deep_evaluate:{solution_id}")
    await services.outbox.drain()
    await services.queue.join()  # type: ignore[attr-defined]  # the follow-ups ran (tidy)
