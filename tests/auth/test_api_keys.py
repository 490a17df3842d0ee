"""API keys, tenants, roles and rate limits against a real app with auth required."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from sqlalchemy import select, text

from app.auth.key_repository import ApiKeyRepository
from app.auth.keys import Role, hash_key, key_id_of, new_key
from app.auth.ratelimit import MemoryRateLimiter, RedisRateLimiter
from app.db.models import ApiKey
from app.main import OPEN_SERVER_WARNING, create_app
from app.resources import Resources
from app.settings import AuthSettings, RetrievalSettings
from tests.conftest import REDIS_URL, settings_for

PROBLEM = {"text": "Solve 2x + 3 = 11"}


@pytest.fixture(scope="module")
async def secured(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[FastAPI]:
    path: Path = tmp_path_factory.mktemp("auth") / "auth.db"
    settings = settings_for(f"sqlite+aiosqlite:///{path}").model_copy(
        update={
            "auth": AuthSettings(required=True, rate_limit_per_minute=5, key_cache_s=0),
            "retrieval": RetrievalSettings(load_on_start=False),
        }
    )
    application = create_app(settings)
    async with LifespanManager(application, startup_timeout=120, shutdown_timeout=60):
        yield application


@pytest.fixture
async def http(secured: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=secured)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        yield client


async def make_key(app: FastAPI, tenant: str, role: Role = "student") -> str:
    services: Resources = app.state.services
    key = new_key()
    async with services.sessionmaker() as session:
        ApiKeyRepository(session).add(key, tenant=tenant, role=role)
        await session.commit()
    return key.key


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/v1/scans"),
        ("GET", "/v1/scans/00000000-0000-0000-0000-000000000000"),
        ("GET", "/v1/solutions/00000000-0000-0000-0000-000000000000"),
        ("GET", "/v1/analytics/accuracy"),
    ],
)
async def test_every_route_needs_a_key(http: httpx.AsyncClient, method: str, path: str) -> None:
    response = await http.request(method, path, json=PROBLEM if method == "POST" else None)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthorized"
    assert response.headers["www-authenticate"] == "Bearer"
    wrong = await http.request(method, path, headers=bearer("sv_000000000000_nope"))
    assert wrong.status_code == 401
    assert wrong.json()["error"]["code"] == "invalid_api_key"


async def test_health_stays_open(http: httpx.AsyncClient) -> None:
    assert (await http.get("/healthz")).status_code == 200


async def test_another_tenants_scan_is_404(secured: FastAPI, http: httpx.AsyncClient) -> None:
    alice, bob = await make_key(secured, "school-a"), await make_key(secured, "school-b")
    created = await http.post("/v1/scans", json=PROBLEM, headers=bearer(alice))
    assert created.status_code == 201, created.text
    body = created.json()
    scan, solution = f"/v1/scans/{body['scan_id']}", f"/v1/solutions/{body['solution_id']}"
    for path in (scan, solution):
        assert (await http.get(path, headers=bearer(alice))).status_code == 200
        other = await http.get(path, headers=bearer(bob))
        assert other.status_code == 404
        assert other.json()["error"]["code"] == "not_found"
    services: Resources = secured.state.services
    async with services.sessionmaker() as session:
        tenant = await session.scalar(
            text("SELECT tenant FROM scans WHERE id = :id"),
            {"id": body["scan_id"].replace("-", "")},
        )
    assert tenant == "school-a"


async def test_analytics_need_the_analyst_role(secured: FastAPI, http: httpx.AsyncClient) -> None:
    student, analyst = await make_key(secured, "t1"), await make_key(secured, "ops", "analyst")
    for path in ("/v1/analytics/accuracy", "/v1/analytics/routing"):
        denied = await http.get(path, headers=bearer(student))
        assert denied.status_code == 403
        assert denied.json()["error"]["code"] == "forbidden"
        assert (await http.get(path, headers=bearer(analyst))).status_code == 200
    # The dashboard spans every tenant: anyone but a platform key gets the login form.
    for headers in ({}, bearer(student), bearer(analyst), bearer("sv_000000000000_nope")):
        page = await http.get("/dashboard", headers=headers)
        assert page.status_code == 401 and "<form" in page.text
    platform = await make_key(secured, "ops", "platform")
    assert (await http.get("/dashboard", headers=bearer(platform))).status_code == 200


async def test_an_analyst_key_sees_its_own_tenant_only(
    secured: FastAPI, http: httpx.AsyncClient
) -> None:
    for tenant in ("school-x", "school-y"):
        student = await make_key(secured, tenant)
        scan = await http.post("/v1/scans", json=PROBLEM, headers=bearer(student))
        assert scan.status_code == 201, scan.text
    analyst = await make_key(secured, "school-x", "analyst")
    rows = (await http.get("/v1/analytics/accuracy", headers=bearer(analyst))).json()
    assert rows and {r["tenant"] for r in rows} == {"school-x"}
    other = await http.get("/v1/analytics/accuracy?tenant=school-y", headers=bearer(analyst))
    assert other.status_code == 403 and other.json()["error"]["code"] == "forbidden"
    own = await http.get("/v1/analytics/accuracy?tenant=school-x", headers=bearer(analyst))
    assert own.json() == rows
    trend = (await http.get("/v1/analytics/trend", headers=bearer(analyst))).json()
    assert sum(day["n"] for day in trend) == 1  # its tenant's one solution, not both
    second = await make_key(secured, "school-x", "analyst")  # the test's limit: 5 a minute
    for path in ("/v1/analytics/trend", "/v1/analytics/suggestions"):
        # Another tenant asked for is refused, not answered with its own figures.
        other = await http.get(f"{path}?tenant=school-y", headers=bearer(second))
        assert other.status_code == 403, (path, other.text)
        own = await http.get(f"{path}?tenant=school-x", headers=bearer(second))
        assert own.status_code == 200, (path, own.text)

    platform = await make_key(secured, "operator", "platform")
    every = (await http.get("/v1/analytics/accuracy", headers=bearer(platform))).json()
    assert {"school-x", "school-y"} <= {r["tenant"] for r in every}
    chosen = await http.get("/v1/analytics/accuracy?tenant=school-y", headers=bearer(platform))
    assert {r["tenant"] for r in chosen.json()} == {"school-y"}
    everywhere = (await http.get("/v1/analytics/trend", headers=bearer(platform))).json()
    assert sum(day["n"] for day in everywhere) >= 2
    one = (await http.get("/v1/analytics/trend?tenant=school-y", headers=bearer(platform))).json()
    assert sum(day["n"] for day in one) == 1


async def test_revoked_key_stops_working(secured: FastAPI, http: httpx.AsyncClient) -> None:
    key = await make_key(secured, "t2")
    assert (await http.get("/v1/analytics/routing", headers=bearer(key))).status_code == 403
    services: Resources = secured.state.services
    async with services.sessionmaker() as session:
        assert await ApiKeyRepository(session).revoke(key_id_of(key) or "")
        await session.commit()
    response = await http.get("/v1/analytics/routing", headers=bearer(key))
    assert response.status_code == 401


async def test_keys_are_stored_hashed(secured: FastAPI) -> None:
    key = await make_key(secured, "t3")
    services: Resources = secured.state.services
    async with services.sessionmaker() as session:
        row = await session.scalar(select(ApiKey).where(ApiKey.id == key_id_of(key)))
        dump = " ".join(str(v) for v in (await session.execute(text("SELECT * FROM api_keys"))))
    assert row is not None and row.key_hash == hash_key(key)
    assert key not in dump and key.split("_", 2)[2] not in dump


async def test_rate_limit_per_key(secured: FastAPI, http: httpx.AsyncClient) -> None:
    busy, calm = await make_key(secured, "t4"), await make_key(secured, "t4")
    path = "/v1/scans/00000000-0000-0000-0000-000000000000"
    statuses = [(await http.get(path, headers=bearer(busy))).status_code for _ in range(6)]
    assert statuses == [404] * 5 + [429]
    limited = await http.get(path, headers=bearer(busy))
    assert limited.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(limited.headers["retry-after"]) <= 60
    assert (await http.get(path, headers=bearer(calm))).status_code == 404  # per key


@pytest.mark.redis
async def test_redis_limiter_is_shared_between_processes() -> None:
    from redis.asyncio import Redis

    one, two = Redis.from_url(REDIS_URL), Redis.from_url(REDIS_URL)
    key = new_key().id
    try:
        first, second = RedisRateLimiter(one), RedisRateLimiter(two)
        results = [await (first if i % 2 else second).hit(key, 3) for i in range(5)]
    finally:
        await one.aclose()
        await two.aclose()
    assert results[:3] == [None] * 3
    assert all(r is not None and 0 < r <= 60 for r in results[3:])


async def test_memory_limiter_counts_per_key() -> None:
    limiter = MemoryRateLimiter()
    assert [await limiter.hit("a", 2) for _ in range(3)][-1] is not None
    assert await limiter.hit("b", 2) is None


async def test_open_server_says_so_loudly(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    settings = settings_for(f"sqlite+aiosqlite:///{tmp_path / 'open.db'}").model_copy(
        update={"retrieval": RetrievalSettings(load_on_start=False)}
    )
    application = create_app(settings)
    with caplog.at_level(logging.WARNING, logger="app.main"):
        async with LifespanManager(application, startup_timeout=120, shutdown_timeout=60):
            transport = httpx.ASGITransport(app=application)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                # Open mode: no key needed, and analytics answer the anonymous operator.
                assert (await client.post("/v1/scans", json=PROBLEM)).status_code == 201
                assert (await client.get("/v1/analytics/accuracy")).status_code == 200
    assert OPEN_SERVER_WARNING in caplog.text


def test_keys_cli_create_list_revoke(tmp_path: Path) -> None:
    from tests.fixtures.processes import run_cli

    created = run_cli("keys", "create", "--tenant", "school-a", "--role", "analyst", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    key = created.stdout.strip()
    key_id = key_id_of(key)
    assert key_id is not None and "store it now" in created.stderr
    listed = run_cli("keys", "list", cwd=tmp_path).stdout
    assert f"{key_id}  school-a  analyst  active" in listed and key not in listed
    assert run_cli("keys", "revoke", key_id, cwd=tmp_path).returncode == 0
    assert "revoked" in run_cli("keys", "list", cwd=tmp_path).stdout
    assert run_cli("keys", "revoke", key_id, cwd=tmp_path).returncode == 1
    assert run_cli("keys", "create", "--tenant", "x", "--role", "root", cwd=tmp_path).returncode
