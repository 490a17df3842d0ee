"""Progress events of scans (the SSE stream) and the inputs of queued scans."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Scan, ScanEvent, ScanInput


class ScanEventRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def next_seq(self, scan_id: uuid.UUID) -> int:
        last = await self.session.scalar(
            select(func.max(ScanEvent.seq)).where(ScanEvent.scan_id == scan_id)
        )
        return (last or 0) + 1

    def add(self, scan_id: uuid.UUID, seq: int, kind: str, data: dict[str, Any]) -> None:
        self.session.add(ScanEvent(scan_id=scan_id, seq=seq, kind=kind, data=data))

    async def final_seq(self, scan_id: uuid.UUID, kinds: tuple[str, ...]) -> int | None:
        return await self.session.scalar(
            select(func.min(ScanEvent.seq)).where(
                ScanEvent.scan_id == scan_id, ScanEvent.kind.in_(kinds)
            )
        )

    async def after(self, scan_id: uuid.UUID, seq: int, limit: int = 100) -> list[ScanEvent]:
        return list(
            await self.session.scalars(
                select(ScanEvent)
                .where(ScanEvent.scan_id == scan_id, ScanEvent.seq > seq)
                .order_by(ScanEvent.seq)
                .limit(limit)
            )
        )


class ScanInputRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def add(self, scan_input: ScanInput) -> None:
        self.session.add(scan_input)

    async def get(self, scan_id: uuid.UUID) -> ScanInput | None:
        return await self.session.get(ScanInput, scan_id)

    async def delete(self, scan_id: uuid.UUID) -> None:
        await self.session.execute(delete(ScanInput).where(ScanInput.scan_id == scan_id))

    async def pending_scan_ids(self) -> list[uuid.UUID]:
        """Queued scans whose input is still stored (not yet processed)."""
        return list(await self.session.scalars(select(ScanInput.scan_id)))

    async def stuck_scan_ids(self, stored_before: datetime, limit: int = 500) -> list[uuid.UUID]:
        """Scans still queued or running whose input was stored before `stored_before`:
        their job should have finished long ago (it was lost, or its worker died)."""
        return list(
            await self.session.scalars(
                select(ScanInput.scan_id)
                .join(Scan, Scan.id == ScanInput.scan_id)
                .where(Scan.state.in_(("queued", "running")), ScanInput.created_at < stored_before)
                .order_by(ScanInput.created_at)
                .limit(limit)
            )
        )
