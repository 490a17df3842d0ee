"""The outbox: jobs staged with the rows they are about, delivered to the queue later."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import OutboxMessage

STAGED = "outbox_staged"


def staged_jobs(session: AsyncSession) -> bool:
    """Did this session stage outbox rows (so the relay has new work after the commit)?"""
    return bool(session.info.get(STAGED))


class OutboxRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def stage(self, task: str, args: Sequence[Any], job_id: str) -> None:
        self.session.add_all(self.messages([(task, args, job_id)]))

    def messages(self, jobs: Sequence[tuple[str, Sequence[Any], str]]) -> list[OutboxMessage]:
        """Outbox rows for (task, args, job id), for the caller to write with the rows they are
        about (`stage` adds one to the session)."""
        # The transaction owner wakes the relay after commit only when something was staged.
        self.session.info[STAGED] = True
        return [OutboxMessage(task=t, args=list(a), job_id=j) for t, a, j in jobs]

    async def stage_once(self, task: str, args: Sequence[Any], job_id: str) -> bool:
        """Stage unless a job with this id was ever staged (job ids are unique)."""
        found = await self.session.scalar(
            select(OutboxMessage.id).where(OutboxMessage.job_id == job_id)
        )
        if found is not None:
            return False
        self.stage(task, args, job_id)
        return True

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
        self, now: datetime, limit: int, lease_until: datetime
    ) -> list[tuple[int, str, list[Any], str, int]]:
        """Take the due rows for this relay: each is hidden from the other server processes'
        relays until `lease_until` (so it is delivered once, and again after the lease if this
        process dies first). Locked rows are skipped on Postgres; SQLite has one writer."""
        due = (
            select(OutboxMessage.id)
            .where(OutboxMessage.delivered_at.is_(None), OutboxMessage.available_at <= now)
            .order_by(OutboxMessage.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        rows = await self.session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id.in_(due.scalar_subquery()))
            .values(available_at=lease_until)
            .returning(
                OutboxMessage.id,
                OutboxMessage.task,
                OutboxMessage.args,
                OutboxMessage.job_id,
                OutboxMessage.attempts,
            )
        )
        return sorted((r[0], r[1], list(r[2] or []), r[3], r[4]) for r in rows)

    async def release(self, ids: Sequence[int], now: datetime) -> None:
        """Claimed rows this relay did not get to: due again at once."""
        if ids:
            await self.session.execute(
                update(OutboxMessage).where(OutboxMessage.id.in_(ids)).values(available_at=now)
            )

    async def mark_delivered(self, ids: Sequence[int], now: datetime) -> None:
        if ids:
            await self.session.execute(
                update(OutboxMessage).where(OutboxMessage.id.in_(ids)).values(delivered_at=now)
            )

    async def postpone(
        self, message_id: int, *, attempts: int, available_at: datetime, error: str
    ) -> None:
        await self.session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == message_id)
            .values(attempts=attempts, available_at=available_at, last_error=error[:1000])
        )
