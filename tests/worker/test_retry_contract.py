"""One retry contract on both queues: `RetryLater` runs the job again after its delay, any
other exception fails it at once. The same tasks run on the in-process queue and on arq with
a burst worker against the real Redis."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from arq.connections import RedisSettings
from arq.worker import Worker, func

from app.worker.queue import ArqQueue, Erased, InProcessQueue, RetryLater, for_arq
from tests.conftest import REDIS_URL

Run = Callable[[dict[str, Callable[..., Awaitable[Any]]], str, str], Awaitable[None]]


def contract_tasks(calls: list[tuple[str, int]]) -> dict[str, Callable[..., Awaitable[Any]]]:
    async def flaky(ctx: dict[str, Any], name: str) -> str:
        calls.append((name, ctx["job_try"]))
        if ctx["job_try"] < 2:
            raise RetryLater("the model's reply was unreadable", delay_s=0.05)
        return "done"

    async def broken(ctx: dict[str, Any], name: str) -> str:
        calls.append((name, ctx["job_try"]))
        raise ValueError("a bug, not a transient failure")

    async def hopeless(ctx: dict[str, Any], name: str) -> str:
        calls.append((name, ctx["job_try"]))
        raise RetryLater("still unreadable", delay_s=0.05)

    return {"flaky": flaky, "broken": broken, "hopeless": hopeless}


async def run_in_process(tasks: dict[str, Any], task: str, job_id: str) -> None:
    queue = InProcessQueue(tasks, max_tries=3)
    await queue.enqueue(task, task, job_id=job_id)
    await asyncio.wait_for(queue.join(), 10)


async def run_on_arq(tasks: dict[str, Any], task: str, job_id: str) -> None:
    queue_name = f"test:{uuid.uuid4().hex}"
    queue = await ArqQueue.connect(REDIS_URL, queue_name)
    worker = Worker(
        functions=[func(for_arq(f), name=name, max_tries=3) for name, f in tasks.items()],
        redis_settings=RedisSettings.from_dsn(REDIS_URL),
        queue_name=queue_name,
        burst=True,
        poll_delay=0.02,
        handle_signals=False,
    )
    try:
        await queue.enqueue(task, task, job_id=job_id)
        await asyncio.wait_for(worker.async_run(), 30)
    finally:
        await worker.close()
        await (await queue.pool()).delete(queue_name)
        await queue.close()


QUEUES = [
    pytest.param(run_in_process, id="in-process"),
    pytest.param(run_on_arq, id="arq", marks=pytest.mark.redis),
]


@pytest.mark.parametrize("run", QUEUES)
@pytest.mark.parametrize(
    ("task", "tries"),
    [
        ("flaky", [1, 2]),  # RetryLater once, then succeeds
        ("broken", [1]),  # any other exception fails the job: never retried
        ("hopeless", [1, 2, 3]),  # RetryLater every time: stops at max_tries
    ],
)
async def test_both_queues_honour_one_retry_contract(
    run: Run, task: str, tries: list[int], caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[tuple[str, int]] = []
    job_id = f"{task}:{uuid.uuid4().hex[:8]}"
    await run(contract_tasks(calls), task, job_id)
    assert calls == [(task, n) for n in tries]
    if task == "broken":  # the failure is logged with the job's id
        assert any(job_id in r.getMessage() and r.exc_info for r in caplog.records)


@pytest.mark.parametrize("run", QUEUES)
async def test_a_job_whose_scan_was_erased_ends_quietly(
    run: Run, caplog: pytest.LogCaptureFixture
) -> None:
    """A check that finds its solution erased while it waited on the models (`Erased`) is
    neither retried nor a failure: one run, one INFO line, no error logged."""
    calls: list[int] = []

    async def consensus_check(ctx: dict[str, Any], solution_id: str) -> str:
        calls.append(ctx["job_try"])
        raise Erased(f"solution {solution_id}")

    job_id = f"consensus_check:{uuid.uuid4().hex[:8]}"
    with caplog.at_level(logging.INFO):
        await run({"consensus_check": consensus_check}, "consensus_check", job_id)
    assert calls == [1]
    assert f"job {job_id}: erased: solution consensus_check" in caplog.text
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
