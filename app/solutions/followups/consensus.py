"""Tier-2 consensus checks (design-notes, DELLM) as a worker task, and what it shares with
the tier-3 spot check (app/solutions/followups/spot_check.py).

Both run after the response, on a stored solution, and store every verdict as a row in
`verifications` (tier "consensus" / "spot") once: a redelivered job finds its rows and stops.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Solution, VerificationRecord
from app.db.repositories.fitness import FitnessRepository
from app.db.repositories.outbox import OutboxRepository
from app.llm.errors import ProviderError
from app.llm.outputs import SolveOutput, schema_of
from app.llm.registry import ProviderRegistry
from app.llm.structured import extract_json
from app.pipeline.prompts import solve as solve_prompts
from app.scans.repository import ScanRepository
from app.solutions.status_repository import StatusRepository
from app.symbolic.sandbox import SymbolicSandbox
from app.verification.calibration import Calibrator, VerdictLike
from app.verification.combiner import judge_ledger, only_a_proof
from app.verification.consensus import ConsensusBuilder, NodeAnswer, Proof
from app.verification.evidence_status import (
    Judged,
    StatusChange,
    after_consensus,
    after_later_panel,
    consensus_validated,
    outside_the_vote,
)
from app.verification.fitness import Quality, fitness_delta, latency_rating
from app.verification.learned_weights import OnlineWeights
from app.verification.outcomes import returned_attempt
from app.verification.programmatic import programmatic_verdict
from app.verification.verdict import Verdict, VerdictKind
from app.worker.context import JobContext, job_context
from app.worker.queue import Erased

log = logging.getLogger(__name__)


@asynccontextmanager
async def unchecked(
    ctx: dict[str, Any], solution_id: str, tier: str
) -> AsyncIterator[tuple[AsyncSession, ScanRepository, Solution, str | None]]:
    """A session with the stored solution, or the reason to skip (no answer; already checked:
    a redelivered job stores nothing twice). A solution erased while the job waited on the
    models ends the job as `Erased` when its rows are refused (no solution to belong to)."""
    async with job_context(ctx).transaction() as session:
        repo = ScanRepository(session)
        solution = await repo.get_solution(uuid.UUID(solution_id))
        skip = None
        if solution is None or solution.final_answer is None:
            skip = "skipped: no answer"
        elif await repo.has_verifications(solution.id, tier):
            skip = "already checked"
        # End the read transaction before the slow model calls: on SQLite (WAL) a read
        # snapshot that later writes fails with "database is locked" if anyone committed
        # meanwhile; the loaded objects stay usable (expire_on_commit=False). The check's
        # own commit ends its write (a refused row is caught below); the transaction's
        # contract then wakes the outbox relay if it staged the MARS second chance.
        await session.commit()
        try:
            yield session, repo, solution, skip  # type: ignore[misc]  # solution set unless skip
        except IntegrityError:
            await session.rollback()  # (which expires `solution`: its id is read no more)
            exists = await ScanRepository(session).solution_exists(uuid.UUID(solution_id))
            await session.commit()
            if not exists:
                raise Erased(f"solution {solution_id}") from None
            raise


def verdict_row(solution: Solution, tier: str, verdict: Verdict) -> VerificationRecord:
    return VerificationRecord.from_verdict(
        solution,
        verdict,
        tier=tier,
        attempt=solution.attempts,
        answer_provider=solution.provider,
        answer_model=solution.model,
        answer=solution.final_answer,
    )


def _ledger(solution: Solution) -> list[Judged]:
    """The decisive verdicts already stored on the returned answer (quick verify, panels,
    spot checks, MARS), before this consensus check."""
    return [
        Judged(row.verifier_id.split(":", 1)[0], row.method, row.verdict == "approve")
        for row in solution.verifications
        if row.verdict != "abstain"
        and row.tier != "consensus"
        and row.answer == solution.final_answer
    ]


def proof_at_response(
    solution: Solution, methods: tuple[str, ...] = ("programmatic", "ground_truth")
) -> Proof | None:
    """A proof or refutation of the returned answer by one of `methods`, from QUICK_VERIFY."""
    for row in solution.verifications:
        if (
            row.tier == "quick"
            and row.method in methods
            and row.verdict != "abstain"
            and row.answer == solution.final_answer
        ):
            return "proven" if row.verdict == "approve" else "refuted"
    return None


def fitted_model(jobs: JobContext) -> Calibrator | None:
    """The one fitted evidence model this process reads now, else None (none fitted yet)."""
    calibrator = jobs.scans.pipeline.current().calibrator if jobs.scans is not None else None
    return calibrator if calibrator is not None and calibrator.fitted_evidence else None


def badge_after(
    jobs: JobContext,
    solution: Solution,
    verdicts: Sequence[Verdict],
    raw: StatusChange | None,
    by: str,
) -> StatusChange | None:
    """The badge once later `verdicts` (`by` whom) joined the answer's ledger: the one fitted
    model reads the whole ledger, the response's evidence and these (`combiner.judge_ledger`);
    before any model is fitted, the `raw` rule's change stands."""
    calibrator = fitted_model(jobs)
    if calibrator is None:
        return raw
    response = returned_attempt(solution.verifications, solution.final_answer)
    proof_only = only_a_proof(solution.final_answer or "", solution.scan.problem_text)
    ledger: list[VerdictLike] = [*response, *verdicts]
    badge, probability, may_verify = judge_ledger(calibrator, ledger, proof_only=proof_only)
    return after_later_panel(
        solution.verification_status,
        badge=badge,
        probability=probability,
        may_verify=may_verify,
        proven_at_response=proof_at_response(solution) is not None,
        by=by,
        proof_only=proof_only,
    )


