"""Tier-3 spot checks (design-notes, DELLM tiers): a MAV aspect panel on a stored answer.

Every aspect verdict is a `verifications` row (tier "spot"); a credible panel moves the
solving provider's fitness; the badge follows the one fitted model's reading of the whole
ledger, the panel included (before a model is fitted, only a credible rejection of a
model-verified answer moves it, to caution). Abstentions are no evidence.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Solution
from app.db.repositories.fitness import FitnessRepository
from app.llm.registry import ProviderRegistry
from app.solutions.followups.consensus import (
    badge_after,
    follow_badge,
    proof_at_response,
    quality,
    unchecked,
    verdict_row,
)
from app.solutions.followups.engineering import panel_keys
from app.verification.admission import admitted_verifiers, spread_panel
from app.verification.aspects import DEFAULT_MATH_SET
from app.verification.evidence_status import after_spot_check
from app.verification.fitness import fitness_delta, latency_rating
from app.verification.outcomes import spot_outcome
from app.verification.panel import run_panel
from app.worker.context import job_context


async def _spot_fitness(session: AsyncSession, solution: Solution, verdicts: list[str]) -> None:
    """A credible panel (outcomes.spot_outcome: enough decisive votes, lopsided enough) is a
    validated outcome for the solving provider: its fitness moves, and the outcome joins the
    agreement counts the consensus weights learn from. Anything less moves nothing."""
    correct = spot_outcome(verdicts)
    if correct is None or solution.provider is None:
        return
    delta = fitness_delta(
        correct=correct,
        reasoning=quality(len(solution.steps)),
        speed=latency_rating(solution.latency_ms / 1000),
    )
    await FitnessRepository(session).apply(
        provider=solution.provider,
        model=solution.model or "?",
        subject=solution.scan.subject,
        delta=delta.total,
        correct=correct,
    )


def _spot_verifiers(registry: ProviderRegistry, solver: str | None, verify: Any) -> list[str]:
    """Admitted verifiers other than the solver (the admission rule applies here as on the
    request path), the local/GPU OpenAI-compatible model first when configured; the panel
    spreads across them (app/verification/admission.py)."""
    names = admitted_verifiers(
        registry,
        exclude=solver,
        measured_auroc=verify.verifier_auroc,
        min_auroc=verify.min_verifier_auroc,
    )
    local = [n for n in names if n == "openai_compatible"]
    return local + [n for n in names if n != "openai_compatible"]


async def spot_check(ctx: dict[str, Any], solution_id: str, reason: str = "") -> str:
    """A MAV aspect panel on the stored answer; every aspect verdict is a row."""
    jobs = job_context(ctx)
    registry, verify = jobs.registry, jobs.settings.verify
    async with unchecked(ctx, solution_id, "spot") as (session, repo, solution, skip):
        if skip:
            return skip
        names = _spot_verifiers(registry, solution.provider, verify)
        if not names:
            return "skipped: no verifier other than the solver"
        # The engineered subset (solveverify calibrate) when there is one, else the configured.
        keys = (
            panel_keys(verify, solution.scan.subject)
            or verify.aspect_sets.get(solution.scan.subject)
            or DEFAULT_MATH_SET
        )
        language: Literal["en", "zh"] = "zh" if solution.scan.language == "zh" else "en"
        # One panel member per aspect, providers interleaved (a panel as big as the aspect set).
        panel = spread_panel(
            registry, names, keys, len(keys), subject=solution.scan.subject, language=language
        )
        text = "\n".join(
            [*(s.description for s in solution.steps), f"Final answer: {solution.final_answer}"]
        )
        result = await run_panel(
            [partial(v.verify, solution.scan.problem_text, text) for v in panel],
            threshold=verify.panel_threshold,
            early_stop=verify.panel_early_stop,
            max_concurrency=verify.panel_max_concurrency,
        )
        if not await repo.claim_tier(solution.id, "spot"):
            await session.rollback()
            return "already checked"  # an overlapping run wrote it while this one asked
        rows = [verdict_row(solution, "spot", v) for v in result.verdicts]
        repo.add_verifications(rows)
        kinds: list[str] = [v.verdict for v in result.verdicts]
        await _spot_fitness(session, solution, kinds)
        # Before a model is fitted, only a credible rejection moves a model-verified answer.
        raw = after_spot_check(
            solution.verification_status,
            credible=spot_outcome(kinds),
            score=result.score,
            proven_at_response=proof_at_response(solution) == "proven",
        )
        change = badge_after(jobs, solution, result.verdicts, raw, "a spot check's panel")
        moved = await follow_badge(session, solution, change, rows, mars=verify.mars_second_chance)
        await session.commit()
    outcome = {"approve": "approved", "reject": "rejected"}.get(result.outcome, "undecided")
    return (
        f"{outcome} by {result.approvals}/{result.decisive} decisive of {result.total} "
        f"({reason}; {result.calls_saved} saved){moved}"
    )
