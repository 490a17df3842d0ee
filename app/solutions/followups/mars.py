"""MARS as a second chance (design-notes, MARS; DELLM validator).

A `caution` answer (or one a later check rejected) gets one MARS run across DIFFERENT
configured providers: each agent's solution is scored by the others on four dimensions,
weak ones are improved with the feedback, for `mars_rounds` rounds at `mars_threshold`.
The best improved answer must then pass the service's own validator — programmatic proof >
ground truth > the model verdicts — before it replaces the stored answer. A proof decides.
Otherwise MARS's verdict (its agents' cross-verification) is read by the one fitted evidence
model like any verifier's (`combiner.judge_ledger`): it replaces the stored answer where the
model does not find the evidence against it, and verifies it only at the promised threshold
with every voter known to the model. Before a model is fitted, MARS's cross-agent score at
`mars_threshold` stands in (the raw rule) and replaces an answer `unverified`, never
verified. The badge change is appended to `status_history` (StatusRepository). Calls
are capped by `mars_max_calls` and go through the registry's budgeted clients; with fewer
than two model providers MARS does not run.
"""

from __future__ import annotations

import logging
import re
import uuid
from functools import partial
from typing import Any

from app.db.documents import StoredStep
from app.db.models import Solution, VerificationRecord
from app.db.transaction import retry_when_locked
from app.scans.repository import ScanRepository
from app.solutions.followups.consensus import fitted_model
from app.solutions.status_repository import StatusRepository
from app.verification.admission import admitted_verifiers
from app.verification.combiner import judge_ledger, only_a_proof
from app.verification.evidence_status import StatusChange
from app.verification.mars import Mars, MarsConfig, MarsResult
from app.verification.programmatic import ground_truth_verdict, programmatic_verdict
from app.verification.validator import Stage, Thresholds, ValidationOutcome, validate
from app.verification.verdict import Verdict
from app.worker.context import JobContext, job_context
from app.worker.queue import Erased

__all__ = ["mars_second_chance", "retry_when_locked"]

log = logging.getLogger(__name__)

TIER = "mars"
PROOF_METHODS = ("programmatic", "ground_truth")
MARS_TIMEOUT_S = 60.0


def _text(solution: Solution) -> str:
    steps = [f"{i}. {s.description}" for i, s in enumerate(solution.steps, 1)]
    return "\n".join([*steps, f"Final answer: {solution.final_answer}"])


def _steps(text: str) -> list[StoredStep]:
    lines = [re.sub(r"^\d+\.\s*", "", line).strip() for line in text.splitlines()]
    return [StoredStep(description=line) for line in lines if line and "Final answer" not in line]


async def _validate(jobs: JobContext, solution: Solution, result: MarsResult) -> ValidationOutcome:
    assert result.best is not None
    answer, problem = result.best.answer, solution.scan.problem_text
    stages: list[Stage] = [partial(programmatic_verdict, jobs.sandbox, problem, answer)]
    if solution.ground_truth is not None:
        truth = solution.ground_truth
        stages.append(partial(ground_truth_verdict, jobs.sandbox, truth, answer, problem=problem))
    verdict = Verdict(
        "approve" if result.verified else "reject",
        "llm",
        f"mars:{'+'.join(sorted(s.agent for s in result.solutions))}",
        result.best.score,
        "; ".join(result.best.feedback[-3:]),
        independent_answer=answer,
    )

    async def mars_verdict() -> Verdict:
        return verdict

    stages.append(mars_verdict)
    verify = jobs.settings.verify
    # The model stage passes at MARS's own threshold (its score is the cross-agent mean).
    thresholds = Thresholds(
        verify.programmatic_threshold, verify.ground_truth_threshold, verify.mars_threshold
    )
    return await validate(stages, thresholds)


