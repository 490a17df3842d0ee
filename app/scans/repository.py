"""Queries for scans, solutions and their verifications. Callers own the transaction."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload
from sqlalchemy.sql.elements import ColumnElement

from app.db.base import Base
from app.db.documents import DeepEvaluation
from app.db.models import Scan, ScanEvent, ScanInput, Solution, VerificationRecord
from app.db.repositories.bulk import insert_new
from app.db.repositories.rows import rows_changed
from app.idempotency.repository import IdempotencyRepository


@dataclass(frozen=True, slots=True)
class SolutionState:
    id: uuid.UUID
    history: list[dict[str, Any]]
    verification_status: str
    final_answer: str | None
    verification_confidence: float | None


class ScanRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def insert_new(self, rows: Sequence[Base]) -> None:
        """Write a submission's new rows (scan, solution, verdicts, events, outbox jobs, in
        that order) with one INSERT per table."""
        await insert_new(self.session, rows)

    async def get_scan(
        self, scan_id: uuid.UUID, tenant: str | None, *, user_id: str | None = None
    ) -> Scan | None:
        """The scan, if it belongs to `tenant` (None: scans made without a key) and, when
        `user_id` is given (a student token's user), to that user."""
        return await self.session.scalar(
            select(Scan)
            .where(Scan.id == scan_id, _owned(tenant, user_id))
            .options(selectinload(Scan.solutions))
        )

    async def scan_owner(
        self, scan_id: uuid.UUID, tenant: str | None
    ) -> tuple[str, str | None] | None:
        """(source, user_id) of the tenant's scan, or None when the tenant has no such scan."""
        row = (
            await self.session.execute(
                select(Scan.source, Scan.user_id).where(Scan.id == scan_id, _of_tenant(tenant))
            )
        ).first()
        return None if row is None else (row[0], row[1])

    async def get_any_scan(self, scan_id: uuid.UUID) -> Scan | None:
        """The scan whoever's it is (background jobs act for the system)."""
        return await self.session.scalar(
            select(Scan)
            .where(Scan.id == scan_id)
            .options(selectinload(Scan.solutions))
            .execution_options(populate_existing=True)
        )

    async def list_scans(
        self,
        tenant: str | None,
        *,
        user_id: str | None,
        limit: int,
        before: tuple[datetime, uuid.UUID] | None,
    ) -> list[Scan]:
        """Newest first, keyset-paginated on (created_at, id): stable while rows are added."""
        query = select(Scan).where(_of_tenant(tenant))
        if user_id is not None:
            query = query.where(Scan.user_id == user_id)
        if before is not None:
            created_at, scan_id = before
            query = query.where(
                or_(
                    Scan.created_at < created_at,
                    and_(Scan.created_at == created_at, Scan.id < scan_id),
                )
            )
        return list(
            await self.session.scalars(
                query.order_by(Scan.created_at.desc(), Scan.id.desc())
                .limit(limit)
                .options(selectinload(Scan.solutions))
            )
        )

    async def erase_scan(
        self, scan_id: uuid.UUID, tenant: str | None, *, user_id: str | None = None
    ) -> bool:
        """Delete the scan with everything about it; explicit deletes, so SQLite without
        foreign keys (or a missed cascade) cannot leave a student's data behind. Writes come
        first, each restricted to the tenant's scan (and `user_id`'s, when given): on SQLite a
        read that later writes fails at once ("database is locked") if another connection
        committed in between."""
        owned_scan = and_(Scan.id == scan_id, _owned(tenant, user_id))
        owned = select(Scan.id).where(owned_scan)
        solution_ids = select(Solution.id).where(Solution.scan_id.in_(owned))
        await self.session.execute(
            delete(VerificationRecord).where(VerificationRecord.solution_id.in_(solution_ids))
        )
        for table in (Solution, ScanEvent, ScanInput):
            await self.session.execute(delete(table).where(table.scan_id.in_(owned)))
        # A text scan that corrected this one keeps its own data, not the reference (SQLite
        # has no foreign key for it: migration 0009).
        await self.session.execute(
            update(Scan).where(Scan.corrects_scan_id.in_(owned)).values(corrects_scan_id=None)
        )
        if await rows_changed(self.session, delete(Scan).where(owned_scan)) != 1:
            return False
        # The stored first response of an Idempotency-Key holds the problem text too.
        # ("" is the open mode's tenant there, as in app/idempotency/service.py.)
        await IdempotencyRepository(self.session).forget_scan(tenant or "", scan_id)
        return True

    async def set_state(
        self, scan_id: uuid.UUID, state: str, failure_code: str | None = None
    ) -> None:
        await self.session.execute(
            update(Scan)
            .where(Scan.id == scan_id)
            .values(state=state, failure_code=failure_code, updated_at=func.now())
        )

    async def solution_states(self, scan_id: uuid.UUID) -> list[SolutionState]:
        """Each solution's badge, answer, confidence and later changes (the event stream)."""
        rows = await self.session.execute(
            select(
                Solution.id,
                Solution.status_history,
                Solution.verification_status,
                Solution.final_answer,
                Solution.verification_confidence,
            ).where(Solution.scan_id == scan_id)
        )
        return [SolutionState(row[0], list(row[1] or []), row[2], row[3], row[4]) for row in rows]

    async def scan_exists(self, scan_id: uuid.UUID) -> bool:
        return await self.session.scalar(select(Scan.id).where(Scan.id == scan_id)) is not None

    async def solution_exists(self, solution_id: uuid.UUID) -> bool:
        found = await self.session.scalar(select(Solution.id).where(Solution.id == solution_id))
        return found is not None

    async def get_solution(self, solution_id: uuid.UUID) -> Solution | None:
        """The solution with its scan and every verdict, in one round trip per relation,
        whoever's it is (background jobs act for the system, not for a tenant)."""
        return await self.session.scalar(_solution_query(solution_id))

    async def get_tenant_solution(
        self, solution_id: uuid.UUID, tenant: str | None, *, user_id: str | None = None
    ) -> Solution | None:
        """The solution, if its scan belongs to `tenant` (None: scans made without a key) and,
        when `user_id` is given, to that user."""
        return await self.session.scalar(
            _solution_query(solution_id).join(Solution.scan).where(_owned(tenant, user_id))
        )

    async def has_verifications(self, solution_id: uuid.UUID, tier: str) -> bool:
        found = await self.session.scalar(
            select(VerificationRecord.id)
            .where(VerificationRecord.solution_id == solution_id, VerificationRecord.tier == tier)
            .limit(1)
        )
        return found is not None

    async def claim_tier(self, solution_id: uuid.UUID, tier: str) -> bool:
        """Take the solution's row for writing and say whether `tier`'s verdicts are still
        unwritten: of two overlapping runs of one check (a redelivery while the first still
        ran), only one writes them and moves fitness. A no-op UPDATE, not SELECT … FOR
        UPDATE: it also takes SQLite's write lock, so the check below sees the other's rows."""
        await self.session.execute(
            update(Solution).where(Solution.id == solution_id).values(attempts=Solution.attempts)
        )
        return not await self.has_verifications(solution_id, tier)

    def add_verifications(self, rows: list[VerificationRecord]) -> None:
        self.session.add_all(rows)

    async def provider_result_count(self, provider: str | None) -> int:
        if provider is None:
            return 0
        return (
            await self.session.scalar(
                select(func.count()).select_from(Solution).where(Solution.provider == provider)
            )
            or 0
        )

    async def set_deep_evaluation(self, solution_id: uuid.UUID, evaluation: DeepEvaluation) -> bool:
        """Store an evaluation once: a second delivery of the same job changes nothing."""
        stored = await rows_changed(
            self.session,
            update(Solution)
            .where(Solution.id == solution_id, Solution.deep_evaluation.is_(None))
            .values(deep_evaluation=evaluation),
        )
        return stored == 1


def _of_tenant(tenant: str | None) -> ColumnElement[bool]:
    return Scan.tenant.is_(None) if tenant is None else Scan.tenant == tenant


def _owned(tenant: str | None, user_id: str | None) -> ColumnElement[bool]:
    """The tenant's scans, and only `user_id`'s when one is given (a student token)."""
    if user_id is None:
        return _of_tenant(tenant)
    return and_(_of_tenant(tenant), Scan.user_id == user_id)


def _solution_query(solution_id: uuid.UUID) -> Select[Solution]:
    return (
        select(Solution)
        .where(Solution.id == solution_id)
        .options(selectinload(Solution.verifications), selectinload(Solution.scan))
    )
