"""GET /metrics through the ASGI app: after scans, each series counts what happened (requests by
route template and status, scans by badge and deciding method, model calls by provider and
outcome through the real OpenAI SDK against a loopback model, abstentions as recorded in the
verifications table, sandbox timeouts), labels hold no id, and the bearer token and the
switch work. Counters are process-wide and the app is shared: every check is a difference
between two scrapes."""

from __future__ import annotations

import time
import uuid
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr
from sqlalchemy import select

from app.db.models import VerificationRecord
from app.llm.budget import InMemoryBudget, Limits
from app.llm.errors import BudgetExhausted, ProviderError, ProviderTimeout
from app.llm.providers import openai
from app.llm.resilience import Resilient
from app.llm.types import Message
from app.main import create_app
from app.metrics import serve_metrics
from app.resources import Resources
from app.settings import MetricsSettings
from app.symbolic.sandbox import SandboxTimeout, SymbolicSandbox
from solveverify_bench.fake_llm import Answer, Fail, FakeLLMServer, Hang, Reply
from tests.conftest import settings_for
from tests.fixtures.processes import free_port
from tests.fixtures.providers import kept

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]
WORD_PROBLEM = "A baker fills 7 trays with 13 muffins each and sells all but 5. How many sold?"
MESSAGES = [Message("user", "Solve 2x + 3 = 11")]


