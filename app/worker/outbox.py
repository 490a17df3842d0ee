"""Deliver staged jobs from the outbox table to the queue.

Rows are claimed in one short transaction (leased, so the relays of several server processes
never hand out the same row together) and marked in another, with the queue calls in between
and no transaction open (SQLite cannot upgrade a read snapshot after another commit). Delivery
is at least once; job ids make a second delivery a no-op in either queue, and every task is
idempotent besides.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models._columns import utcnow
from app.db.repositories.outbox import OutboxRepository
from app.settings import JobSettings
from app.worker.queue import TaskQueue

log = logging.getLogger(__name__)


class OutboxRelay:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        queue: TaskQueue,
        *,
        poll_s: float = 2.0,
        max_backoff_s: float = 60.0,
        enqueue_timeout_s: float = 2.0,
        batch: int = 200,
        gather_s: float = 0.05,
        lease_s: float = 60.0,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.queue = queue
        self.poll_s = poll_s
        self.max_backoff_s = max_backoff_s
        self.enqueue_timeout_s = enqueue_timeout_s
        self.batch = batch
        self.gather_s = gather_s
        # Claimed rows are hidden from other processes' relays this long (at least once:
        # a relay that dies mid-batch leaves them to the next one after the lease).
        self.lease_s = lease_s
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()

    @classmethod
    def from_settings(
        cls, sessionmaker: async_sessionmaker[AsyncSession], queue: TaskQueue, jobs: JobSettings
    ) -> OutboxRelay:
        return cls(
            sessionmaker,
            queue,
            poll_s=jobs.outbox_poll_s,
            max_backoff_s=jobs.outbox_max_backoff_s,
        )

    def kick(self) -> None:
        """New rows were committed: deliver them now rather than at the next poll."""
        self._wake.set()

    async def run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_s)
                # Under load every request kicks: gather a few before one read and one write.
                await asyncio.sleep(self.gather_s)
            self._wake.clear()
            try:
                await self.drain()
            except Exception:  # the database may be restarting: try again at the next poll
                log.warning("outbox relay could not drain", exc_info=True)

    async def drain(self) -> int:
        """Deliver every due row; the number delivered. Stops early when the queue fails."""
        delivered_total = 0
        async with self._lock:
            while True:
                async with self.sessionmaker() as session:
                    now = utcnow()
                    lease = now + timedelta(seconds=self.lease_s)
                    due = await OutboxRepository(session).claim_due(now, self.batch, lease)
                    await session.commit()  # end the claim before the queue calls
                if not due:
                    return delivered_total
                delivered: list[int] = []
                failure: tuple[int, int, str] | None = None
                for message_id, task, args, job_id, attempts in due:
                    try:
                        await asyncio.wait_for(
                            self.queue.enqueue(task, *args, job_id=job_id), self.enqueue_timeout_s
                        )
                    except Exception as exc:
                        failure = (message_id, attempts + 1, repr(exc))
                        break  # the queue is down: leave the rest for later, in order
                    delivered.append(message_id)
                async with self.sessionmaker() as session:
                    outbox = OutboxRepository(session)
                    await outbox.mark_delivered(delivered, utcnow())
                    if failure is not None:
                        message_id, attempts, error = failure
                        delay = min(self.max_backoff_s, 0.5 * 2**attempts)
                        await outbox.postpone(
                            message_id,
                            attempts=attempts,
                            available_at=utcnow() + timedelta(seconds=delay),
                            error=error,
                        )
                        untried = [row[0] for row in due if row[0] not in delivered]
                        await outbox.release([i for i in untried if i != message_id], utcnow())
                    await session.commit()
                delivered_total += len(delivered)
                if failure is not None:
                    log.warning("queue unavailable; %d job(s) wait in the outbox", len(due))
                    return delivered_total
                if len(due) < self.batch:
                    return delivered_total
