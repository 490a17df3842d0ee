"""Engine and sessionmaker from settings; SQLite gets WAL and foreign keys."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.exc import DisconnectionError, IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.settings import DatabaseSettings


def create_engine(settings: DatabaseSettings) -> AsyncEngine:
    # hide_parameters: a database error's message (logged, maybe raised) shows the SQL but
    # not the bound values, which are students' problems and tenant names.
    kwargs: dict[str, Any] = {"echo": settings.echo, "hide_parameters": True}
    if settings.is_sqlite:
        kwargs["connect_args"] = {"timeout": 30}
    else:
        # The same ceiling as pool_size + as many overflow connections, but all of them kept:
        # overflow ones are closed at every check-in, so a burst reconnected (TLS attempt,
        # server fork) for nearly every request.
        kwargs.update(pool_size=2 * settings.pool_size, max_overflow=0)
    engine = create_async_engine(settings.url, **kwargs)
    if settings.is_sqlite:
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
    else:
        event.listen(engine.sync_engine.pool, "checkin", _idle_since)
        event.listen(engine.sync_engine.pool, "checkout", _ping_if_idle)
    return engine


# A pooled connection that sat idle this long is pinged before use, and replaced if a
# Postgres restart (or a firewall) killed it. SQLAlchemy's pool_pre_ping pings every
# checkout: on asyncpg three round trips (BEGIN, ";", ROLLBACK) per session, every request
# paying for the rare restart. A connection in steady use that a restart kills fails once
# (503, retryable), and the pool then drops every connection older than the failure.
PING_AFTER_IDLE_S = 10.0


def _idle_since(_dbapi_connection: Any, record: Any) -> None:
    record.info["idle_since"] = time.monotonic()


def _ping_if_idle(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    since = record.info.get("idle_since")
    if since is None or time.monotonic() - since < PING_AFTER_IDLE_S:
        return
    try:
        dbapi_connection.ping()
    except Exception as exc:  # the pool retries the checkout with a new connection
        raise DisconnectionError("idle connection is gone") from exc


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # Let SQLAlchemy, not the sqlite3 module, decide when transactions begin: without this,
    # SAVEPOINTs (nested transactions) do not work on SQLite.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    connection.exec_driver_sql("BEGIN")


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


@asynccontextmanager
async def open_sessionmaker(
    settings: DatabaseSettings,
) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """For one-shot commands: an engine for the block, disposed after."""
    engine = create_engine(settings)
    try:
        yield create_sessionmaker(engine)
    finally:
        await engine.dispose()


async def ping_database(engine: AsyncEngine) -> None:
    """One round trip; raises when the database cannot be reached."""
    async with engine.connect() as connection:
        await connection.execute(text("SELECT 1"))


async def add_unless_taken(session: AsyncSession, *rows: Any) -> bool:
    """Insert `rows` in a savepoint; False (nothing inserted) when a unique key is taken.
    Written first, not read first: on SQLite a transaction that read cannot write once
    another connection has committed."""
    try:
        async with session.begin_nested():
            session.add_all(rows)
    except IntegrityError:
        return False
    return True
