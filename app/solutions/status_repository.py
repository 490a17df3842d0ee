"""Badge changes after the response: the solution's status and its `status_history`
(migration 0006 adds the column; the SSE `status_changed` events read it). Callers own the
transaction."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Solution

_READING_CODES = frozenset({"incomplete_reading", "readings_disagree", "no_answer"})


class StatusRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def change_status(
        self,
        solution_id: uuid.UUID,
        to: str,
        *,
        reason: str,
        evidence_ids: list[str],
        answer_before: str | None = None,
        confidence: float | None = None,
        calibrated: bool = False,
    ) -> bool:
        """Move the badge to `to` and append the change, with the answer and confidence it
        leaves, to `status_history` (row-locked on Postgres, so two checks finishing together
        both land). `confidence` (a calibrated P when `calibrated`) replaces the stored one, so
        the badge and its figure never disagree; None keeps it. A caller that replaced the
        answer passes `answer_before`: the change is recorded even when the badge stays.
        False: nothing changed."""
        solution = await self.session.scalar(
            select(Solution).where(Solution.id == solution_id).with_for_update()
        )
        if solution is None:
            return False
        new_answer = answer_before is not None and answer_before != solution.final_answer
        if solution.verification_status == to and not new_answer:
            return False
        if confidence is not None:
            solution.verification_confidence = confidence
            solution.confidence_calibrated = calibrated
        entry = {
            "at": datetime.now(UTC).isoformat(),
            "from": solution.verification_status,
            "to": to,
            "reason": reason,
            "evidence_ids": evidence_ids,
            "answer": solution.final_answer,
            "answer_changed": new_answer,
            "confidence": solution.verification_confidence,
        }
        solution.status_history = [*(solution.status_history or []), entry]  # reassign: tracked
        solution.verification_status = to
        if to != "verified":
            solution.caution_reason = reason
            # The student's reason follows the badge (a caution moved to unverified no longer
            # says the answer failed); a reading's own reason stays, the badge cannot undo it.
            if solution.caution_code not in _READING_CODES:
                solution.caution_code = "failed_verification" if to == "caution" else "not_verified"
        return True
