"""The Postgres pool pings a connection only after it sat idle, and replaces one that died."""

from __future__ import annotations

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.db import session as db_session
from app.db.session import create_engine
from app.settings import DatabaseSettings
from tests.conftest import POSTGRES_ADMIN_URL, create_postgres_database, drop_postgres_database

pytestmark = pytest.mark.postgres


async def backend_pid(engine) -> int:  # type: ignore[no-untyped-def]
    async with engine.connect() as connection:
        return int(await connection.scalar(text("SELECT pg_backend_pid()")))


async def terminate(pid: int) -> None:
    admin = await asyncpg.connect(POSTGRES_ADMIN_URL)
    try:
        await admin.execute("SELECT pg_terminate_backend($1)", pid)
    finally:
        await admin.close()


@pytest.fixture
async def url():  # type: ignore[no-untyped-def]
    created = await create_postgres_database()
    yield created
    await drop_postgres_database(created)


async def test_an_idle_connection_killed_by_a_restart_is_replaced(url, monkeypatch) -> None:
    monkeypatch.setattr(db_session, "PING_AFTER_IDLE_S", 0.0)  # every pooled connection idles
    engine = create_engine(DatabaseSettings(url=url, pool_size=1))
    try:
        first = await backend_pid(engine)
        await terminate(first)  # what a Postgres restart does to the pooled connection
        assert await backend_pid(engine) != first  # pinged, found dead, replaced: no error
    finally:
        await engine.dispose()


async def test_a_busy_connection_is_not_pinged(url) -> None:
    """Within the idle window the pooled connection is used as it is: a dead one fails once
    (the API answers 503), and the pool then starts afresh."""
    engine = create_engine(DatabaseSettings(url=url, pool_size=1))
    try:
        first = await backend_pid(engine)
        await terminate(first)
        with pytest.raises(DBAPIError) as failed:
            await backend_pid(engine)
        assert failed.value.connection_invalidated  # the API's 503, never a 500
        assert await backend_pid(engine) != first
    finally:
        await engine.dispose()
