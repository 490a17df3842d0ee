"""API keys. Callers own the transaction."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.keys import NewKey, Role
from app.db.models import ApiKey
from app.db.models._columns import utcnow
from app.db.repositories.rows import rows_changed


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

    async def any_active(self) -> bool:
        found = await self.session.scalar(
            select(ApiKey.id).where(ApiKey.revoked_at.is_(None)).limit(1)
        )
        return found is not None

    async def revoke(self, key_id: str) -> bool:
        revoked = await rows_changed(
            self.session,
            update(ApiKey)
            .where(ApiKey.id == key_id, ApiKey.revoked_at.is_(None))
            .values(revoked_at=utcnow()),
        )
        return revoked == 1

    async def list(self) -> list[ApiKey]:
        return list(await self.session.scalars(select(ApiKey).order_by(ApiKey.created_at)))