def weight_share(nodes: Sequence[NodeAnswer], groups: Sequence[list[int]]) -> float:
    """The returned answer's (node 0's) share of the voters' weight: its group's."""
    ours = next((group for group in groups if 0 in group), [0])
    return sum(nodes[i].weight for i in ours) / (sum(n.weight for n in nodes) or 1.0)


async def _proof(sandbox: SymbolicSandbox, problem: str, answer: str) -> Proof | None:
    return _as_proof(await programmatic_verdict(sandbox, problem, answer))


def _as_proof(verdict: Verdict) -> Proof | None:
    if verdict.verdict == "abstain":
        return None
    return "proven" if verdict.verdict == "approve" else "refuted"


async def follow_badge(
    session: AsyncSession,
    solution: Solution,
    change: StatusChange | None,
    rows: list[Any],
    *,
    mars: bool,
) -> str:
    """Apply a badge change with its evidence (the rows just written), or say none. An answer
    turned to caution gets the MARS second chance, staged in this same transaction."""
    if change is None:
        return ""
    await session.flush()  # the rows get their ids
    moved = await StatusRepository(session).change_status(
        solution.id,
        change.to,
        reason=change.reason,
        evidence_ids=[str(r.id) for r in rows],
        confidence=change.confidence,
        calibrated=change.calibrated,
    )
    if not moved:
        return ""
    if change.to == "caution" and mars:
        task = "mars_second_chance"  # app/solutions/followups/mars.py; runs once per solution
        await OutboxRepository(session).stage_once(
            task, [str(solution.id)], job_id=f"{task}:{solution.id}"
        )
    return f"; badge → {change.to}"


@dataclass(frozen=True, slots=True)
class Independent:
    """One provider's answer to the problem, with what fitness needs to know about it."""

    provider: str
    model: str
    answer: str
    steps: int
    seconds: float
    reasoning: str = ""
    confidence: float = 0.5


def quality(steps: int) -> Quality:
    return "good" if steps >= 3 else "minimal"


async def _independent_answer(
    registry: ProviderRegistry, name: str, solution: Solution
) -> Independent | None:
    language: Literal["en", "zh"] = "zh" if solution.scan.language == "zh" else "en"
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
    reasoning = "\n".join(
        str(step.get("description", "")) for step in steps or [] if isinstance(step, dict)
    )
    return Independent(
        name, reply.model, str(answer), count, time.perf_counter() - started, reasoning[:800]
    )


