"""Stored verdicts, read in bulk for recalibration (the labelled outcomes)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Scan, Solution, VerificationRecord

TIERS = ("quick", "consensus", "spot")


class VerificationRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def verdicts_with_answers(self) -> list[dict[str, Any]]:
        """Every verdict of every tier with its solution's returned answer (`final_answer`) and
        its problem's text (many students scan one homework problem: the promise's bound
        counts their outcomes as one problem's)."""
        result = await self.session.execute(
            select(
                VerificationRecord.solution_id,
                Solution.final_answer,
                VerificationRecord.tier,
                VerificationRecord.attempt,
                VerificationRecord.answer,
                VerificationRecord.method,
                VerificationRecord.verifier_id,
                VerificationRecord.verdict,
                VerificationRecord.score,
                Scan.problem_text,
            )
            .join(Solution, Solution.id == VerificationRecord.solution_id)
            .join(Scan, Scan.id == Solution.scan_id)
            .where(VerificationRecord.tier.in_(TIERS))
        )
        return [dict(row._mapping) for row in result]
