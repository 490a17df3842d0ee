"""Labelled outcomes for recalibration, from stored verdicts: proofs, ground-truth matches,
tier-2 agreement and credible spot checks (app/verification/outcomes.py says which count)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.calibration.repository import VerificationRepository
from app.verification.outcomes import LabelledOutcome, VerdictRow, labelled_outcomes


async def labelled_outcomes_from(session: AsyncSession) -> list[LabelledOutcome]:
    rows = await VerificationRepository(session).verdicts_with_answers()
    return labelled_outcomes(VerdictRow(**row) for row in rows)


async def labelled_signals(session: AsyncSession) -> tuple[list[dict[str, float]], list[bool]]:
    """(features, labels), one per solution with a credible label."""
    outcomes = await labelled_outcomes_from(session)
    return [o.features for o in outcomes], [o.correct for o in outcomes]
