"""The one transaction contract of requests and jobs alike.

`transaction(sessionmaker, on_commit=...)`: the block's work is committed when the block
succeeds and rolled back otherwise (closing the session rolls back whatever was not committed,
an exception or a cancellation included); once committed, `on_commit` runs if the block staged
outbox jobs, which is how the owner wakes its outbox relay so they go out at once.

`reading(sessionmaker)`: a read-only block, never committed: closing the session rolls back
(without expiring what was loaded, so the objects stay usable after the block).

A block may end its read early with `session.commit()` before a slow call (a model, the
queue) and write afterwards in the same session; the contract still makes the last commit.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

STAGED = "outbox_staged"


def note_staged(session: AsyncSession) -> None:
    """This session's transaction writes outbox rows: its owner wakes the relay after commit."""
    session.info[STAGED] = True


def staged_jobs(session: AsyncSession) -> bool:
    """Did this session stage outbox rows (so the relay has new work after the commit)?"""
    return bool(session.info.get(STAGED))


@asynccontextmanager
async def transaction(
    sessionmaker: async_sessionmaker[AsyncSession],
    *,
    on_commit: Callable[[], None] | None = None,
) -> AsyncIterator[AsyncSession]:
    """A session whose work is committed when the block succeeds, rolled back otherwise;
    `on_commit` runs after a successful commit of a block that staged outbox jobs (a commit
    that fails raises, and nothing is woken)."""
    async with sessionmaker() as session:
        yield session
        await session.commit()
        if on_commit is not None and staged_jobs(session):
            on_commit()


@asynccontextmanager
async def reading(sessionmaker: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """A session for reads only: nothing is committed; closing it rolls back."""
    async with sessionmaker() as session:
        yield session


LOCKED_RETRIES = 6


def is_locked(exc: BaseException) -> bool:
    """Another connection holds the write lock of a single-writer database (SQLite's "database
    is locked", after its busy timeout)."""
    return isinstance(exc, OperationalError) and "database is locked" in str(exc)


async def retry_when_locked(write: Callable[[], Awaitable[None]]) -> None:
    """Run `write` (a whole transaction: it re-reads what it writes on) again, with backoff,
    while a single-writer database says another writer holds the lock, so a write is never
    lost to a busy moment. On Postgres nothing says that and `write` runs once."""
    for attempt in range(LOCKED_RETRIES):
        try:
            await write()
            return
        except OperationalError as exc:
            if not is_locked(exc) or attempt == LOCKED_RETRIES - 1:
                raise
            await asyncio.sleep(0.05 * 2**attempt)
