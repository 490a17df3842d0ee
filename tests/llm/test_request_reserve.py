"""Request-path calls keep their own share of every budget: background calls (worker jobs)
are refused before they eat into it, on the in-memory and on the real Redis budget."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from redis.asyncio import Redis

from app.llm.budget import (
    Budget,
    InMemoryBudget,
    Limits,
    RedisBudget,
    current_purpose,
    limits_for,
    llm_purpose,
)
from app.llm.errors import BudgetExhausted
from app.llm.resilience import Resilient
from app.llm.types import Message
from app.worker.queue import InProcessQueue, for_arq
from tests.conftest import REDIS_URL
from tests.fixtures.scripted import ScriptedClient

HI = [Message("user", "hi")]


def test_background_limits_leave_the_reserve() -> None:
    limits = Limits(rpm=15, rpd=1000)
    assert limits_for(limits, "request", 0.3) == limits
    assert limits_for(limits, "background", 0.3) == Limits(rpm=10, rpd=700)  # rounded down
    assert limits_for(Limits(rpd=5), "background", 0.3) == Limits(rpm=None, rpd=3)
    assert limits_for(limits, "background", 0.0) == limits


async def calls_until_refused(client: Resilient, limit: int = 50) -> int:
    for made in range(limit):
        try:
            await client.generate(HI)
        except BudgetExhausted:
            return made
    return limit


async def spend_the_budget(budget: Budget) -> None:
    inner = ScriptedClient("gemini", ["ok"])
    client = Resilient(inner, budget=budget, limits=Limits(rpm=10), request_reserve=0.3)
    # Background jobs get 7 of 10; then they are refused, though 3 are left ...
    with llm_purpose("background"):
        assert await calls_until_refused(client) == 7
    # ... for requests, which may use the whole limit.
    assert await calls_until_refused(client) == 3
    # A background view of the client is refused whatever the context.
    with pytest.raises(BudgetExhausted):
        await client.for_background().generate(HI)
    assert len(inner.calls) == 10  # refusals made no request


async def test_in_memory_budget_keeps_the_request_reserve() -> None:
    await spend_the_budget(InMemoryBudget())


@pytest.mark.redis
async def test_redis_budget_keeps_the_request_reserve() -> None:
    redis = Redis.from_url(REDIS_URL)
    try:
        await spend_the_budget(RedisBudget(redis, prefix=f"test:{uuid.uuid4().hex}"))
    finally:
        await redis.aclose()


async def test_background_view_spends_the_background_share_only() -> None:
    budget = InMemoryBudget()
    client = Resilient(
        ScriptedClient("gemini", ["ok"]), budget=budget, limits=Limits(rpd=2), request_reserve=0.5
    )
    background = client.for_background()
    await background.generate(HI)
    with pytest.raises(BudgetExhausted):
        await background.generate(HI)
    await client.generate(HI)  # the request's share is still there
    assert client.purpose is None and background.purpose == "background"


async def test_worker_jobs_run_as_background_and_queued_scans_as_requests() -> None:
    seen: dict[str, str] = {}

    async def job(ctx: dict[str, Any], name: str) -> None:
        seen[name] = current_purpose()

    queue = InProcessQueue({"consensus_check": job, "run_scan": job})
    await queue.enqueue("consensus_check", "in-process check", job_id="a")
    await queue.enqueue("run_scan", "in-process scan", job_id="b")
    await asyncio.wait_for(queue.join(), 10)
    await for_arq(job, "spot_check")({}, "arq check")
    await for_arq(job, "run_scan")({}, "arq scan")
    assert seen == {
        "in-process check": "background",
        "in-process scan": "request",
        "arq check": "background",
        "arq scan": "request",
    }
    assert current_purpose() == "request"  # the caller's context is untouched
