"""The daily recalibration is an outbox job: staged once per day whoever asks, delivered and
acknowledged like every job (no arq cron that an outage could skip)."""

from __future__ import annotations

import asyncio
import uuid

from sqlalchemy import select

from app.calibration.upkeep import stage_daily_recalibration
from app.db.models import OutboxMessage
from app.resources import Resources, unit_of_work


async def test_staged_once_a_day_and_completed(services: Resources) -> None:
    day = f"test-{uuid.uuid4().hex}"  # not today's: the app's own upkeep staged that one
    # Each in its own transaction, as the upkeep loop stages it (committed, the relay woken).
    async with unit_of_work(services) as session:
        assert await stage_daily_recalibration(session, day) is True
    async with unit_of_work(services) as session:  # another process, a restart
        assert await stage_daily_recalibration(session, day) is False

    job_id = f"recalibrate:{day}"
    for _ in range(100):
        async with services.sessionmaker() as session:
            rows = list(
                await session.scalars(select(OutboxMessage).where(OutboxMessage.job_id == job_id))
            )
        if rows[0].completed_at is not None:
            break
        await asyncio.sleep(0.1)
    assert len(rows) == 1
    assert rows[0].task == "recalibrate"
    assert rows[0].completed_at is not None  # ran on the in-process queue and acknowledged
