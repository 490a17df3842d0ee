"""Shared fixtures: a warm symbolic sandbox, real Postgres and Redis, apps per backend.

The session starts its own Postgres cluster and Redis server (tests/fixtures/services.py) before
any test module is imported, and removes them at the end. Postgres: each test run gets its own
fresh database (created here, dropped at the end); each API test runs inside a transaction that
is rolled back, so tests never see each other's rows.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine

from app.api.deps import get_session
from app.db.admin import create_database, drop_database
from app.db.migrate import upgrade_async
from app.db.session import open_sessionmaker
from app.llm.base import ModelClient
from app.llm.providers.symbolic import SymbolicClient
from app.llm.registry import build_registry
from app.main import create_app
from app.pipeline.context import PipelineContext, Retriever
from app.pipeline.graph import build_graph
from app.resources import Resources
from app.settings import (
    DatabaseSettings,
    LLMSettings,
    RedisSettings,
    RetrievalSettings,
    Settings,
    VerifySettings,
)
from app.symbolic.sandbox import SymbolicSandbox
from tests.fixtures import services as test_services
from tests.fixtures.providers import close_kept

# Fixtures shared by several test modules, kept with their helpers under tests/fixtures.
pytest_plugins = ["tests.fixtures.fake_llm"]

# Set by pytest_configure, which runs before test modules (which import these) are collected.
POSTGRES_ADMIN_URL = ""
REDIS_URL = ""
_servers = ExitStack()


def pytest_configure(config: pytest.Config) -> None:
    global POSTGRES_ADMIN_URL, REDIS_URL
    try:
        POSTGRES_ADMIN_URL, REDIS_URL = test_services.start(_servers)
    except test_services.MissingServer as missing:
        pytest.exit(str(missing), returncode=pytest.ExitCode.USAGE_ERROR)
    # Subprocesses (serve, worker, CLI) started by tests see the same servers.
    os.environ[test_services.POSTGRES_ENV] = POSTGRES_ADMIN_URL
    os.environ[test_services.REDIS_ENV] = REDIS_URL


def pytest_unconfigure(config: pytest.Config) -> None:
    _servers.close()


@pytest.fixture(scope="session", autouse=True)
async def close_sdk_clients() -> AsyncIterator[None]:
    yield
    await close_kept()


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A developer's SOLVEVERIFY_* variables (API keys, URLs) must not change what tests see."""
    for name in list(os.environ):
        if name.startswith("SOLVEVERIFY_") and not name.startswith("SOLVEVERIFY_TEST_"):
            monkeypatch.delenv(name)


# ---------------------------------------------------------------- pipeline building blocks


@pytest.fixture(scope="session")
async def sandbox() -> AsyncIterator[SymbolicSandbox]:
    box = SymbolicSandbox(workers=2, timeout_s=3.0)
    await box.warm_up()
    yield box
    box.close()


@pytest.fixture(scope="session")
def verify_settings() -> VerifySettings:
    return VerifySettings()


@pytest.fixture(scope="session")
def graph(verify_settings: VerifySettings):
    return build_graph()


@pytest.fixture
def make_context(sandbox: SymbolicSandbox, verify_settings: VerifySettings):
    """PipelineContext with the symbolic provider plus any scripted clients."""

    def make(
        *clients: ModelClient,
        retriever: Retriever | None = None,
        symbolic: bool = True,
        verify: VerifySettings | None = None,
    ) -> PipelineContext:
        base = [SymbolicClient(sandbox)] if symbolic else []
        registry = build_registry(["symbolic"], [*base, *clients])
        return PipelineContext(registry, sandbox, verify or verify_settings, retriever=retriever)

    return make


# ---------------------------------------------------------------- real services


async def create_postgres_database() -> str:
    return await create_database(POSTGRES_ADMIN_URL, "solveverify_test")


async def drop_postgres_database(url: str) -> None:
    await drop_database(POSTGRES_ADMIN_URL, url)


