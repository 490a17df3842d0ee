"""Queue again the scans whose job was lost.

A scan is accepted (202) with its input stored and a `run_scan` job in the outbox; once the
relay hands the job to Redis, the outbox forgets it. A Redis without persistence that dies
takes those jobs along, and nothing else would ever run them. The sweeper, in every server
and worker, finds scans still `queued`/`running` long after they were stored (twice the job
timeout by default) and queues them again under the same job id: a job the queue still holds
is refused, so a slow queue is never doubled, and `run_queued_scan` ignores finished scans.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models._columns import utcnow
from app.db.repositories.scan_events import ScanInputRepository
from app.settings import JobSettings
from app.worker.queue import TaskQueue

log = logging.getLogger(__name__)


async def requeue_stuck_scans(
    sessionmaker: async_sessionmaker[AsyncSession], queue: TaskQueue, stuck_after_s: float
) -> int:
    """Queue the stuck scans again; how many the queue accepted (held jobs are refused)."""
    async with sessionmaker() as session:
        stuck = await ScanInputRepository(session).stuck_scan_ids(
            utcnow() - timedelta(seconds=stuck_after_s)
        )
        await session.rollback()
    queued = 0
    for scan_id in stuck:
        if await queue.enqueue("run_scan", str(scan_id), job_id=f"run_scan:{scan_id}"):
            queued += 1
    if queued:
        log.warning("queued %d stuck scan(s) again (their job was lost)", queued)
    return queued


async def sweep_stuck_scans(
    sessionmaker: async_sessionmaker[AsyncSession], queue: TaskQueue, jobs: JobSettings
) -> None:
    """The sweep, every `stuck_scan_sweep_s`, for as long as the process runs."""
    while True:
        await asyncio.sleep(jobs.stuck_scan_sweep_s)
        try:
            await requeue_stuck_scans(sessionmaker, queue, jobs.stuck_after_s)
        except Exception as exc:  # the database or Redis is down: the next sweep tries again
            log.warning("stuck-scan sweep failed: %s", type(exc).__name__)
