"""Request budgets in memory and in the real Redis, and what an exhausted budget becomes."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from app.llm.budget import InMemoryBudget, Limits, RedisBudget
from app.llm.errors import BudgetExhausted
from app.llm.resilience import Resilient
from app.llm.types import Message
from tests.conftest import REDIS_URL
from tests.fixtures.scripted import ScriptedClient


@pytest.fixture
async def redis_budget() -> AsyncIterator[RedisBudget]:
    redis = Redis.from_url(REDIS_URL)
    yield RedisBudget(redis, prefix=f"test:{uuid.uuid4().hex}")
    await redis.aclose()


async def test_in_memory_rpm(request: pytest.FixtureRequest) -> None:
    budget = InMemoryBudget()
    for _ in range(3):
        await budget.acquire("gemini:flash-lite", Limits(rpm=3, rpd=1000))
    with pytest.raises(BudgetExhausted) as refused:
        await budget.acquire("gemini:flash-lite", Limits(rpm=3, rpd=1000))
    assert refused.value.resets_at.second == 0  # the next minute
    state = await budget.state("gemini:flash-lite", Limits(rpm=3))
    assert (state.used_minute, state.used_day) == (3, 3)  # the refusal was not counted
    await budget.acquire("other", Limits(rpm=3))  # budgets are per key


@pytest.mark.redis
async def test_redis_rpd_is_shared_and_refusals_are_not_counted(redis_budget: RedisBudget) -> None:
    limits = Limits(rpm=100, rpd=2)
    other_process = RedisBudget(redis_budget.redis, prefix=redis_budget.prefix)
    await redis_budget.acquire("k", limits)
    await other_process.acquire("k", limits)
    with pytest.raises(BudgetExhausted) as refused:
        await redis_budget.acquire("k", limits)
    assert refused.value.resets_at.hour == 0 and refused.value.resets_at.minute == 0
    state = await other_process.state("k", limits)
    assert (state.used_minute, state.used_day) == (2, 2)


async def test_zero_rpm_refuses_before_any_request() -> None:
    inner = ScriptedClient("gemini", ['{"is_correct": true}'])
    client = Resilient(inner, budget=InMemoryBudget(), limits=Limits(rpm=0))
    with pytest.raises(BudgetExhausted):
        await client.generate([Message("user", "hi")])
    assert inner.calls == []


async def test_zero_rpm_budget_gives_unverified_answers_not_errors(tmp_path) -> None:
    """A configured provider whose budget is 0 RPM: requests are answered, never an error."""
    import httpx
    from asgi_lifespan import LifespanManager

    from app.main import create_app
    from app.settings import LLMSettings
    from solveverify_bench.fake_llm import FakeLLMServer, Reply
    from tests.conftest import settings_for
    from tests.fixtures.providers import solver, verdict_json

    server = FakeLLMServer(default=Reply(verdict_json(True, 0.99))).start()
    llm = LLMSettings(
        openai_compatible_base_url=f"{server.url}/v1",
        openai_compatible_model="m",
        llamacpp_enabled=False,
        budgets={"openai_compatible": {"rpm": 0}},
    )
    settings = settings_for(f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", llm)
    settings.retrieval.load_on_start = False
    app = create_app(settings, extra_clients=[solver("model", "24")])
    try:
        async with LifespanManager(app, startup_timeout=60):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                response = await client.post(
                    "/v1/scans", json={"text": "Tom has 12 apples and buys 3 bags of 4. How many?"}
                )
    finally:
        server.stop()
    assert response.status_code == 201
    body = response.json()
    assert body["verification_status"] == "unverified"
    # The student sees a neutral reason: no vendor, no internals.
    assert body["caution_reason"]["code"] == "not_verified"
    assert "budget" not in body["caution_reason"]["message"]
    assert server.requests == []  # refused before any request was sent
