"""The deep evaluation of a stored solution, a background task (`deep_evaluate`): scored on
the evaluation dimensions by a model of the evaluate tier, stored once."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from pydantic import ValidationError

from app.db.documents import DeepEvaluation
from app.llm.errors import BudgetExhausted, ProviderError
from app.llm.structured import extract_json
from app.pipeline.prompts import deep_evaluate as prompts
from app.scans.repository import ScanRepository
from app.worker.context import job_context
from app.worker.job_signals import RetryLater

log = logging.getLogger(__name__)

DIMENSIONS = ("correctness", "completeness", "clarity", "pedagogy", "format")
EVALUATE_TIMEOUT_S = 120.0
UNREADABLE_TRIES = 3  # a model that answers unreadably three times is not asked again


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
        await session.commit()  # no read transaction held across the model call (see consensus.py)
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
        except ProviderError as exc:
            if not exc.retryable:
                raise
            # A provider down (its own retries spent): the job is tried again later, not
            # dropped (the queue's tries, then the outbox's redelivery).
            raise RetryLater(f"{client.provider} unavailable: {exc}", delay_s=30.0) from exc
        except (KeyError, TypeError, ValueError, ValidationError) as exc:
            # A reply we cannot read is tried again; it is never stored half-parsed. After
            # UNREADABLE_TRIES the evaluator abstains: the job ends (it was retried and
            # redelivered for ever, and the scan's event stream never settled).
            if int(ctx.get("job_try", 1)) >= UNREADABLE_TRIES:
                log.warning("deep_evaluate %s: no readable evaluation; abstained", solution_id)
                return f"abstained: unreadable evaluation from {client.provider}"
            raise RetryLater(f"unreadable evaluation from {client.provider}: {exc}") from exc
        stored = await repo.set_deep_evaluation(solution.id, evaluation)
    return "stored" if stored else "already evaluated"
