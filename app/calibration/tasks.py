"""The periodic refit, a background task (`recalibrate`): the calibrator and its precision
threshold, then the engineered verifier sets per subject."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from app.calibration.data import labelled_outcomes_from
from app.solutions.followups.engineering import engineer_verifier_sets
from app.verification.outcomes import fit_with_promise
from app.worker.context import job_context


async def recalibrate(ctx: dict[str, Any], min_samples: int = 50) -> str:
    """The periodic refit: the calibrator, then the engineered verifier sets per subject
    (app/solutions/followups/engineering.py), each from the outcomes labelled so far."""
    calibrated = await _refit_calibrator(ctx, min_samples)
    return f"{calibrated}; {await engineer_verifier_sets(job_context(ctx))}"


async def _refit_calibrator(ctx: dict[str, Any], min_samples: int) -> str:
    """Refit the calibrator and its precision threshold on the labelled outcomes (proofs,
    ground-truth matches, tier-2 agreement, credible spot checks), periodically."""
    jobs = job_context(ctx)
    verify = jobs.settings.verify
    path = verify.calibration_path
    if path is None:
        return "skipped: calibration is switched off (no calibration_path)"
    async with jobs.reading() as session:
        outcomes = await labelled_outcomes_from(session)
    if len(outcomes) < min_samples or len({o.correct for o in outcomes}) < 2:
        return f"skipped: {len(outcomes)} validated outcomes (need {min_samples}, both outcomes)"
    # Seconds of numpy on a large ledger: off the worker's event loop, which runs other jobs.
    model = await asyncio.to_thread(
        fit_with_promise,
        outcomes,
        target=verify.target_precision,
        delta=verify.precision_delta,
        holdout_fraction=verify.calibration_holdout_fraction,
        fitted_at=datetime.now(UTC).isoformat(),
    )
    model.save(path)
    threshold = "none" if model.threshold is None else f"{model.threshold:.3f}"
    return (
        f"fitted on {len(outcomes)}: ece {model.ece:.3f}, brier {model.brier:.3f}, "
        f"threshold {threshold} on {model.evidence} held out → {path}"
    )
