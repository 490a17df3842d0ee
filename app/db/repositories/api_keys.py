"""API keys. Callers own the transaction."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.keys import NewKey, Role
from app.db.models import ApiKey
from app.db.models._columns import utcnow


class ApiKeyRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def add(self, key: NewKey, *, tenant: str, role: Role, label: str | None = None) -> ApiKey:
        row = ApiKey(id=key.id, tenant=tenant, role=role, key_hash=key.key_hash, label=label)
        self.session.add(row)
        return row

    async def get_active(self, key_id: str) -> ApiKey | None:
        return await self.session.scalar(
            select(ApiKey).where(ApiKey.id == key_id, ApiKey.revoked_at.is_(None))
        )

    async def revoke(self, key_id: str) -> bool:
        result = await self.session.execute(
            update(ApiKey)
            .where(ApiKey.id == key_id, ApiKey.revoked_at.is_(None))
            .values(revoked_at=utcnow())
        )
        return result.rowcount == 1  # type: ignore[attr-defined]  # an UPDATE: CursorResult

    async def list(self) -> list[ApiKey]:
        return list(await self.session.scalars(select(ApiKey).order_by(ApiKey.created_at)))
