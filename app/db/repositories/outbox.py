"""The outbox: jobs staged with the rows they are about, delivered to the queue later."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import OutboxMessage
from app.db.session import add_unless_taken
from app.db.transaction import note_staged

# A row's n-th redelivery runs as queue job `<job_id>@<n>`: arq keeps a finished job's result
# (and refuses its id) for an hour, so a job lost or failed must come back under a new id.
DELIVERY_SEPARATOR = "@"


class DueJob(NamedTuple):
    id: int
    task: str
    args: list[Any]
    job_id: str
    attempts: int
    deliveries: int
    delivered: bool  # handed to the queue before (this is a redelivery)

    @property
    def queue_job_id(self) -> str:
        """The queue's id for this delivery."""
        return delivery_job_id(self.job_id, self.deliveries)

    @property
    def last_queue_job_id(self) -> str:
        return delivery_job_id(self.job_id, max(0, self.deliveries - 1))


def delivery_job_id(job_id: str, delivery: int) -> str:
    return job_id if delivery == 0 else f"{job_id}{DELIVERY_SEPARATOR}{delivery}"


def outbox_job_id(queue_job_id: str) -> str:
    """The outbox row's job id of a queue job id (any delivery, or a sweep)."""
    return queue_job_id.split(DELIVERY_SEPARATOR, 1)[0]


class OutboxRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def stage(
        self, task: str, args: Sequence[Any], job_id: str, *, available_at: datetime | None = None
    ) -> None:
        """`available_at`: not delivered before then (a backstop; default: at once)."""
        (message,) = self.messages([(task, args, job_id)])
        if available_at is not None:
            message.available_at = available_at
        self.session.add(message)

    def messages(self, jobs: Sequence[tuple[str, Sequence[Any], str]]) -> list[OutboxMessage]:
        """Outbox rows for (task, args, job id), for the caller to write with the rows they are
        about (`stage` adds one to the session)."""
        # The transaction owner wakes the relay after commit only when something was staged.
        note_staged(self.session)
        return [OutboxMessage(task=t, args=list(a), job_id=j) for t, a, j in jobs]

    async def stage_once(self, task: str, args: Sequence[Any], job_id: str) -> bool:
        """Stage unless a job with this id was ever staged (job ids are unique)."""
        return await add_unless_taken(self.session, *self.messages([(task, args, job_id)]))

    async def due(self, now: datetime, limit: int) -> list[OutboxMessage]:
        return list(
            await self.session.scalars(
                select(OutboxMessage)
                .where(OutboxMessage.delivered_at.is_(None), OutboxMessage.available_at <= now)
                .order_by(OutboxMessage.id)
                .limit(limit)
            )
        )

    async def claim_due(
        self, now: datetime, limit: int, lease_until: datetime, redeliver_before: datetime
    ) -> list[DueJob]:
        """Take the due rows for this relay: never delivered, or delivered before
        `redeliver_before` and still not completed (the job was lost, or its tries ran out
        while the database was away). Each is hidden from the other server processes' relays
        until `lease_until` (so it is handed out once, and again after the lease if this
        process dies first). Locked rows are skipped on Postgres; SQLite has one writer."""
        m = OutboxMessage
        due = (
            select(m.id)
            .where(
                m.available_at <= now,
                or_(
                    m.delivered_at.is_(None),
                    and_(m.completed_at.is_(None), m.delivered_at < redeliver_before),
                ),
            )
            .order_by(m.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        rows = await self.session.execute(
            update(m)
            .where(m.id.in_(due.scalar_subquery()))
            .values(available_at=lease_until)
            .returning(m.id, m.task, m.args, m.job_id, m.attempts, m.deliveries, m.delivered_at)
        )
        return sorted(
            DueJob(r[0], r[1], list(r[2] or []), r[3], r[4], r[5], r[6] is not None) for r in rows
        )

    async def release(self, ids: Sequence[int], now: datetime) -> None:
        """Claimed rows this relay did not get to: due again at once."""
        if ids:
            await self.session.execute(
                update(OutboxMessage).where(OutboxMessage.id.in_(ids)).values(available_at=now)
            )

    async def mark_delivered(self, ids: Sequence[int], now: datetime) -> None:
        """Handed to the queue (once more): the redelivery lease starts now."""
        if ids:
            await self.session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id.in_(ids))
                .values(delivered_at=now, available_at=now, deliveries=OutboxMessage.deliveries + 1)
            )

    async def still_queued(self, ids: Sequence[int], now: datetime) -> None:
        """The queue still holds their job (a backlog, a deferred retry): a new lease, no new
        delivery."""
        if ids:
            await self.session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id.in_(ids))
                .values(delivered_at=now, available_at=now)
            )

    async def outstanding(self, job_ids: Sequence[str]) -> set[str]:
        """Those of `job_ids` staged and not completed: the relay delivers them until they
        complete."""
        if not job_ids:
            return set()
        found = await self.session.scalars(
            select(OutboxMessage.job_id).where(
                OutboxMessage.job_id.in_(job_ids), OutboxMessage.completed_at.is_(None)
            )
        )
        return set(found)

    async def owes_jobs_about(self, ids: Sequence[str]) -> bool:
        """Whether a job about any of `ids` is staged and not completed. Follow-up jobs are
        staged as `<task>:<solution id>[:…]` (app/scans/service.py, app/worker/): while one is
        owed, the solution's badge or answer may still change."""
        if not ids:
            return False
        owed = await self.session.scalar(
            select(OutboxMessage.id)
            .where(
                OutboxMessage.completed_at.is_(None),
                or_(*(OutboxMessage.job_id.like(f"%:{id_}%") for id_ in ids)),
            )
            .limit(1)
        )
        return owed is not None

    async def is_completed(self, message_id: int) -> bool:
        completed = await self.session.scalar(
            select(OutboxMessage.completed_at).where(OutboxMessage.id == message_id)
        )
        return completed is not None

    async def mark_completed(self, job_id: str, now: datetime) -> None:
        """The job's task finished: the row is done for good."""
        await self.session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.job_id == job_id, OutboxMessage.completed_at.is_(None))
            .values(completed_at=now)
        )

    async def give_up(self, ids: Sequence[int], now: datetime, error: str) -> None:
        """Delivered too often without completing: kept for an operator, never run again."""
        if ids:
            await self.session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id.in_(ids))
                .values(completed_at=now, last_error=error[:1000])
            )

    async def postpone(
        self, message_id: int, *, attempts: int, available_at: datetime, error: str
    ) -> None:
        await self.session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == message_id)
            .values(attempts=attempts, available_at=available_at, last_error=error[:1000])
        )

    async def backlog(self) -> tuple[int, datetime | None]:
        """Rows not yet handed to the queue (/metrics): how many, and the oldest one's
        staging time (None when there are none)."""
        row = (
            await self.session.execute(
                select(func.count(), func.min(OutboxMessage.created_at)).where(
                    OutboxMessage.delivered_at.is_(None)
                )
            )
        ).one()
        return int(row[0]), row[1]
