"""Tier-2 consensus checks and tier-3 spot checks (design-notes, DELLM), as worker tasks.

Both run after the response, on a stored solution, and store every verdict as a row in
`verifications` (tier "consensus" / "spot") once: a redelivered job finds its rows and stops.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Solution, VerificationRecord
from app.db.repositories.fitness import FitnessRepository
from app.db.repositories.scans import ScanRepository
from app.llm.errors import ProviderError
from app.llm.outputs import SolveOutput, schema_of
from app.llm.registry import ProviderRegistry
from app.llm.structured import extract_json
from app.pipeline.prompts import solve as solve_prompts
from app.verification.aspects import DEFAULT_MATH_SET, build_panel
from app.verification.consensus import ConsensusBuilder, NodeAnswer
from app.verification.fitness import Quality, fitness_delta, latency_rating
from app.verification.panel import run_panel
from app.verification.verdict import Verdict
from app.worker.context import job_context

log = logging.getLogger(__name__)


@asynccontextmanager
async def _unchecked(
    ctx: dict[str, Any], solution_id: str, tier: str
) -> AsyncIterator[tuple[AsyncSession, ScanRepository, Solution, str | None]]:
    """A session with the stored solution, or the reason to skip (no answer; already checked:
    a redelivered job stores nothing twice)."""
    async with job_context(ctx).sessionmaker() as session:
        repo = ScanRepository(session)
        solution = await repo.get_solution(uuid.UUID(solution_id))
        skip = None
        if solution is None or solution.final_answer is None:
            skip = "skipped: no answer"
        elif await repo.has_verifications(solution.id, tier):
            skip = "already checked"
        # End the read transaction before the slow model calls: on SQLite (WAL) a read
        # snapshot that later writes fails with "database is locked" if anyone committed
        # meanwhile; the loaded objects stay usable (expire_on_commit=False).
        await session.commit()
        yield session, repo, solution, skip  # type: ignore[misc]


def _row(solution: Solution, tier: str, verdict: Verdict) -> VerificationRecord:
    return VerificationRecord.from_verdict(
        solution,
        verdict,
        tier=tier,
        attempt=solution.attempts,
        answer_provider=solution.provider,
        answer=solution.final_answer,
    )


@dataclass(frozen=True, slots=True)
class Independent:
    """One provider's answer to the problem, with what fitness needs to know about it."""

    provider: str
    model: str
    answer: str
    steps: int
    seconds: float


def _quality(steps: int) -> Quality:
    return "good" if steps >= 3 else "minimal"


async def _independent_answer(
    registry: ProviderRegistry, name: str, solution: Solution
) -> Independent | None:
    language = "zh" if solution.scan.language == "zh" else "en"
    messages = solve_prompts.build(solution.scan.problem_text, language)
    started = time.perf_counter()
    try:
        reply = await registry.get(name).generate(
            messages, json_schema=schema_of(SolveOutput), timeout=60
        )
    except ProviderError as exc:
        log.info("consensus: %s could not answer: %s", name, exc)
        return None
    data = reply.data or extract_json(reply.text) or {}
    answer, steps = data.get("final_answer"), data.get("steps")
    if not answer:
        return None
    count = len(steps) if isinstance(steps, list) else 0
    return Independent(name, reply.model, str(answer), count, time.perf_counter() - started)


