"""Background upkeep of a server process, safe with several server processes.

Every process refreshes its own routing table and picks up a refitted calibrator; jobs that
must run once for the whole service (the daily recalibration when there is no Redis and so no
arq cron, resuming queued in-process scans) run only in the process that leads: the one that
holds the upkeep's process lock (app/db/process_lock.py: released when the process dies, so a
survivor takes over at its next round).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.analytics.routing import refresh_routing
from app.db.process_lock import ProcessLock
from app.db.repositories.outbox import OutboxRepository
from app.db.transaction import transaction
from app.llm.registry import ProviderRegistry
from app.settings import VerifySettings

log = logging.getLogger(__name__)

UPKEEP_LOCK_KEY = 0x5E1F_0017  # pg advisory lock id of the upkeep leader


class UpkeepLeader:
    """Is this process the one that runs the service-wide jobs? Shared by every upkeep loop of
    the process (the answer is the process's, not the loop's)."""

    def __init__(self, engine: AsyncEngine, database_url: str) -> None:
        self._lock = ProcessLock(
            engine, database_url, "upkeep", UPKEEP_LOCK_KEY, on_taken=self._leads
        )

    @staticmethod
    def _leads() -> None:
        log.info("process %d leads the upkeep", os.getpid())

    async def is_leader(self) -> bool:
        return await self._lock.held()

    async def close(self) -> None:
        await self._lock.close()


async def keep_fresh(
    sessionmaker: async_sessionmaker[AsyncSession],
    registry: ProviderRegistry,
    verify: VerifySettings,
    leader: UpkeepLeader,
    *,
    reload_calibration: Callable[[], bool],
    wake_outbox: Callable[[], None] | None = None,
) -> None:
    """The upkeep loop: the routing table follows the data, a refitted calibrator is picked
    up (`reload_calibration`: True when it swapped one in), and the leader stages the daily
    recalibration (`wake_outbox`: the relay's kick once that is committed)."""
    recalibration_staged_on = None
    while True:
        try:
            await refresh_routing(sessionmaker, registry, verify.routing_min_samples)
            if reload_calibration():
                log.info("loaded a refitted calibrator from %s", verify.calibration_path)
            day = datetime.now(UTC).strftime("%Y%m%d")
            if day != recalibration_staged_on and await leader.is_leader():
                async with transaction(sessionmaker, on_commit=wake_outbox) as session:
                    staged = await stage_daily_recalibration(session, day)
                if staged:
                    log.info("queued the daily recalibration %s", day)
                recalibration_staged_on = day
        except Exception:  # upkeep must never take the server down
            log.exception("background upkeep failed")
        await asyncio.sleep(verify.routing_refresh_s)


async def stage_daily_recalibration(session: AsyncSession, day: str) -> bool:
    """Stage the day's recalibration in the outbox (in the caller's transaction), once per
    day whichever process or restart asks (the job id is the day): like every job it is
    redelivered until it completes, so a Redis or database outage delays it instead of
    skipping the day."""
    return await OutboxRepository(session).stage_once(
        "recalibrate", [], job_id=f"recalibrate:{day}"
    )
