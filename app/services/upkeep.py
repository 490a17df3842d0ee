"""Background upkeep of a server process, safe with several server processes.

Every process refreshes its own routing table and picks up a refitted calibrator; jobs that
must run once for the whole service (the daily recalibration when there is no Redis and so no
arq cron, resuming queued in-process scans) run only in the process that leads: the one that
holds a Postgres advisory lock (released when its connection closes, so a survivor takes over
at its next round), or on SQLite an exclusive lock on a file next to the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING

from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.repositories.locks import still_connected, try_session_lock
from app.db.repositories.outbox import OutboxRepository

if TYPE_CHECKING:
    from app.resources import Resources

log = logging.getLogger(__name__)

UPKEEP_LOCK_KEY = 0x5E1F_0017  # pg advisory lock id of the upkeep leader


class UpkeepLeader:
    """Is this process the one that runs the service-wide jobs? Shared by every upkeep loop of
    the process (the answer is the process's, not the loop's)."""

    def __init__(self, engine: AsyncEngine, database_url: str) -> None:
        self.engine = engine
        self.database_url = database_url
        self._connection: AsyncConnection | None = None
        self._file: IO[str] | None = None
        self._guard = asyncio.Lock()

    async def is_leader(self) -> bool:
        async with self._guard:
            if self.database_url.startswith("sqlite"):
                return self._file_lock()
            return await self._advisory_lock()

    def _file_lock(self) -> bool:
        if self._file is not None:
            return True
        database = make_url(self.database_url).database
        if not database or database == ":memory:":
            return True  # an in-memory database is one process's alone
        handle = Path(f"{database}.upkeep.lock").open("a")  # noqa: SIM115 (held for the process)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._file = handle
        log.info("process %d leads the upkeep", os.getpid())
        return True

    async def _advisory_lock(self) -> bool:
        if self._connection is not None:
            try:
                await still_connected(self._connection)
                return True
            except Exception:  # the database restarted: the lock went with the connection
                await self._drop_connection()
        connection = await self.engine.connect()
        try:
            taken = await try_session_lock(connection, UPKEEP_LOCK_KEY)
        except Exception:
            await connection.close()
            raise
        if not taken:
            await connection.close()
            return False
        self._connection = connection
        log.info("process %d leads the upkeep", os.getpid())
        return True

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


async def keep_fresh(services: Resources) -> None:
    """The upkeep loop: the routing table follows the data, a refitted calibrator is picked
    up, and the leader stages the daily recalibration."""
    from app.analytics.routing import refresh_routing
    from app.resources import reload_calibration

    verify = services.settings.verify
    recalibration_staged_on = None
    while True:
        try:
            await refresh_routing(
                services.sessionmaker, services.registry, verify.routing_min_samples
            )
            if reload_calibration(services):
                log.info("loaded a refitted calibrator from %s", verify.calibration_path)
            day = datetime.now(UTC).strftime("%Y%m%d")
            if day != recalibration_staged_on and await services.upkeep.is_leader():
                if await stage_daily_recalibration(services, day):
                    log.info("queued the daily recalibration %s", day)
                recalibration_staged_on = day
        except Exception:  # upkeep must never take the server down
            log.exception("background upkeep failed")
        await asyncio.sleep(verify.routing_refresh_s)


async def stage_daily_recalibration(services: Resources, day: str) -> bool:
    """Stage the day's recalibration in the outbox, once per day whichever process or restart
    asks (the job id is the day): like every job it is redelivered until it completes, so a
    Redis or database outage delays it instead of skipping the day."""
    from app.resources import unit_of_work

    async with unit_of_work(services) as session:
        return await OutboxRepository(session).stage_once(
            "recalibrate", [], job_id=f"recalibrate:{day}"
        )
