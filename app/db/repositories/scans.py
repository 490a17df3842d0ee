"""Queries for scans, solutions and their verifications. Callers own the transaction."""

from __future__ import annotations

import uuid

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from app.db.models import Scan, Solution, VerificationRecord
from app.schemas.evaluation import DeepEvaluation


class ScanRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def add_all(
        self, scan: Scan, solution: Solution, verifications: list[VerificationRecord]
    ) -> None:
        """Stage a whole submission; one flush/commit writes it in a single round of INSERTs."""
        self.session.add_all([scan, solution, *verifications])

    async def get_scan(self, scan_id: uuid.UUID) -> Scan | None:
        return await self.session.scalar(
            select(Scan).where(Scan.id == scan_id).options(selectinload(Scan.solutions))
        )

    async def get_solution(
        self, solution_id: uuid.UUID, *, with_scan: bool = True
    ) -> Solution | None:
        options = [selectinload(Solution.verifications)]
        if with_scan:
            options.append(selectinload(Solution.scan))
        return await self.session.scalar(
            select(Solution).where(Solution.id == solution_id).options(*options)
        )

    async def set_deep_evaluation(self, solution_id: uuid.UUID, evaluation: DeepEvaluation) -> bool:
        """Store an evaluation once: a second delivery of the same job changes nothing."""
        result = await self.session.execute(
            update(Solution)
            .where(Solution.id == solution_id, Solution.deep_evaluation.is_(None))
            .values(deep_evaluation=evaluation)
        )
        return result.rowcount == 1  # type: ignore[attr-defined]
