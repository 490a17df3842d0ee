"""Cross-process locks kept in the database (Postgres advisory locks)."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection


async def try_session_lock(connection: AsyncConnection, key: int) -> bool:
    """Take Postgres session-level advisory lock `key` on `connection` if no one holds it; it
    is held until the connection closes (so a process that dies gives it up)."""
    taken = await connection.scalar(text("SELECT pg_try_advisory_lock(:key)"), {"key": key})
    await connection.commit()  # the lock is the session's: no transaction left open
    return bool(taken)


async def still_connected(connection: AsyncConnection) -> None:
    """One round trip on the lock's connection; raises when it is gone (and the lock too)."""
    await connection.execute(text("SELECT 1"))
    await connection.commit()
