"""Validated outcomes for recalibration: quick-verify signals, labelled by tier-2 consensus."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import VerificationRecord
from app.verification.calibration import signals


async def labelled_signals(session: AsyncSession) -> tuple[list[dict[str, float]], list[bool]]:
    """One row per solution whose answer a consensus check approved or rejected."""
    result = await session.execute(
        select(VerificationRecord).where(VerificationRecord.tier.in_(("quick", "consensus")))
    )
    quick: dict = defaultdict(list)
    label: dict = {}
    for record in result.scalars():
        if record.tier == "consensus" and record.verdict != "abstain":
            label[record.solution_id] = record.verdict == "approve"
        elif record.tier == "quick":
            quick[record.solution_id].append(record)
    rows, labels = [], []
    for solution_id, correct in label.items():
        records = quick.get(solution_id, [])
        returned = max((r.attempt for r in records), default=0)  # the attempt that was returned
        verdicts = [v for v in records if v.attempt == returned]
        programmatic = next((v.verdict for v in verdicts if v.method == "programmatic"), None)
        model = next((v.score for v in verdicts if v.method == "llm" and v.score is not None), None)
        approvals = {
            v.verifier_id: None if v.verdict == "abstain" else v.verdict == "approve"
            for v in verdicts
        }
        rows.append(signals(approvals=approvals, programmatic=programmatic, quick_confidence=model))
        labels.append(correct)
    return rows, labels
