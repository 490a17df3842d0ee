"""QUICK_VERIFY: programmatic check > ground truth > an independent model, first decisive wins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from langgraph.runtime import Runtime

from app.llm.outputs import SolveStep as Step
from app.pipeline.badge import best_attempt
from app.pipeline.context import PipelineContext
from app.pipeline.evidence import (
    evidence_plan,
    panel_evidence,
    rest_of_samples,
    samples_evidence,
)
from app.pipeline.routing import next_after_verify
from app.pipeline.self_consistency import Sampler
from app.pipeline.state import AttemptRecord, SolveState
from app.pipeline.verification_stages import validation_stages
from app.symbolic.step_text import latex_rows
from app.verification.calibration import verdict_signals
from app.verification.combiner import only_a_proof
from app.verification.validator import Stage, validate
from app.verification.verdict import Verdict

STEPS_SUMMARY_CHARS = 1500


def steps_summary(state: SolveState) -> str:
    assert state.solution is not None
    lines = [
        f"{i}. {s.description}" + (f" ({s.latex})" if s.latex else "")
        for i, s in enumerate(state.solution.steps, 1)
    ]
    return "\n".join(lines)[:STEPS_SUMMARY_CHARS]


def calibration_signals(verdicts: list[Verdict]) -> dict[str, float]:
    """Every verdict of the attempt (quick verify and any panel) as calibration features."""
    return verdict_signals(verdicts)


PROOFS = ("programmatic", "ground_truth")


async def quick_verify(state: SolveState, runtime: Runtime[PipelineContext]) -> dict[str, Any]:
    ctx, state_in = runtime.context, state
    assert state.solution is not None and state.provider is not None
    solved, provider = state.solution, state.provider
    verifier = ctx.registry.verifier_for(state.provider)
    outcome = await validate(_stages(ctx, state, verifier), ctx.thresholds)
    passed, signal = outcome.approved, outcome.confidence
    method: str | None = outcome.primary_method
    verdicts = list(outcome.verdicts)
    calls = sum(v.method == "llm" for v in verdicts)
    plan = evidence_plan(ctx.verify, state.subject, state.difficulty)
    sampled, sampler = None, None
    if plan.samples and method not in PROOFS and not not_worked_out(outcome.verdicts):
        sampler = Sampler(ctx, state, plan.samples)
        sampled = await samples_evidence(ctx, state, plan, verdicts, sampler)
        if sampled.better is not None:
            # Selection (weighted self-consistency): the best-supported candidate is the one
            # returned and judged, not attempt 1's. Its own check runs again; the quick
            # verifier's call is spent only when no panel follows to judge it.
            state = replace(state, solution=sampled.better)
            solved = sampled.better
            again = await validate(
                _stages(ctx, state, None if plan.panel_size else verifier), ctx.thresholds
            )
            passed, signal, method = again.approved, again.confidence, again.primary_method
            verdicts = list(again.verdicts)
            calls += sum(v.method == "llm" for v in verdicts)
            outcome = again
    threshold = ctx.verify.self_consistency_threshold
    # Adaptive evidence: with a panel planned, the samples the answer's choice no longer
    # needs wait for it, and are drawn after it only if they can still change the badge.
    # (Left undrawn only when the answer in hand is kept: the panel below then runs.)
    waiting = None
    if sampled is not None and sampler is not None and sampler.left and plan.panel_size:
        waiting = (sampled, sampler.left)
    elif sampled is not None and method not in PROOFS:
        verdicts.append(sampled.verdict(provider, threshold))
        passed, signal, method = samples_decision(passed, signal, sampled.agreement, threshold)
    if plan.panel_size and method not in PROOFS and not not_worked_out(outcome.verdicts):
        # design-notes, MAV: more evidence bought before answering, when settings say so.
        panel = await panel_evidence(ctx, state, plan.panel_size, verdicts, waiting)
        if waiting is not None and sampler is not None:
            heard = [*verdicts, *panel.verdicts]
            sampled = await rest_of_samples(ctx, state, heard, sampler, waiting[0])
            verdicts.append(sampled.verdict(provider, threshold))
            passed, signal, method = samples_decision(passed, signal, sampled.agreement, threshold)
        verdicts += panel.verdicts
        calls += panel.started
        if panel.score is not None and panel.outcome != "undecided":
            passed, signal, method = panel_decision(passed, signal, panel.score, ctx)
    if sampled is not None:
        calls += sampled.samples  # those bought: adaptive evidence may stop early
    answer = solved.final_answer
    proof_only = only_a_proof(answer, state.problem_text)
    confidence, calibrated = signal, False
    if ctx.calibrator is not None and passed is not None:
        signals = calibration_signals(verdicts)
        confidence = ctx.calibrator.predict(signals, proof_only=proof_only is not None)
        calibrated = True
    record = AttemptRecord(
        number=state.attempt_count,
        provider=provider,
        model=state.model or "",
        final_answer=answer,
        verify_passed=passed,
        verify_confidence=confidence,
        verdicts=verdicts,
        latency_ms=state.solve_latency_ms,
        solution=state.solution,
        verify_method=method,
        verify_signal=signal,
        verify_calibrated=calibrated,
        verify_error=outcome.error,
        independent_answer=outcome.independent_answer,
        proof_only=proof_only,
    )
    update: dict[str, Any] = {
        "verify_passed": passed,
        "verify_confidence": confidence,
        "verify_calibrated": calibrated,
        "verify_method": method,
        "verify_signal": signal,
        "independent_answer": outcome.independent_answer,
        "verify_error": outcome.error,
        "attempts": [record],
        "model_calls": calls,
    }
    if solved is not state_in.solution:
        update["solution"] = solved
    after = replace(
        state, **{k: v for k, v in update.items() if k not in ("attempts", "model_calls")}
    )
    if next_after_verify(after, ctx) == "enrich":
        # The run ends here: return the best attempt, not merely the last one (design-notes §3).
        best = best_attempt([*state.attempts, record], ctx)
        if best is not record:
            update |= restore(best)
    return update


def not_worked_out(verdicts: list[Verdict]) -> bool:
    """The check found the answer's work left undone (the problem copied back, 7 × 8 for
    7 × 8 = ?): it stays unverified, whatever samples or a panel would say of its value."""
    return any(v.conclusive for v in verdicts)


def _stages(ctx: PipelineContext, state: SolveState, verifier: str | None) -> list[Stage]:
    assert state.solution is not None
    return validation_stages(
        ctx,
        state.problem_text,
        state.solution.final_answer,
        ground_truth=state.ground_truth,
        verifier=verifier,
        steps=steps_summary(state),
        language=state.language,
        shown_steps=shown_steps(state.solution.steps),
    )


def shown_steps(steps: Sequence[Step]) -> list[str]:
    """What the student is shown, line by line: each step's description, and its LaTeX
    where it says more (a false claim in either is one), an aligned block one line a row."""
    lines: list[str] = []
    for step in steps:
        lines.append(step.description)
        if step.latex and step.latex.strip() not in step.description:
            lines += latex_rows(step.latex)
    return lines


def panel_decision(
    passed: bool | None, signal: float, panel_score: float, ctx: PipelineContext
) -> tuple[bool, float, str]:
    """Quick verify and a decided panel together (raw, before calibration): the mean of the
    model's P(correct) and the panel's approval share over decisive verdicts; it passes at the
    panel threshold. An undecided panel (abstentions, too few verdicts) changes nothing."""
    score = panel_score if passed is None else (signal + panel_score) / 2
    return score >= ctx.verify.panel_threshold, score, "llm"


def samples_decision(
    passed: bool | None, signal: float, agreement: float, threshold: float
) -> tuple[bool, float, str]:
    """Quick verify and self-consistency together (raw): the mean of the model's P(correct)
    and the agreement; it passes at the self-consistency threshold."""
    score = agreement if passed is None else (signal + agreement) / 2
    return score >= threshold, score, "llm"


def restore(best: AttemptRecord) -> dict[str, Any]:
    return {
        "solution": best.solution,
        "provider": best.provider,
        "model": best.model,
        "verify_passed": best.verify_passed,
        "verify_confidence": best.verify_confidence,
        "verify_calibrated": best.verify_calibrated,
        "verify_method": best.verify_method,
        "verify_signal": best.verify_signal,
        "independent_answer": best.independent_answer,
        "verify_error": best.verify_error,
    }
