"""Deliver staged jobs from the outbox table to the queue.

Rows are claimed in one short transaction (leased, so the relays of several server processes
never hand out the same row together) and marked in another, with the queue calls in between
and no transaction open (SQLite cannot upgrade a read snapshot after another commit). Delivery
is at least once; job ids make a second delivery a no-op in either queue, and every task is
idempotent besides.

Delivery is acknowledged by completion, not by enqueue: the job marks its row completed when
its task finished (app/worker/queue.py). A row delivered `redeliver_after_s` ago and still not
completed is delivered again, as `<job_id>@<n>` (arq keeps the id of a finished or failed job
for an hour), unless the queue still holds its last delivery (a backlog, a deferred retry):
a Redis restarted without its data, a worker killed mid-job, or a job whose tries a database
outage used up all end in the job running again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models._columns import utcnow
from app.db.repositories.outbox import DueJob, OutboxRepository
from app.db.transaction import reading, transaction
from app.outage import Outage
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
        redeliver_after_s: float = 360.0,
        max_deliveries: int = 20,
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
        self.redeliver_after_s = redeliver_after_s
        self.max_deliveries = max_deliveries
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        # An outage is logged when it starts and when it ends, not at every poll.
        self._queue_outage = Outage(
            log,
            down="queue unavailable; jobs wait in the outbox",
            back="queue reachable again; the outbox delivers what waited",
        )
        self._database_outage = Outage(
            log,
            down=f"outbox relay cannot reach the database; retrying every {poll_s:.0f} s",
            back="outbox relay reaches the database again",
        )

    @classmethod
    def from_settings(
        cls, sessionmaker: async_sessionmaker[AsyncSession], queue: TaskQueue, jobs: JobSettings
    ) -> OutboxRelay:
        return cls(
            sessionmaker,
            queue,
            poll_s=jobs.outbox_poll_s,
            max_backoff_s=jobs.outbox_max_backoff_s,
            redeliver_after_s=jobs.redeliver_after_s,
            max_deliveries=jobs.max_deliveries,
        )

    def kick(self) -> None:
        """New rows were committed: deliver them now rather than at the next poll."""
        self._wake.set()

    async def run(self) -> None:
        while True:
            # asyncio.timeout, never wait_for: on Python 3.11 wait_for swallows a cancellation
            # that lands in the tick its wait ends (CPython gh-86296) — a request's kick as the
            # server shuts down — and the relay then outlived the server's shutdown for good.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll_s):
                    await self._wake.wait()
                # Under load every request kicks: gather a few before one read and one write.
                await asyncio.sleep(self.gather_s)
            self._wake.clear()
            try:
                await self.drain()
            except Exception as exc:  # the database may be restarting: try at the next poll
                self._database_outage.failed(exc)
            else:
                self._database_outage.answered()

    async def drain(self) -> int:
        """Deliver every due row; the number delivered. Stops early when the queue fails."""
        delivered_total = 0
        async with self._lock:
            while True:
                # The claim is its own transaction, ended before the queue calls.
                async with transaction(self.sessionmaker) as session:
                    now = utcnow()
                    lease = now + timedelta(seconds=self.lease_s)
                    redeliver_before = now - timedelta(seconds=self.redeliver_after_s)
                    due = await OutboxRepository(session).claim_due(
                        now, self.batch, lease, redeliver_before
                    )
                if not due:
                    return delivered_total
                delivered: list[int] = []
                queued: list[int] = []  # redeliveries the queue still holds
                given_up: list[int] = []
                failure: tuple[int, int, Exception] | None = None
                for job in due:
                    try:
                        async with asyncio.timeout(self.enqueue_timeout_s):
                            outcome = await self._deliver(job)
                    except Exception as exc:
                        failure = (job.id, job.attempts + 1, exc)
                        break  # the queue is down: leave the rest for later, in order
                    if outcome != "completed":
                        {"delivered": delivered, "queued": queued, "given_up": given_up}[
                            outcome
                        ].append(job.id)
                    else:
                        queued.append(job.id)  # (a completed row is never claimed again)
                async with transaction(self.sessionmaker) as session:
                    outbox = OutboxRepository(session)
                    await outbox.mark_delivered(delivered, utcnow())
                    await outbox.still_queued(queued, utcnow())
                    await outbox.give_up(
                        given_up, utcnow(), f"not completed after {self.max_deliveries} deliveries"
                    )
                    if failure is not None:
                        message_id, attempts, error = failure
                        delay = min(self.max_backoff_s, 0.5 * 2**attempts)
                        await outbox.postpone(
                            message_id,
                            attempts=attempts,
                            available_at=utcnow() + timedelta(seconds=delay),
                            error=repr(error),
                        )
                        done = {*delivered, *queued, *given_up, message_id}
                        await outbox.release([j.id for j in due if j.id not in done], utcnow())
                delivered_total += len(delivered)
                if failure is not None:
                    self._queue_outage.failed(failure[2])
                    return delivered_total
                if delivered:  # an enqueue went through: the queue is back
                    self._queue_outage.answered()
                if len(due) < self.batch:
                    return delivered_total

    async def _deliver(self, job: DueJob) -> str:
        """Hand one row's job to the queue: "delivered", "queued" (the queue still holds its
        last delivery), "completed" (it finished since the claim) or "given_up" (delivered
        max_deliveries times, never completed)."""
        if job.delivered:
            if job.deliveries >= self.max_deliveries:
                log.error(
                    "job %s was delivered %d times and never completed; giving up on it",
                    job.job_id,
                    job.deliveries,
                )
                return "given_up"
            if await self.queue.is_pending(job.last_queue_job_id):
                return "queued"
            # A job acknowledges before the queue records it finished: read again after
            # asking the queue, or a job that just completed would run twice.
            async with reading(self.sessionmaker) as session:
                if await OutboxRepository(session).is_completed(job.id):
                    return "completed"
            log.warning("job %s did not complete; delivering it again", job.job_id)
        await self.queue.enqueue(job.task, *job.args, job_id=job.queue_job_id)
        return "delivered"
