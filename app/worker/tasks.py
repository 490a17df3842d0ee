"""Background tasks, arq-style: `async def task(ctx, ...)`; `job_context(ctx)` carries the
clients (app.worker.context), whichever queue runs the job."""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from app.analytics.calibration_data import labelled_outcomes_from
from app.db.documents import DeepEvaluation
from app.db.repositories.scans import ScanRepository
from app.llm.errors import BudgetExhausted
from app.llm.structured import extract_json
from app.pipeline.prompts import deep_evaluate as prompts
from app.services.scan_jobs import run_queued_scan
from app.verification.outcomes import fit_with_promise
from app.worker.checks import consensus_check
from app.worker.context import job_context
from app.worker.engineering import engineer_verifier_sets
from app.worker.mars import mars_second_chance
from app.worker.queue import RetryLater, Task
from app.worker.spot_check import spot_check

log = logging.getLogger(__name__)

DIMENSIONS = ("correctness", "completeness", "clarity", "pedagogy", "format")
EVALUATE_TIMEOUT_S = 120.0


def overall(scores: dict[str, float], weights: dict[str, float]) -> float:
    total = sum(weights[d] for d in DIMENSIONS)
    return round(sum(scores[d] * weights[d] for d in DIMENSIONS) / total, 4)


async def deep_evaluate(ctx: dict[str, Any], solution_id: str) -> str:
    """Score a stored solution on the evaluation dimensions (DIMENSIONS) and store it once."""
    jobs = job_context(ctx)
    registry = jobs.registry
    async with jobs.transaction() as session:
        repo = ScanRepository(session)
        solution = await repo.get_solution(uuid.UUID(solution_id))
        await session.commit()  # no read transaction held across the model call (see checks.py)
        if solution is None:
            return "missing"
        if solution.deep_evaluation is not None:
            return "already evaluated"
        if solution.final_answer is None:
            return "skipped: no answer to evaluate"
        evaluators = [
            n for n in registry.route(solution.scan.subject, "evaluate") if n != solution.provider
        ] or registry.route("*", "evaluate")
        if not evaluators:
            log.info("deep_evaluate %s skipped: no evaluate-tier provider configured", solution_id)
            return "skipped: no evaluate-tier provider configured"
        client = registry.get(evaluators[0], "evaluate")
        messages = prompts.build(
            solution.scan.problem_text,
            solution.final_answer,
            solution.steps,
            solution.scan.language,
        )
        try:
            response = await client.generate(
                messages,
                json_schema=DeepEvaluation.model_json_schema(),
                timeout=EVALUATE_TIMEOUT_S,
                max_tokens=1024,
            )
            data = response.data or extract_json(response.text) or {}
            scores = {d: float(data[d]) for d in DIMENSIONS}
            evaluation = DeepEvaluation(
                **scores,
                overall=overall(scores, jobs.settings.worker.dimension_weights),
                improvement_suggestions=data.get("improvement_suggestions"),
                better_approach=data.get("better_approach"),
                provider=response.provider,
                model=response.model,
            )
        except BudgetExhausted as exc:
            # design-notes §9: over the free-tier budget the evaluation waits for the budget to
            # reset (the next UTC day for a daily limit). It is queued again for that moment, as
            # a new job, so deferrals never use up this job's retries and nothing is dropped.
            when = exc.resets_at
            await jobs.queue.enqueue(
                "deep_evaluate",
                solution_id,
                defer_until=when,
                job_id=f"deep_evaluate:{solution_id}:{when:%Y%m%d%H%M}",
            )
            log.info("deep_evaluate %s deferred to %s: %s", solution_id, when.isoformat(), exc)
            return f"deferred until {when.isoformat()}"
        except (KeyError, TypeError, ValueError, ValidationError) as exc:
            # A reply we cannot read is tried again; it is never stored half-parsed.
            raise RetryLater(f"unreadable evaluation from {client.provider}: {exc}") from exc
        stored = await repo.set_deep_evaluation(solution.id, evaluation)
    return "stored" if stored else "already evaluated"


async def recalibrate(ctx: dict[str, Any], min_samples: int = 50) -> str:
    """The periodic refit: the calibrator, then the engineered verifier sets per subject
    (app/worker/engineering.py), each from the outcomes labelled so far."""
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
    model = fit_with_promise(
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


async def run_scan(ctx: dict[str, Any], scan_id: str) -> str:
    """Solve a scan queued by `POST /v1/scans` (Prefer: respond-async, or past the deadline)."""
    jobs = job_context(ctx)
    scans = jobs.scans
    if scans is None:
        raise RuntimeError("this job context runs no scans (built without open_job_context)")
    return await run_queued_scan(
        scans,
        scans.graph,
        scans.pipeline,
        jobs.sessionmaker,
        uuid.UUID(scan_id),
        wake_outbox=jobs.wake_outbox,
    )


TASKS: dict[str, Task] = {
    "run_scan": run_scan,
    "deep_evaluate": deep_evaluate,
    "consensus_check": consensus_check,
    "spot_check": spot_check,
    "recalibrate": recalibrate,
    "mars_second_chance": mars_second_chance,
}