@pytest.fixture(
    scope="session", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
async def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[str]:
    """A fresh, migrated database for this test run, on each backend."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'solveverify.db'}"
        await upgrade_async(url)
        yield url
        return
    url = await create_postgres_database()
    await upgrade_async(url)
    yield url
    await drop_postgres_database(url)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def sessionmaker(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """A database of this test's own, on each backend: the shared test app's outbox relay
    must not take (or deliver) the rows it writes."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'own.db'}"
    else:
        url = await create_postgres_database()
    await upgrade_async(url)
    try:
        async with open_sessionmaker(DatabaseSettings(url=url)) as made:
            yield made
    finally:
        if request.param == "postgres":
            await drop_postgres_database(url)


def settings_for(database_url: str, llm: LLMSettings | None = None, **redis: str) -> Settings:
    """Test settings: explicit, so a developer's .env or environment cannot leak in."""
    return Settings(
        database=DatabaseSettings(url=database_url),
        redis=RedisSettings(**redis),
        retrieval=RetrievalSettings(),
        llm=llm or LLMSettings(llamacpp_enabled=False),
        # no stray ./calibration.json from a developer's `solveverify calibrate` run
        verify=VerifySettings(calibration_path=None),
    )


@pytest.fixture(scope="session")
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    """The real app (lifespan and all) on each backend, opened once per test session."""
    application = create_app(settings_for(database_url))
    async with LifespanManager(application, startup_timeout=120, shutdown_timeout=60):
        yield application


@pytest.fixture
def services(app: FastAPI) -> Resources:
    return app.state.services


@pytest.fixture
async def session(services: Resources) -> AsyncIterator[AsyncSession]:
    """A session inside a transaction that is rolled back after the test."""
    async with services.engine.connect() as connection:
        transaction = await connection.begin()
        db_session = AsyncSession(
            bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
        )
        try:
            yield db_session
        finally:
            await db_session.close()
            await transaction.rollback()


@pytest.fixture
async def client(app: FastAPI, session: AsyncSession) -> AsyncIterator[httpx.AsyncClient]:
    async def test_session() -> AsyncIterator[AsyncSession]:
        # As the real dependency: commit (here: release the test's savepoint) after the handler.
        yield session
        await session.commit()

    app.dependency_overrides[get_session] = test_session
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        yield http
    app.dependency_overrides.clear()


@pytest.fixture
async def live(app: FastAPI, services: Resources, monkeypatch) -> AsyncIterator[httpx.AsyncClient]:
    """The app without the test transaction: it commits for real (SSE readers and queued scans
    use their own connections), and event streams end quickly."""
    monkeypatch.setattr(services.settings.api, "events_quiet_s", 0.3)
    monkeypatch.setattr(services.settings.api, "events_poll_s", 0.05)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        yield http


@pytest.fixture
def with_clients(services: Resources, monkeypatch: pytest.MonkeyPatch):
    """Add scripted providers to the running app for one test."""

    def add(*clients: ModelClient, symbolic: bool = True) -> None:
        base = [services.registry.get("symbolic")] if symbolic else []
        registry = build_registry(services.settings.llm.default_provider_order, [*base, *clients])
        monkeypatch.setattr(services, "pipeline", replace(services.pipeline, registry=registry))
        jobs = services.queue.context.scans  # type: ignore[attr-defined]  # queued scans too
        monkeypatch.setattr(jobs, "pipeline", replace(jobs.pipeline, registry=registry))

    return add


@pytest.fixture
async def database_away() -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """Sessions of a database that is not there: nothing listens on port 1, so every
    connection is refused, as by a stopped server (no mock: asyncpg's own error)."""
    engine = create_async_engine("postgresql+asyncpg://postgres@127.0.0.1:1/gone")
    try:
        yield async_sessionmaker(engine)
    finally:
        await engine.dispose()