async def consensus_check(ctx: dict[str, Any], solution_id: str) -> str:
    """Other providers solve independently; the DELLM cascade decides, its weighted stages
    weighted by what each provider's agreement on credible outcomes taught (learned_weights);
    the verdict on the returned answer is stored with every answer seen, and an agreed
    outcome moves each answering provider's fitness by the design's deltas."""
    jobs = job_context(ctx)
    registry, verify = jobs.registry, jobs.settings.verify
    async with unchecked(ctx, solution_id, "consensus") as (session, repo, solution, skip):
        if skip:
            return skip
        subject = solution.scan.subject
        others = [n for n in registry.route(subject) if n != solution.provider]
        fitness = FitnessRepository(session)
        counts = await fitness.agreement_counts(subject, [solution.provider or "?", *others])
        learned = OnlineWeights.from_counts(counts, verify.consensus_prior_agreement)
        await session.commit()  # no read transaction across the model calls (see unchecked)
        found = await asyncio.gather(*(_independent_answer(registry, n, solution) for n in others))
        original = Independent(
            solution.provider or "?",
            solution.model or "?",
            solution.final_answer or "",
            len(solution.steps),
            solution.latency_ms / 1000,
            "\n".join(step.description for step in solution.steps)[:800],
            solution.verification_confidence,
        )
        answers = [original, *(a for a in found if a is not None)]
        if len(answers) < 2:
            return "skipped: no other provider answered"
        # Validator priority in tier 2: a proof on any answer decides (design-notes, DELLM).
        problem = solution.scan.problem_text
        proven_at_response = proof_at_response(solution)
        # QUICK_VERIFY's check already proved or refuted this very answer (of the same
        # problem text): a conclusion, never the "not worked out" abstention, so it is read,
        # not computed again.
        checked = proof_at_response(solution, ("programmatic",))
        if checked is None:
            fresh = await programmatic_verdict(jobs.sandbox, problem, answers[0].answer)
            if fresh.conclusive:  # "7 × 8" for "7 × 8 = ?": no agreement makes it the answer
                return "skipped: the answer is not worked out"
            checked = _as_proof(fresh)
        proofs = [
            proven_at_response or checked,
            *[await _proof(jobs.sandbox, problem, a.answer) for a in answers[1:]],
        ]
        nodes = [
            NodeAnswer(
                a.provider, a.answer, learned.weight(a.provider), a.confidence, a.reasoning, p
            )
            for a, p in zip(answers, proofs, strict=True)
        ]
        arbiter = registry.verifier_for(solution.provider)
        builder = ConsensusBuilder(
            equivalent=partial(jobs.sandbox.equivalent, problem=solution.scan.problem_text),
            arbiter=registry.get(arbiter, "verify") if arbiter else None,
            exact_threshold=verify.consensus_exact,
            semantic_threshold=verify.consensus_semantic,
            majority_threshold=verify.consensus_majority,
        )
        result = await builder.build(problem, nodes)
        listing = "; ".join(f"{n.provider}={n.answer}" for n in nodes)
        approved: bool | None = None
        if result.decided:
            approved = 0 in result.supporters
        kind: VerdictKind = "abstain" if approved is None else "approve" if approved else "reject"
        score = None if approved is None else result.weighted_agreement if approved else 0.0
        if result.method == "proof":
            score = 1.0 if approved else 0.0
        verdict = Verdict(
            kind,
            "llm",
            f"consensus:{result.method}",
            score,
            f"{result.method}, agreement {result.agreement:.0%}: {listing}",
            independent_answer=result.answer,
        )
        voters = {answers[i].provider for i in result.supporters}
        approvals, rejections = outside_the_vote(_ledger(solution), voters)
        if not await repo.claim_tier(solution.id, "consensus"):
            await session.rollback()
            return "already checked"  # an overlapping run wrote it while this one asked
        row = verdict_row(solution, "consensus", verdict)
        repo.add_verifications([row])
        if result.decided and consensus_validated(
            result.method,
            approvals=approvals if approved else 0,  # the ledger judged only our answer
            rejections=rejections,
        ):
            # A validated outcome moves the fitness score; only credible outcomes (proof,
            # agreement) join the counts the weights are learned from.
            for index, answer in enumerate(answers):
                correct = index in result.supporters
                delta = fitness_delta(
                    correct=correct,
                    reasoning=quality(answer.steps),
                    speed=latency_rating(answer.seconds),
                )
                await fitness.apply(
                    provider=answer.provider,
                    model=answer.model,
                    subject=subject,
                    delta=delta.total,
                    correct=correct,
                    counted=result.agrees,
                )
        change = after_consensus(
            solution.verification_status,
            approved=approved,
            method=result.method,
            confirmations=len([i for i in result.supporters if i != 0]),
            min_confirmations=verify.consensus_min_confirmations,
            proven_at_response=proven_at_response == "proven",
            approved_outside=approvals if approved else 0,
            rejected_outside=rejections,
            proof_only=only_a_proof(solution.final_answer or "", solution.scan.problem_text),
            score=weight_share(nodes, result.groups),
        )
        if result.method != "proof" and approved is not None:
            # No rule of its own once a model is fitted: the vote joins the ledger. The model
            # never learns a weight for it (consensus labels the outcomes it is fitted on), so
            # a consensus alone never verifies; it can turn the evidence against an answer.
            change = badge_after(jobs, solution, [verdict], change, "a later consensus check")
        moved = await follow_badge(session, solution, change, [row], mars=verify.mars_second_chance)
        await session.commit()
    return f"{kind} ({result.method}){moved}"
