"""End to end on Postgres + Redis: a model-verified (not proven) answer, a tier-2 consensus
check run by a real arq burst worker, the badge turned to caution with its history, MARS
staged, all of it visible through GET /v1/solutions/{id}."""

from __future__ import annotations

import asyncio
import uuid

import httpx
import pytest
from arq.connections import RedisSettings
from arq.worker import Worker, func
from sqlalchemy import select

from app.db.models import OutboxMessage
from app.resources import Resources
from app.worker.context import JOB_CONTEXT_KEY
from app.worker.queue import ArqQueue, for_arq
from app.worker.tasks import TASKS
from tests.conftest import REDIS_URL
from tests.fixtures.jobs import ctx_of, job_context
from tests.fixtures.providers import verdict_json, verifier
from tests.solutions.test_badge_transitions import solve_only
from tests.solutions.test_consensus_checks import stored


@pytest.mark.redis
@pytest.mark.postgres
async def test_consensus_rejection_through_arq_turns_the_badge_to_caution(
    services: Resources, client: httpx.AsyncClient
) -> None:
    if services.engine.dialect.name != "postgresql":
        pytest.skip("the end-to-end path runs on Postgres + Redis")
    # A model verifier approved 90 at response time; three other providers all say 86.
    judge = verifier("judge", verdict_json(True, 0.95, "90"))
    solution_id, local_ctx = await stored(
        services,
        solve_only("first", "90"),
        judge,
        solve_only("b", "86"),
        solve_only("c", "86"),
        solve_only("d", "86"),
    )
    before = (await client.get(f"/v1/solutions/{solution_id}")).json()
    assert before["verification_status"] == "verified" and before["status_history"] == []
    proofs = [v for v in before["verifications"] if v["method"] != "llm"]
    assert all(v["verdict"] == "abstain" for v in proofs)  # model-verified, not proven

    queue = await ArqQueue.connect(REDIS_URL, f"test:{uuid.uuid4().hex}")
    registry = local_ctx[JOB_CONTEXT_KEY].registry
    worker = Worker(
        functions=[
            func(for_arq(TASKS["consensus_check"], "consensus_check"), name="consensus_check")
        ],
        redis_settings=RedisSettings.from_dsn(REDIS_URL),
        queue_name=queue.queue_name,
        burst=True,
        ctx=ctx_of(job_context(services, registry, queue)),
        poll_delay=0.05,
        handle_signals=False,
    )
    try:
        job_id = f"consensus_check:{solution_id}"
        assert await queue.enqueue("consensus_check", solution_id, job_id=job_id)
        await asyncio.wait_for(worker.async_run(), 60)
        assert (worker.jobs_complete, worker.jobs_failed) == (1, 0)
    finally:
        await worker.close()
        await (await queue.pool()).delete(queue.queue_name)
        await queue.close()

    after = (await client.get(f"/v1/solutions/{solution_id}")).json()
    assert after["verification_status"] == "caution"
    (change,) = after["status_history"]
    assert (change["from"], change["to"]) == ("verified", "caution")
    assert "consensus" in change["reason"] and len(change["evidence_ids"]) == 1
    (consensus,) = [v for v in after["verifications"] if v["tier"] == "consensus"]
    assert (consensus["verdict"], consensus["independent_answer"]) == ("reject", "86")
    async with services.sessionmaker() as session:
        staged = await session.scalar(
            select(OutboxMessage.task).where(
                OutboxMessage.job_id == f"mars_second_chance:{solution_id}"
            )
        )
    assert staged == "mars_second_chance"  # the second chance, staged with the change