async def consensus_check(ctx: dict[str, Any], solution_id: str) -> str:
    """Other providers solve independently; the DELLM cascade (weighted by fitness) decides;
    the verdict on the returned answer is stored with every answer seen, and an agreed
    outcome moves each answering provider's fitness by the design's deltas."""
    jobs = job_context(ctx)
    registry, verify = jobs.registry, jobs.settings.verify
    async with _unchecked(ctx, solution_id, "consensus") as (session, repo, solution, skip):
        if skip:
            return skip
        subject = solution.scan.subject
        others = [n for n in registry.route(subject) if n != solution.provider]
        fitness = FitnessRepository(session)
        weights = await fitness.weights(subject, [solution.provider or "?", *others])
        await session.commit()  # no read transaction across the model calls (see _unchecked)
        found = await asyncio.gather(*(_independent_answer(registry, n, solution) for n in others))
        original = Independent(
            solution.provider or "?",
            solution.model or "?",
            solution.final_answer or "",
            len(solution.steps),
            solution.latency_ms / 1000,
        )
        answers = [original, *(a for a in found if a is not None)]
        if len(answers) < 2:
            return "skipped: no other provider answered"
        nodes = [NodeAnswer(a.provider, a.answer, weights[a.provider]) for a in answers]
        arbiter = registry.verifier_for(solution.provider)
        builder = ConsensusBuilder(
            equivalent=jobs.sandbox.equivalent,
            arbiter=registry.get(arbiter, "verify") if arbiter else None,
            exact_threshold=verify.consensus_exact,
            semantic_threshold=verify.consensus_semantic,
            majority_threshold=verify.consensus_majority,
        )
        result = await builder.build(solution.scan.problem_text, nodes)
        listing = "; ".join(f"{n.provider}={n.answer}" for n in nodes)
        if not result.agrees:
            kind, score = "abstain", None
        else:
            kind = "approve" if 0 in result.supporters else "reject"
            score = result.weighted_agreement if kind == "approve" else 0.0
        verdict = Verdict(
            kind,
            "llm",
            f"consensus:{result.method}",
            score,  # type: ignore[arg-type]
            f"{result.method}, agreement {result.agreement:.0%}: {listing}",
            independent_answer=result.answer,
        )
        repo.add_verifications([_row(solution, "consensus", verdict)])
        if result.agrees:
            for index, answer in enumerate(answers):
                correct = index in result.supporters
                delta = fitness_delta(
                    correct=correct,
                    reasoning=_quality(answer.steps),
                    speed=latency_rating(answer.seconds),
                )
                await fitness.apply(
                    provider=answer.provider,
                    model=answer.model,
                    subject=subject,
                    delta=delta.total,
                    correct=correct,
                )
        await session.commit()
    return f"{kind} ({result.method})"


def _spot_verifier(registry: ProviderRegistry, solver: str | None) -> str | None:
    """The local/GPU OpenAI-compatible model when configured, else any other verifier."""
    if "openai_compatible" in registry and solver != "openai_compatible":
        return "openai_compatible"
    return registry.verifier_for(solver)


async def spot_check(ctx: dict[str, Any], solution_id: str, reason: str = "") -> str:
    """A MAV aspect panel on the stored answer; every aspect verdict is a row."""
    jobs = job_context(ctx)
    registry, verify = jobs.registry, jobs.settings.verify
    async with _unchecked(ctx, solution_id, "spot") as (session, repo, solution, skip):
        if skip:
            return skip
        name = _spot_verifier(registry, solution.provider)
        if name is None:
            return "skipped: no verifier other than the solver"
        keys = verify.aspect_sets.get(solution.scan.subject) or DEFAULT_MATH_SET
        language = "zh" if solution.scan.language == "zh" else "en"
        panel = build_panel(
            [registry.get(name, "verify")], keys, subject=solution.scan.subject, language=language
        )
        text = "\n".join(
            [*(s.description for s in solution.steps), f"Final answer: {solution.final_answer}"]
        )
        result = await run_panel(
            [lambda v=v: v.verify(solution.scan.problem_text, text) for v in panel],
            threshold=verify.panel_threshold,
            early_stop=verify.panel_early_stop,
            max_concurrency=verify.panel_max_concurrency,
        )
        repo.add_verifications([_row(solution, "spot", v) for v in result.verdicts])
        await session.commit()
    outcome = "approved" if result.approved else "rejected"
    return f"{outcome} by {result.approvals}/{result.total} ({reason}; {result.calls_saved} saved)"