async def scrape(http: httpx.AsyncClient, **headers: str) -> Samples:
    response = await http.get("/metrics", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def delta(before: Samples, after: Samples, name: str, **labels: str) -> float:
    key = (name, frozenset(labels.items()))
    return after.get(key, 0.0) - before.get(key, 0.0)


def changed(before: Samples, after: Samples, name: str) -> dict[frozenset, float]:
    """The label sets of `name` whose value moved, and by how much."""
    return {
        labels: value - before.get((sample, labels), 0.0)
        for (sample, labels), value in after.items()
        if sample == name and value != before.get((sample, labels), 0.0)
    }


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer().start()
    yield server
    server.stop()


def openai_client(fake: FakeLLMServer, **kwargs) -> Resilient:
    model = openai.OpenAIChatModel(kept(openai, "sk-test", f"{fake.url}/v1"), "gpt-4o-mini")
    return Resilient(model, base_delay_s=0.01, **kwargs)


async def test_requests_and_scans_by_route_status_badge_and_method(live: httpx.AsyncClient):
    before = await scrape(live)
    ids = []
    for n in range(3):
        response = await live.post("/v1/scans", json={"text": f"Solve 2x + {n} = {n + 8}"})
        assert response.status_code == 201, response.text
        assert response.json()["verification_status"] == "verified"
        ids.append(response.json()["scan_id"])
    assert (await live.get(f"/v1/scans/{ids[0]}")).status_code == 200
    assert (await live.get(f"/v1/scans/{uuid.uuid4()}")).status_code == 404
    assert (await live.get(f"/no/such/{uuid.uuid4().hex}")).status_code == 404
    assert (await live.request("BREW", "/v1/scans")).status_code == 405
    after = await scrape(live)

    histogram = "solveverify_http_request_duration_seconds_count"
    assert changed(before, after, histogram) == {
        frozenset({("method", "POST"), ("route", "/v1/scans"), ("status", "201")}): 3,
        frozenset({("method", "GET"), ("route", "/v1/scans/{scan_id}"), ("status", "200")}): 1,
        frozenset({("method", "GET"), ("route", "/v1/scans/{scan_id}"), ("status", "404")}): 1,
        frozenset({("method", "GET"), ("route", "unmatched"), ("status", "404")}): 1,
        frozenset({("method", "other"), ("route", "/v1/scans"), ("status", "405")}): 1,
        # the first scrape itself
        frozenset({("method", "GET"), ("route", "/metrics"), ("status", "200")}): 1,
    }
    assert changed(before, after, "solveverify_scans_total") == {
        frozenset({("badge", "verified"), ("method", "programmatic")}): 3
    }
    # The service's backlog is read from the database at each scrape.
    assert after[("solveverify_outbox_pending", frozenset())] >= 0
    assert after[("solveverify_outbox_oldest_pending_seconds", frozenset())] >= 0
    text = (await live.get("/metrics")).text
    assert not any(scan_id in text for scan_id in ids)  # no id, path or tenant is a label


async def test_a_model_scan_counts_its_calls_and_abstentions(
    live: httpx.AsyncClient, with_clients, services: Resources, fake: FakeLLMServer
) -> None:
    fake.reset()
    fake.default = Answer(final_answer="86")
    with_clients(openai_client(fake))
    before = await scrape(live)
    response = await live.post("/v1/scans", json={"text": WORD_PROBLEM})
    assert response.status_code == 201, response.text
    body = response.json()
    after = await scrape(live)

    calls = len(fake.requests)
    assert calls >= 1
    assert changed(before, after, "solveverify_model_calls_total") == {
        frozenset({("provider", "openai"), ("outcome", "ok")}): calls
    }
    (scan,) = changed(before, after, "solveverify_scans_total").items()
    assert scan[1] == 1 and ("badge", body["verification_status"]) in scan[0]
    async with services.sessionmaker() as session:
        rows = (
            await session.scalars(
                select(VerificationRecord).where(
                    VerificationRecord.solution_id == uuid.UUID(body["solution_id"])
                )
            )
        ).all()
    # The quick tier is the request's own; background checks (other tiers) run on their time.
    abstained = Counter(r.method for r in rows if r.verdict == "abstain" and r.tier == "quick")
    quick = {
        labels: n
        for labels, n in changed(before, after, "solveverify_verifier_abstentions_total").items()
        if ("tier", "quick") in labels
    }
    assert quick == {
        frozenset({("tier", "quick"), ("method", method)}): n for method, n in abstained.items()
    }


async def test_model_calls_by_outcome(live: httpx.AsyncClient, fake: FakeLLMServer) -> None:
    fake.reset()
    fake.default = Reply("42")
    before = await scrape(live)
    fake.then(Fail(429, {"retry-after": "0"}), Reply("42"))
    await openai_client(fake, max_retries=1).generate(MESSAGES, timeout=10)  # 429, then ok
    fake.then(Fail(500), Fail(500))
    with pytest.raises(ProviderError):
        await openai_client(fake, max_retries=1).generate(MESSAGES, timeout=10)
    fake.then(Hang(5))
    with pytest.raises(ProviderTimeout):
        await openai_client(fake, max_retries=0).generate(MESSAGES, timeout=0.3)
    budgeted = openai_client(fake, budget=InMemoryBudget(), limits=Limits(rpm=1))
    await budgeted.generate(MESSAGES, timeout=10)
    with pytest.raises(BudgetExhausted):
        await budgeted.generate(MESSAGES, timeout=10)
    after = await scrape(live)
    outcomes = {"ok": 2, "rate_limited": 1, "error": 2, "timeout": 1, "budget_exhausted": 1}
    assert changed(before, after, "solveverify_model_calls_total") == {
        frozenset({("provider", "openai"), ("outcome", outcome)}): n
        for outcome, n in outcomes.items()
    }
    assert len(fake.requests) == 6  # the budget's refusal never reached the model


async def test_a_killed_symbolic_computation_is_counted(live: httpx.AsyncClient) -> None:
    sandbox = SymbolicSandbox(workers=1, timeout_s=0.2)
    try:
        before = await scrape(live)
        started = time.monotonic()
        with pytest.raises(SandboxTimeout):
            await sandbox._run(time.sleep, 30)
        assert time.monotonic() - started < 10
        after = await scrape(live)
    finally:
        sandbox.close()
    assert delta(before, after, "solveverify_sandbox_timeouts_total") == 1


async def test_a_configured_token_is_required(
    live: httpx.AsyncClient, services: Resources, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services.settings.metrics, "token", SecretStr("scrape-secret"))
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "scrape-secret"}):
        refused = await live.get("/metrics", headers=headers)
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"].startswith("Bearer")
        assert "solveverify_" not in refused.text
    assert await scrape(live, Authorization="Bearer scrape-secret")


async def test_metrics_can_be_switched_off(tmp_path) -> None:
    settings = settings_for(f"sqlite+aiosqlite:///{tmp_path / 'off.db'}")
    settings.metrics = MetricsSettings(enabled=False)
    app = create_app(settings)  # no lifespan needed: there is no route to reach
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        assert (await http.get("/metrics")).status_code == 404


def test_the_workers_listener_asks_for_the_token_too() -> None:
    port = free_port()
    listener = serve_metrics("127.0.0.1", port, "scrape-secret")
    try:
        url = f"http://127.0.0.1:{port}/metrics"
        assert httpx.get(url, timeout=10).status_code == 401
        assert httpx.get(url, headers={"Authorization": "Bearer no"}, timeout=10).status_code == 401
        good = httpx.get(url, headers={"Authorization": "Bearer scrape-secret"}, timeout=10)
        assert good.status_code == 200 and "solveverify_model_calls_total" in good.text
        assert httpx.get(f"http://127.0.0.1:{port}/other", timeout=10).status_code == 404
    finally:
        listener.shutdown()
        listener.server_close()
