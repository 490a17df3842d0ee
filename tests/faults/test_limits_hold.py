"""Limits that hold: with Redis down the limiter counts in memory (never unlimited) and says
so once; failed authentications are throttled per address; bogus keys are cached apart."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from redis.asyncio import Redis

from app.auth.key_repository import ApiKeyRepository
from app.auth.keys import new_key
from app.auth.ratelimit import RedisRateLimiter
from app.auth.service import KeyAuthenticator
from app.main import create_app
from app.resources import Resources
from app.settings import AuthSettings, RetrievalSettings
from tests.conftest import settings_for
from tests.fixtures.processes import RedisServer, free_port


async def test_limiter_falls_back_to_memory_while_redis_is_down(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server = RedisServer(tmp_path).start()
    redis = Redis.from_url(server.url, socket_timeout=1, socket_connect_timeout=1)
    limiter = RedisRateLimiter(redis, retry_s=0.0)  # retry Redis on every call: worst case
    try:
        assert await limiter.hit("k", 3) is None
        server.stop()
        with caplog.at_level(logging.WARNING, logger="app.auth.ratelimit"):
            verdicts = [await limiter.hit("k", 3) for _ in range(10)]
        assert verdicts[:3] == [None, None, None]
        assert all(v is not None and v >= 1 for v in verdicts[3:])  # never fails open
        outage = [r for r in caplog.records if "unreachable" in r.getMessage()]
        assert len(outage) == 1, caplog.text
        assert not any(r.exc_info for r in caplog.records)  # no traceback per request
        server.start()
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="app.auth.ratelimit"):
            assert await limiter.hit("fresh", 3) is None
            assert await limiter.hit("fresh", 3) is None
        assert [r.getMessage() for r in caplog.records if "back" in r.getMessage()]
        assert not limiter.redis_down
    finally:
        await redis.aclose()
        server.stop()


async def test_unreachable_redis_is_not_retried_per_request(
    caplog: pytest.LogCaptureFixture,
) -> None:
    redis = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=1)
    limiter = RedisRateLimiter(redis, retry_s=60.0)
    try:
        with caplog.at_level(logging.WARNING, logger="app.auth.ratelimit"):
            results = [await limiter.hit("k", 2) for _ in range(50)]
            assert await limiter.exceeded("k", 2) is not None
        assert results.count(None) == 2
        assert len(caplog.records) == 1
    finally:
        await redis.aclose()


@pytest.fixture
async def secured_on_dead_redis(tmp_path: Path) -> AsyncIterator[FastAPI]:
    settings = settings_for(
        f"sqlite+aiosqlite:///{tmp_path / 'auth.db'}",
        url=f"redis://127.0.0.1:{free_port()}/0",  # nothing listens there
    ).model_copy(
        update={
            "auth": AuthSettings(
                required=True, rate_limit_per_minute=5, failed_auth_per_minute=4, key_cache_s=30
            ),
            "retrieval": RetrievalSettings(load_on_start=False),
        }
    )
    application = create_app(settings)
    async with LifespanManager(application, startup_timeout=120, shutdown_timeout=60):
        yield application


async def test_api_limits_hold_with_redis_unreachable(
    secured_on_dead_redis: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    services: Resources = secured_on_dead_redis.state.services
    key = new_key()
    async with services.sessionmaker() as session:
        ApiKeyRepository(session).add(key, tenant="school-a", role="student")
        await session.commit()
    transport = httpx.ASGITransport(app=secured_on_dead_redis)
    headers = {"Authorization": f"Bearer {key.key}"}
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        with caplog.at_level(logging.WARNING):
            statuses = [
                (
                    await http.get(
                        "/v1/scans/00000000-0000-0000-0000-000000000000", headers=headers
                    )
                ).status_code
                for _ in range(8)
            ]
    assert statuses[:5] == [404] * 5 and statuses[5:] == [429] * 3
    assert sum("unreachable" in r.getMessage() for r in caplog.records) == 1
    assert "Traceback" not in caplog.text


async def test_failed_authentications_are_throttled_per_address(
    secured_on_dead_redis: FastAPI,
) -> None:
    services: Resources = secured_on_dead_redis.state.services
    transport = httpx.ASGITransport(app=secured_on_dead_redis, client=("203.0.113.9", 1234))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        codes = []
        for i in range(10):
            bogus = f"sv_{i:012x}_guess"
            response = await http.get("/v1/scans/x", headers={"Authorization": f"Bearer {bogus}"})
            codes.append(response.json()["error"]["code"])
    assert codes[:4] == ["invalid_api_key"] * 4
    assert codes[4:] == ["too_many_failed_authentications"] * 6
    # Each well-formed key is looked up once (a valid key is never refused unchecked), and
    # a repeated bogus key is answered from the negative cache.
    assert services.authenticator.lookups == 10
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        again = await http.get("/v1/scans/x", headers={"Authorization": f"Bearer {bogus}"})
    assert again.status_code == 429 and services.authenticator.lookups == 10
    other = httpx.ASGITransport(app=secured_on_dead_redis, client=("198.51.100.7", 1))
    async with httpx.AsyncClient(transport=other, base_url="http://test") as http:
        response = await http.get("/v1/scans/x", headers={"Authorization": "Bearer sv_nope"})
    assert response.json()["error"]["code"] == "invalid_api_key"


async def test_bogus_keys_are_cached_negatively_and_never_evict_valid_ones(
    tmp_path: Path,
) -> None:
    settings = settings_for(f"sqlite+aiosqlite:///{tmp_path / 'keys.db'}").model_copy(
        update={"retrieval": RetrievalSettings(load_on_start=False)}
    )
    application = create_app(settings)
    async with LifespanManager(application, startup_timeout=120, shutdown_timeout=60):
        services: Resources = application.state.services
        key = new_key()
        async with services.sessionmaker() as session:
            ApiKeyRepository(session).add(key, tenant="school-a", role="student")
            await session.commit()
        auth = KeyAuthenticator(
            services.sessionmaker, cache_s=60, max_cached=10, max_cached_unknown=100
        )
        assert (await auth.principal(key.key)).tenant == "school-a"  # type: ignore[union-attr]
        for i in range(1000):
            assert await auth.principal(f"sv_{i:012x}_bogus") is None
        assert len(auth.unknown) == 100 and len(auth.valid) == 1
        lookups = auth.lookups
        assert await auth.principal(key.key) is not None
        assert await auth.principal("sv_0000000003e7_bogus") is None  # cached negatively
        assert auth.lookups == lookups
