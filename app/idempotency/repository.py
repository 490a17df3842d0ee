"""Idempotency keys: claimed by inserting (unique per tenant), completed with the response."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import IdempotencyKey
from app.db.models._columns import utcnow
from app.db.session import add_unless_taken


class IdempotencyRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def claim(self, tenant: str, key: str, route: str, request_hash: str) -> bool:
        """Insert the key; False when another request holds it already."""
        row = IdempotencyKey(tenant=tenant, key=key, route=route, request_hash=request_hash)
        return await add_unless_taken(self.session, row)

    async def get(self, tenant: str, key: str) -> IdempotencyKey | None:
        return await self.session.scalar(
            select(IdempotencyKey)
            .where(IdempotencyKey.tenant == tenant, IdempotencyKey.key == key)
            .execution_options(populate_existing=True)
        )

    async def complete(
        self, tenant: str, key: str, status: int, body: Any, headers: dict[str, str]
    ) -> None:
        await self.session.execute(
            update(IdempotencyKey)
            .where(IdempotencyKey.tenant == tenant, IdempotencyKey.key == key)
            .values(
                completed_at=utcnow(),
                status_code=status,
                response_body=body,
                response_headers=headers,
            )
        )

    async def release(self, tenant: str, key: str) -> None:
        await self.session.execute(
            delete(IdempotencyKey).where(IdempotencyKey.tenant == tenant, IdempotencyKey.key == key)
        )

    async def delete_older_than(
        self, tenant: str, key: str, cutoff: datetime, *, unfinished_before: datetime
    ) -> None:
        """Forget the key if it expired (`cutoff`), or if it is a claim taken before
        `unfinished_before` that never completed (its request died with it)."""
        await self.session.execute(
            delete(IdempotencyKey).where(
                IdempotencyKey.tenant == tenant,
                IdempotencyKey.key == key,
                or_(
                    IdempotencyKey.created_at < cutoff,
                    and_(
                        IdempotencyKey.completed_at.is_(None),
                        IdempotencyKey.created_at < unfinished_before,
                    ),
                ),
            )
        )

    async def forget_scan(self, tenant: str, scan_id: uuid.UUID) -> None:
        """Erase the stored responses (and the request fingerprints) of the keys that created
        `scan_id`: a replay must not bring an erased scan's text back."""
        await self.session.execute(
            delete(IdempotencyKey).where(
                IdempotencyKey.tenant == tenant,
                IdempotencyKey.response_body["scan_id"].as_string() == str(scan_id),
            )
        )
