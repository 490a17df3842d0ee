"""QUICK_VERIFY: programmatic check > ground truth > an independent model, first decisive wins."""

from __future__ import annotations

from functools import partial
from typing import Any

from langgraph.runtime import Runtime

from app.pipeline.context import PipelineContext
from app.pipeline.prompts import quick_verify as prompts
from app.pipeline.state import AttemptRecord, SolveState
from app.verification.calibration import signals
from app.verification.llm_check import llm_verdict
from app.verification.programmatic import ground_truth_verdict, programmatic_verdict
from app.verification.validator import Stage, ValidationOutcome, validate

STEPS_SUMMARY_CHARS = 1500


def steps_summary(state: SolveState) -> str:
    assert state.solution is not None
    lines = [
        f"{i}. {s.description}" + (f" ({s.latex})" if s.latex else "")
        for i, s in enumerate(state.solution.steps, 1)
    ]
    return "\n".join(lines)[:STEPS_SUMMARY_CHARS]


def calibration_signals(outcome: ValidationOutcome) -> dict[str, float]:
    by_method = {v.method: v for v in outcome.verdicts}
    programmatic = by_method.get("programmatic")
    model = by_method.get("llm")
    return signals(
        approvals={
            v.verifier_id: None if v.verdict == "abstain" else v.verdict == "approve"
            for v in outcome.verdicts
        },
        programmatic=programmatic.verdict if programmatic else None,
        quick_confidence=model.score if model and model.score is not None else None,
    )


async def quick_verify(state: SolveState, runtime: Runtime[PipelineContext]) -> dict[str, Any]:
    ctx = runtime.context
    assert state.solution is not None and state.provider is not None
    answer = state.solution.final_answer
    stages: list[Stage] = [partial(programmatic_verdict, ctx.sandbox, state.problem_text, answer)]
    if state.ground_truth is not None:
        stages.append(partial(ground_truth_verdict, ctx.sandbox, state.ground_truth, answer))
    verifier = ctx.registry.verifier_for(state.provider)
    if verifier is not None:
        messages = prompts.build(state.problem_text, answer, steps_summary(state), state.language)
        stages.append(
            partial(
                llm_verdict,
                ctx.registry.get(verifier, "verify"),
                messages,
                timeout=ctx.verify.quick_verify_timeout_s,
                candidate=answer,
                equivalent=ctx.sandbox.equivalent,
                may_approve=ctx.registry.verifier_admitted(
                    verifier, ctx.verify.verifier_auroc, ctx.verify.min_verifier_auroc
                ),
            )
        )
    outcome = await validate(stages, ctx.thresholds)
    confidence, calibrated = outcome.confidence, False
    if ctx.calibrator is not None and outcome.passed is not None:
        confidence, calibrated = ctx.calibrator.predict(calibration_signals(outcome)), True
    record = AttemptRecord(
        number=state.attempt_count,
        provider=state.provider,
        model=state.model or "",
        final_answer=answer,
        verify_passed=outcome.passed,
        verify_confidence=confidence,
        verdicts=outcome.verdicts,
        latency_ms=state.solve_latency_ms,
    )
    return {
        "verify_passed": outcome.passed,
        "verify_confidence": confidence,
        "verify_calibrated": calibrated,
        "independent_answer": outcome.independent_answer,
        "verify_error": outcome.error,
        "attempts": [record],
    }
