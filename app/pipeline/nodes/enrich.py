"""ENRICH: knowledge points, a hint, LaTeX-clean steps, and the badge the app shows."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from app.analysis.enrichment import hint, knowledge_points
from app.llm.outputs import SolveStep
from app.pipeline.context import PipelineContext
from app.pipeline.state import SolveState, VerificationStatus

_MATH_DELIMITERS = re.compile(r"^\s*(?:\$\$?|\\\(|\\\[)(.*?)(?:\$\$?|\\\)|\\\])\s*$", re.S)

NO_PROVIDER = (
    "no model provider configured: the symbolic solver reads equations and arithmetic only"
)


def clean_latex(step: SolveStep) -> SolveStep:
    """Steps carry bare LaTeX: the app adds its own delimiters."""
    if not step.latex:
        return step
    match = _MATH_DELIMITERS.match(step.latex)
    return step.model_copy(update={"latex": match.group(1).strip() if match else step.latex})


def badge(state: SolveState, ctx: PipelineContext) -> tuple[VerificationStatus, str | None]:
    if state.solution is None:
        if not ctx.registry.has_model_provider:
            return "unverified", NO_PROVIDER
        return "unverified", "no provider could solve this problem: " + "; ".join(
            state.solve_errors
        )
    if state.verify_passed and state.verify_confidence >= ctx.verify.verified_threshold:
        return "verified", None
    if state.verify_passed is None:
        reason = state.verify_error or "verification was skipped"
        if not ctx.registry.has_model_provider:
            reason = f"{reason} ({NO_PROVIDER})"
        return "unverified", reason
    if state.verify_passed:
        return "caution", f"low verification confidence ({state.verify_confidence:.2f})"
    return "caution", state.verify_error or "the answer failed verification"


async def enrich(state: SolveState, runtime: Runtime[PipelineContext]) -> dict[str, Any]:
    status, reason = badge(state, runtime.context)
    update: dict[str, Any] = {
        "knowledge_points": knowledge_points(state.topics, state.language),
        "hint": hint(state.topics, state.language),
        "verification_status": status,
        "caution_reason": reason,
    }
    if state.solution is not None:
        steps = [clean_latex(s) for s in state.solution.steps]
        update["solution"] = state.solution.model_copy(update={"steps": steps})
    return update
