"""Tier-3 spot checks (design-notes, DELLM tiers): a MAV aspect panel on a stored answer.

Every aspect verdict is a `verifications` row (tier "spot"); a credible panel moves the
solving provider's fitness; a rejection of a model-verified answer turns it to caution.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Solution
from app.db.repositories.fitness import FitnessRepository
from app.llm.registry import ProviderRegistry
from app.verification.aspects import DEFAULT_MATH_SET, build_panel
from app.verification.evidence_status import after_spot_check
from app.verification.fitness import fitness_delta, latency_rating
from app.verification.outcomes import spot_outcome
from app.verification.panel import run_panel
from app.worker.checks import follow_badge, proof_at_response, quality, unchecked, verdict_row
from app.worker.context import job_context
from app.worker.engineering import panel_keys


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


def _spot_verifier(registry: ProviderRegistry, solver: str | None) -> str | None:
    """The local/GPU OpenAI-compatible model when configured, else any other verifier."""
    if "openai_compatible" in registry and solver != "openai_compatible":
        return "openai_compatible"
    return registry.verifier_for(solver)


async def spot_check(ctx: dict[str, Any], solution_id: str, reason: str = "") -> str:
    """A MAV aspect panel on the stored answer; every aspect verdict is a row."""
    jobs = job_context(ctx)
    registry, verify = jobs.registry, jobs.settings.verify
    async with unchecked(ctx, solution_id, "spot") as (session, repo, solution, skip):
        if skip:
            return skip
        name = _spot_verifier(registry, solution.provider)
        if name is None:
            return "skipped: no verifier other than the solver"
        # The engineered subset (solveverify calibrate) when there is one, else the configured.
        keys = (
            panel_keys(verify, solution.scan.subject)
            or verify.aspect_sets.get(solution.scan.subject)
            or DEFAULT_MATH_SET
        )
        language: Literal["en", "zh"] = "zh" if solution.scan.language == "zh" else "en"
        panel = build_panel(
            [registry.get(name, "verify")], keys, subject=solution.scan.subject, language=language
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
        rows = [verdict_row(solution, "spot", v) for v in result.verdicts]
        repo.add_verifications(rows)
        await _spot_fitness(session, solution, [v.verdict for v in result.verdicts])
        change = after_spot_check(
            solution.verification_status,
            approved=result.approved,
            score=result.score,
            proven_at_response=proof_at_response(solution) == "proven",
        )
        moved = await follow_badge(session, solution, change, rows, mars=verify.mars_second_chance)
        await session.commit()
    outcome = "approved" if result.approved else "rejected"
    return (
        f"{outcome} by {result.approvals}/{result.total} "
        f"({reason}; {result.calls_saved} saved){moved}"
    )
