"""The validator's stages for one answer, in priority order: programmatic check, the problem
bank's ground truth (when the same problem is there), an independent model (when one is
configured). QUICK_VERIFY and the check-my-answer use case both build them here."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from app.pipeline.context import PipelineContext
from app.pipeline.prompts import quick_verify as prompts
from app.pipeline.prompts.localized import Language
from app.verification.llm_check import llm_verdict
from app.verification.programmatic import ground_truth_verdict, programmatic_verdict
from app.verification.validator import Stage


def validation_stages(
    ctx: PipelineContext,
    problem: str,
    answer: str,
    *,
    ground_truth: str | None,
    verifier: str | None,
    steps: str,
    language: Language,
    shown_steps: Sequence[str] = (),
) -> list[Stage]:
    """`steps`: the solution as the verifier model reads it; `shown_steps`: the solution's
    steps one by one, checked symbolically where the answer itself cannot be."""
    stages: list[Stage] = [partial(programmatic_verdict, ctx.sandbox, problem, answer, shown_steps)]
    if ground_truth is not None:
        stages.append(
            partial(ground_truth_verdict, ctx.sandbox, ground_truth, answer, problem=problem)
        )
    if verifier is not None:
        verify = ctx.verify
        stages.append(
            partial(
                llm_verdict,
                ctx.registry.get(verifier, "verify"),
                prompts.build(problem, answer, steps, language),
                timeout=verify.quick_verify_timeout_s,
                candidate=answer,
                equivalent=partial(ctx.sandbox.equivalent, problem=problem),
                # A verifier not admitted (measured AUROC too low) may reject, never approve.
                may_approve=ctx.registry.verifier_admitted(
                    verifier, verify.verifier_auroc, verify.min_verifier_auroc
                ),
            )
        )
    return stages
