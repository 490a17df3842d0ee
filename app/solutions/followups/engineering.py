"""Verifier engineering in the service (design-notes, MAV): part of the recalibrate job.

From spot-check verdicts on answers a consensus check settled, pick per subject the aspect
subset whose selection is most often right (app/verification/bon_mav.py) and store it where
spot-check panels read it (app/verification/engineered_sets.py).
"""

from __future__ import annotations

from datetime import UTC, datetime

from app.settings import VerifySettings
from app.solutions.outcome_repository import spot_outcomes
from app.verification import engineered_sets
from app.verification.bon_mav import VerifierOutcome, engineer_per_subject
from app.worker.context import JobContext


async def engineer_verifier_sets(jobs: JobContext) -> str:
    verify = jobs.settings.verify
    path = verify.verifier_sets_file
    if path is None:
        return "verifier sets: skipped (no path)"
    async with jobs.reading() as session:
        rows = await spot_outcomes(session)
    outcomes = [
        VerifierOutcome(
            subject,
            correct,
            {engineered_sets.aspect_key(v): a for v, a in approvals.items()},
        )
        for subject, correct, approvals in rows
    ]
    sets = engineer_per_subject(outcomes, min_outcomes=verify.engineering_min_outcomes)
    if not sets:
        return (
            f"verifier sets: skipped ({len(outcomes)} labelled spot checks; a subject needs "
            f"{verify.engineering_min_outcomes}, right and wrong)"
        )
    engineered_sets.save(path, sets, datetime.now(UTC).isoformat())
    listing = ", ".join(
        f"{s} {len(e.verifiers)} verifiers {e.selection_accuracy:.2f} (all {e.all_accuracy:.2f})"
        for s, e in sets.items()
    )
    return f"verifier sets: {listing} → {path}"


def panel_keys(verify: VerifySettings, subject: str) -> list[str] | None:
    """The engineered subset for `subject`, when one has been stored."""
    path = verify.verifier_sets_file
    return engineered_sets.load(path).get(subject) if path is not None else None
