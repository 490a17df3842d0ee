"""Spot-check aspect verdicts on answers whose correctness a consensus check settled: the
labelled outcomes verifier engineering learns from (app/verification/bon_mav.py)."""

from __future__ import annotations

import uuid
from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Scan, Solution, VerificationRecord


async def spot_outcomes(
    session: AsyncSession,
) -> list[tuple[str, bool, dict[str, bool | None]]]:
    """(subject, correct, verifier id → approval or None for an abstention) per solution
    that has both spot-check verdicts and a decisive consensus verdict."""
    rows = await session.execute(
        select(
            VerificationRecord.solution_id,
            VerificationRecord.tier,
            VerificationRecord.verifier_id,
            VerificationRecord.verdict,
            Scan.subject,
        )
        .join(Solution, Solution.id == VerificationRecord.solution_id)
        .join(Scan, Scan.id == Solution.scan_id)
        .where(VerificationRecord.tier.in_(("spot", "consensus")))
    )
    approvals: dict[uuid.UUID, dict[str, bool | None]] = defaultdict(dict)
    labels: dict[uuid.UUID, bool] = {}
    subjects: dict[uuid.UUID, str] = {}
    for solution_id, tier, verifier_id, verdict, subject in rows:
        subjects[solution_id] = subject
        if tier == "consensus" and verdict != "abstain":
            labels[solution_id] = verdict == "approve"
        elif tier == "spot":
            approvals[solution_id][verifier_id] = (
                None if verdict == "abstain" else verdict == "approve"
            )
    return [
        (subjects[s], labels[s], approvals[s]) for s in sorted(labels, key=str) if approvals.get(s)
    ]