def _decide(
    jobs: JobContext, outcome: ValidationOutcome, *, proof_only: str | None
) -> tuple[bool, StatusChange]:
    """Whether MARS's answer replaces the stored one, and the badge it gets, why, and with
    what confidence. No private bar: a proof decides; else the one fitted model reads the new
    answer's ledger; before any model is fitted, the raw rule (MARS's score at
    `mars_threshold`), never verified."""
    decisive = next((v for v in reversed(outcome.verdicts) if v.decisive), None)
    if decisive is not None and decisive.method in PROOF_METHODS:
        why = f"MARS second chance, {decisive.method} verified"
        return outcome.passed is True, StatusChange("verified", why, outcome.confidence)
    calibrator = fitted_model(jobs)
    if calibrator is None:
        why = "MARS second chance: its agents agreed on a new answer; no proof yet"
        return outcome.passed is True, StatusChange("unverified", why, outcome.confidence)
    badge, probability, may_verify = judge_ledger(
        calibrator, outcome.verdicts, proof_only=proof_only
    )
    if badge == "caution":
        return False, StatusChange("caution", "")
    if badge == "verified" and may_verify and proof_only is None:
        why = f"MARS second chance: the evidence verifies its new answer (P {probability:.2f})"
        return True, StatusChange("verified", why, probability, calibrated=True)
    why = f"MARS second chance: a new answer the evidence is not against (P {probability:.2f})"
    return True, StatusChange("unverified", why, probability, calibrated=True)


async def mars_second_chance(ctx: dict[str, Any], solution_id: str) -> str:
    jobs = job_context(ctx)
    verify, registry = jobs.settings.verify, jobs.registry
    if not verify.mars_second_chance:
        return "skipped: switched off"
    async with jobs.reading() as session:  # no read transaction across the model calls
        repo = ScanRepository(session)
        solution = await repo.get_solution(uuid.UUID(solution_id))
        skip = None
        if solution is None or solution.final_answer is None:
            skip = "skipped: no answer"
        elif solution.verification_status == "verified":
            skip = "skipped: already verified"
        elif await repo.has_verifications(solution.id, TIER):
            skip = "already run"
    if skip is not None:
        return skip
    assert solution is not None
    # Different providers only: an agent never scores its own solution (symbolic cannot).
    # … and admitted ones only: the verifier admission rule holds wherever a model judges.
    names = admitted_verifiers(
        registry,
        exclude="symbolic",
        measured_auroc=verify.verifier_auroc,
        min_auroc=verify.min_verifier_auroc,
    )
    if len(names) < 2:
        log.info("mars %s skipped: %d model provider(s), MARS needs two", solution_id, len(names))
        return "skipped: MARS needs two different model providers"
    config = MarsConfig(verify.mars_rounds, verify.mars_threshold, max_calls=verify.mars_max_calls)
    mars = Mars([registry.get(n, "verify") for n in names], config, timeout=MARS_TIMEOUT_S)
    initial = {}
    if solution.provider in names:
        initial[solution.provider] = (solution.final_answer or "", _text(solution))
    result = await mars.run(solution.scan.problem_text, initial)
    if result.best is None:
        return f"no solution from MARS ({result.calls} calls)"
    outcome = await _validate(jobs, solution, result)
    best = result.best
    proof_only = only_a_proof(best.answer, solution.scan.problem_text)
    improved, change = _decide(jobs, outcome, proof_only=proof_only)

    async def write() -> None:
        async with jobs.transaction() as session:
            stored = await ScanRepository(session).get_solution(solution.id)
            if stored is None:  # erased while MARS ran
                raise Erased(f"solution {solution.id}")
            records = [
                VerificationRecord.from_verdict(
                    stored,
                    v,
                    tier=TIER,
                    attempt=stored.attempts,
                    answer_provider=best.agent,
                    answer=best.answer,
                )
                for v in outcome.verdicts
            ]
            ScanRepository(session).add_verifications(records)
            await session.flush()
            if improved:
                answer_before = stored.final_answer or ""
                stored.final_answer = best.answer
                stored.steps = _steps(best.text)
                stored.provider = best.agent
                await StatusRepository(session).change_status(
                    stored.id,
                    change.to,
                    reason=change.reason,
                    evidence_ids=[str(r.id) for r in records],
                    answer_before=answer_before,
                    confidence=change.confidence,
                    calibrated=change.calibrated,
                )

    # A single-writer database may refuse the write while another one holds its lock.
    await retry_when_locked(write)
    verdict = "replaced" if improved else "kept"
    return f"{verdict}: {result.best.agent}={result.best.answer} ({result.calls} calls)"
