"""Queue again the scans whose job was lost.

A scan is accepted (202) with its input stored and a `run_scan` job in the outbox, which
delivers it again until it completes (app/worker/outbox.py). The sweeper is the second net,
in every server and worker, for scans the outbox does not cover (resumed by an in-process
server, or whose job ended without running them): it finds scans still `queued`/`running`
long after they were stored (twice the job timeout by default) and queues them again, unless
the outbox still owes their job or the queue holds it (two runs of one scan at once would
collide). The original job id is tried first; if arq refuses it because it keeps a finished
job's result (an hour), the sweep's own id is used. `run_queued_scan` ignores finished scans.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models._columns import utcnow
from app.db.repositories.outbox import DELIVERY_SEPARATOR, OutboxRepository
from app.db.transaction import reading
from app.scans.event_repository import ScanInputRepository
from app.settings import JobSettings

log = logging.getLogger(__name__)


class JobQueue(Protocol):
    """What the sweep asks of the process's queue (app/worker/queue.py implements it)."""

    async def enqueue(self, task: str, *args: str, job_id: str) -> bool: ...

    async def is_pending(self, job_id: str) -> bool: ...


async def requeue_stuck_scans(
    sessionmaker: async_sessionmaker[AsyncSession], queue: JobQueue, stuck_after_s: float
) -> int:
    """Queue the stuck scans again; how many the queue accepted (held jobs are refused)."""
    async with reading(sessionmaker) as session:
        stuck = await ScanInputRepository(session).stuck_scan_ids(
            utcnow() - timedelta(seconds=stuck_after_s)
        )
        owed = await OutboxRepository(session).outstanding([f"run_scan:{s}" for s in stuck])
    queued = 0
    sweep = f"{DELIVERY_SEPARATOR}sweep{int(time.time())}"
    for scan_id in stuck:
        job_id = f"run_scan:{scan_id}"
        if job_id in owed or await queue.is_pending(job_id):
            continue
        if await queue.enqueue("run_scan", str(scan_id), job_id=job_id) or await queue.enqueue(
            "run_scan", str(scan_id), job_id=job_id + sweep
        ):
            queued += 1
    if queued:
        log.warning("queued %d stuck scan(s) again (their job was lost)", queued)
    return queued


async def sweep_stuck_scans(
    sessionmaker: async_sessionmaker[AsyncSession], queue: JobQueue, jobs: JobSettings
) -> None:
    """The sweep, every `stuck_scan_sweep_s`, for as long as the process runs."""
    while True:
        await asyncio.sleep(jobs.stuck_scan_sweep_s)
        try:
            await requeue_stuck_scans(sessionmaker, queue, jobs.stuck_after_s)
        except Exception as exc:  # the database or Redis is down: the next sweep tries again
            log.warning("stuck-scan sweep failed: %s", type(exc).__name__)
