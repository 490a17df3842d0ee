"""A lock that one process of the service holds at a time, released when the process dies:
a Postgres session-level advisory lock (held by one connection; a database restart drops it,
and the next `held()` takes it again if no one else did), or for the embedded database an
exclusive lock on a file next to it."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
from collections.abc import Callable
from pathlib import Path
from typing import IO

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.capabilities import embedded_file, is_embedded
from app.db.repositories.locks import still_connected, try_session_lock


class ProcessLock:
    def __init__(
        self,
        engine: AsyncEngine,
        database_url: str,
        name: str,
        key: int,
        on_taken: Callable[[], None] | None = None,
    ) -> None:
        """`name`: the lock file's (`<database>.<name>.lock`); `key`: the advisory lock's id;
        `on_taken`: called each time this process takes the lock."""
        self.engine = engine
        self.database_url = database_url
        self.name = name
        self.key = key
        self.on_taken = on_taken
        self._connection: AsyncConnection | None = None
        self._file: IO[str] | None = None
        self._guard = asyncio.Lock()

    async def held(self) -> bool:
        """Does this process hold the lock (taking it if it is free)?"""
        async with self._guard:
            if is_embedded(self.database_url):
                return self._file_lock()
            return await self._advisory_lock()

    def _taken(self) -> bool:
        if self.on_taken is not None:
            self.on_taken()
        return True

    def _file_lock(self) -> bool:
        if self._file is not None:
            return True
        database = embedded_file(self.database_url)
        if database is None:
            return True  # an in-memory database is one process's alone
        handle = Path(f"{database}.{self.name}.lock").open("a")  # noqa: SIM115 (held for the process)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._file = handle
        return self._taken()

    async def _advisory_lock(self) -> bool:
        if self._connection is not None:
            try:
                await still_connected(self._connection)
                return True
            except Exception:  # the database restarted: the lock went with the connection
                await self._drop_connection()
        connection = await self.engine.connect()
        try:
            taken = await try_session_lock(connection, self.key)
        except Exception:
            await connection.close()
            raise
        if not taken:
            await connection.close()
            return False
        self._connection = connection
        return self._taken()

    async def _drop_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()

    async def close(self) -> None:
        await self._drop_connection()
        if self._file is not None:
            self._file.close()
            self._file = None
