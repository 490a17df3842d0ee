"""Stored checks of worked steps and their verdicts. Callers own the transaction."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy import and_, delete, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload
from sqlalchemy.sql.elements import ColumnElement

from app.db.models import Check, CheckVerdict
from app.db.repositories.bulk import insert_new
from app.db.repositories.rows import rows_changed


def _of_tenant(tenant: str | None) -> ColumnElement[bool]:
    return Check.tenant.is_(None) if tenant is None else Check.tenant == tenant


def _owned(tenant: str | None, user_id: str | None) -> ColumnElement[bool]:
    """The tenant's checks, and only `user_id`'s when one is given (a student token)."""
    if user_id is None:
        return _of_tenant(tenant)
    return and_(_of_tenant(tenant), Check.user_id == user_id)


class CheckRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, check: Check, verdicts: Sequence[CheckVerdict]) -> None:
        """The check, then its verdicts: one INSERT per table."""
        await insert_new(self.session, [check, *verdicts])

    async def get(
        self, check_id: uuid.UUID, tenant: str | None, *, user_id: str | None = None
    ) -> Check | None:
        """The check with its verdicts, if it belongs to `tenant` (None: the open mode's) and,
        when `user_id` is given, to that user."""
        return await self.session.scalar(
            select(Check)
            .where(Check.id == check_id, _owned(tenant, user_id))
            .options(selectinload(Check.verdicts))
        )

    async def erase(
        self, check_id: uuid.UUID, tenant: str | None, *, user_id: str | None = None
    ) -> bool:
        """Delete the check with its verdicts, if it is the tenant's (and `user_id`'s, when
        given). Explicit deletes, writes first, each restricted to the owned check (as
        ScanRepository.erase_scan)."""
        owned_check = and_(Check.id == check_id, _owned(tenant, user_id))
        owned = select(Check.id).where(owned_check)
        await self.session.execute(delete(CheckVerdict).where(CheckVerdict.check_id.in_(owned)))
        return await rows_changed(self.session, delete(Check).where(owned_check)) == 1
