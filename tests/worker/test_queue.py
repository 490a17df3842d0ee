"""The queue abstraction: in-process runner and arq on the real Redis, same task bodies."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from arq.connections import RedisSettings
from arq.worker import Worker, func

from app.llm.registry import build_registry
from app.resources import Resources, unit_of_work
from app.worker.queue import ArqQueue, InProcessQueue, for_arq
from app.worker.tasks import TASKS
from tests.conftest import REDIS_URL
from tests.fixtures.jobs import ctx_of, job_context
from tests.fixtures.providers import solver

EVALUATION = (
    '{"correctness": 1.0, "completeness": 0.8, "clarity": 0.9, "pedagogy": 0.6, '
    '"format": 1.0, "improvement_suggestions": "Say why 3 moves across.", "better_approach": null}'
)


async def test_in_process_queue_dedupes_job_ids() -> None:
    release = asyncio.Event()
    calls: list[str] = []

    async def slow(ctx: dict[str, Any], value: str) -> str:
        calls.append(value)
        await release.wait()
        return value

    queue = InProcessQueue({"slow": slow})
    assert await queue.enqueue("slow", "a", job_id="job-1") is True
    assert await queue.enqueue("slow", "a", job_id="job-1") is False  # queued or running
    release.set()
    await queue.join()
    assert calls == ["a"]
    with pytest.raises(KeyError):
        await queue.enqueue("missing", job_id="x")


@pytest.mark.redis
async def test_arq_queue_refuses_duplicate_job_ids() -> None:
    queue = await ArqQueue.connect(REDIS_URL, f"test:{uuid.uuid4().hex}")
    try:
        job_id = f"deep_evaluate:{uuid.uuid4()}"
        assert await queue.enqueue("deep_evaluate", "x", job_id=job_id) is True
        assert await queue.enqueue("deep_evaluate", "x", job_id=job_id) is False
        assert await queue.ping() is True
    finally:
        await (await queue.pool()).flushdb()
        await queue.close()


async def _submit(services: Resources) -> str:
    from app.scans.service import submit_scan

    async with unit_of_work(services) as session:
        _, solution = await submit_scan(services, session, text="Solve 2x + 3 = 11")
    return str(solution.id)


@pytest.mark.redis
async def test_deep_evaluation_through_redis_and_arq_is_stored_once(services: Resources) -> None:
    """Enqueue on real Redis, run an arq worker in burst mode, read the row back."""
    from tests.fixtures.scripted import ScriptedClient

    evaluator = ScriptedClient("grader", [EVALUATION], capabilities=frozenset({"evaluate"}))
    registry = build_registry(["symbolic"], [services.registry.get("symbolic"), evaluator])
    solution_id = await _submit(services)

    queue_name = f"test:{uuid.uuid4().hex}"
    queue = await ArqQueue.connect(REDIS_URL, queue_name)
    ctx = ctx_of(job_context(services, registry, queue))
    worker = Worker(
        functions=[func(for_arq(TASKS["deep_evaluate"]), name="deep_evaluate", max_tries=3)],
        redis_settings=RedisSettings.from_dsn(REDIS_URL),
        queue_name=queue_name,
        burst=True,
        ctx=ctx,
        poll_delay=0.05,
        handle_signals=False,
    )
    try:
        assert await queue.enqueue("deep_evaluate", solution_id, job_id=f"de:{solution_id}")
        await worker.async_run()
        assert worker.jobs_complete == 1
        # the same evaluation delivered again (a retry after a crash) stores nothing new
        assert await TASKS["deep_evaluate"](ctx, solution_id) == "already evaluated"
        assert len(evaluator.calls) == 1
    finally:
        await worker.close()
        await (await queue.pool()).flushdb()
        await queue.close()

    from app.scans.repository import ScanRepository

    async with services.sessionmaker() as session:
        solution = await ScanRepository(session).get_solution(uuid.UUID(solution_id))
    assert solution is not None and solution.deep_evaluation is not None
    evaluation = solution.deep_evaluation
    assert (evaluation.correctness, evaluation.pedagogy) == (1.0, 0.6)
    assert evaluation.overall == pytest.approx(
        0.35 * 1.0 + 0.2 * 0.8 + 0.15 * 0.9 + 0.15 * 0.6 + 0.15 * 1.0
    )
    assert evaluation.provider == "grader"


async def test_in_process_queue_runs_the_same_task(services: Resources) -> None:
    evaluator = solver("solver_only", "x")  # solve-only: there is no evaluator
    registry = build_registry(["symbolic"], [services.registry.get("symbolic"), evaluator])
    solution_id = await _submit(services)
    results: list[str] = []

    async def record(ctx: dict[str, Any], sid: str) -> str:
        results.append(await TASKS["deep_evaluate"](ctx, sid))
        return results[-1]

    queue = InProcessQueue({"deep_evaluate": record})
    queue.bind(job_context(services, registry, queue))
    await queue.enqueue("deep_evaluate", solution_id, job_id=f"de:{solution_id}")
    await asyncio.wait_for(queue.join(), 10)
    assert results == ["skipped: no evaluate-tier provider configured"]


async def test_exhausted_budget_defers_the_evaluation_to_the_reset(services: Resources) -> None:
    """design-notes §9: over the daily budget, deep_evaluate is queued again for the next
    UTC day."""
    from datetime import UTC, datetime, timedelta

    from app.llm.budget import InMemoryBudget, Limits
    from app.llm.resilience import Resilient
    from tests.fixtures.scripted import ScriptedClient

    grader = ScriptedClient("grader", [EVALUATION], capabilities=frozenset({"evaluate"}))
    limited = Resilient(grader, budget=InMemoryBudget(), limits=Limits(rpd=0))
    registry = build_registry(["symbolic"], [services.registry.get("symbolic"), limited])
    solution_id = await _submit(services)

    queue = InProcessQueue(TASKS)
    queue.bind(job_context(services, registry, queue))
    ctx = ctx_of(job_context(services, registry, queue))
    outcome = await TASKS["deep_evaluate"](ctx, solution_id)
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%d")
    assert outcome == f"deferred until {tomorrow}T00:00:00+00:00"
    (deferred,) = queue._deferred
    assert deferred.get_name() == f"deep_evaluate:{solution_id}:{tomorrow.replace('-', '')}0000"
    assert grader.calls == []
    await queue.close()  # a deferred in-process job is dropped at shutdown, and says so


async def test_a_queued_scan_never_waits_behind_background_checks() -> None:
    """Two slow background checks held both job slots, and a student's queued scan waited
    behind them (187 s, an independent tester): scans have slots of their own."""
    release = asyncio.Event()
    ran: list[str] = []

    async def check(ctx: dict[str, Any], value: str) -> str:
        await release.wait()
        return value

    async def run_scan(ctx: dict[str, Any], value: str) -> str:
        ran.append(value)
        return value

    queue = InProcessQueue({"deep_evaluate": check, "run_scan": run_scan}, concurrency=2)
    for n in range(3):
        assert await queue.enqueue("deep_evaluate", str(n), job_id=f"check-{n}")
    assert await queue.enqueue("run_scan", "scan", job_id="scan-1")
    for _ in range(50):
        if ran:
            break
        await asyncio.sleep(0.01)
    assert ran == ["scan"]  # while both background slots are still held
    release.set()
    await queue.join()


async def test_a_provider_down_leaves_the_evaluation_to_a_later_try(services: Resources) -> None:
    """A 500 after the client's own retries dropped the deep evaluation (an independent
    tester): the job is tried again, and the next try stores it."""
    from app.llm.errors import ProviderUnavailable
    from app.worker.job_signals import RetryLater
    from tests.fixtures.scripted import ScriptedClient

    down = ProviderUnavailable("grader", "HTTP 500")
    grader = ScriptedClient("grader", [down, EVALUATION], capabilities=frozenset({"evaluate"}))
    registry = build_registry(["symbolic"], [services.registry.get("symbolic"), grader])
    solution_id = await _submit(services)
    queue = InProcessQueue({})
    ctx = ctx_of(job_context(services, registry, queue))
    with pytest.raises(RetryLater):
        await TASKS["deep_evaluate"](ctx, solution_id)
    assert await TASKS["deep_evaluate"](ctx, solution_id) == "stored"


async def test_an_evaluator_that_never_answers_readably_abstains(services: Resources) -> None:
    """'{}' for every evaluation was retried and redelivered for ever, and the scan's event
    stream never settled (an independent tester): after three tries the evaluator abstains."""
    from app.solutions.followups.deep_evaluation import UNREADABLE_TRIES
    from app.worker.job_signals import RetryLater
    from tests.fixtures.scripted import ScriptedClient

    grader = ScriptedClient("grader", ["{}"], capabilities=frozenset({"evaluate"}))
    registry = build_registry(["symbolic"], [services.registry.get("symbolic"), grader])
    solution_id = await _submit(services)
    ctx = ctx_of(job_context(services, registry, InProcessQueue({})))
    with pytest.raises(RetryLater):
        await TASKS["deep_evaluate"](ctx, solution_id)
    last = {**ctx, "job_try": UNREADABLE_TRIES}
    assert (await TASKS["deep_evaluate"](last, solution_id)).startswith("abstained")
