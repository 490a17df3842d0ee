"""ENRICH: knowledge points, a hint, LaTeX-clean steps in the scan's language, and the badge."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from app.analysis.enrichment import hint, knowledge_points
from app.llm.outputs import SolveStep
from app.pipeline.badge import badge
from app.pipeline.context import PipelineContext
from app.pipeline.prompts.localized import localize_step
from app.pipeline.state import SolveState

_MATH_DELIMITERS = re.compile(r"^\s*(?:\$\$?|\\\(|\\\[)(.*?)(?:\$\$?|\\\)|\\\])\s*$", re.S)


def localized(step: SolveStep, language: str) -> SolveStep:
    description = localize_step(step.description, "zh" if language == "zh" else "en")
    return step.model_copy(update={"description": description})


def clean_latex(step: SolveStep) -> SolveStep:
    """Steps carry bare LaTeX: the app adds its own delimiters."""
    if not step.latex:
        return step
    match = _MATH_DELIMITERS.match(step.latex)
    return step.model_copy(update={"latex": match.group(1).strip() if match else step.latex})


async def enrich(state: SolveState, runtime: Runtime[PipelineContext]) -> dict[str, Any]:
    status, reason = badge(state, runtime.context)
    update: dict[str, Any] = {
        "knowledge_points": knowledge_points(state.topics, state.language, state.subject),
        "hint": hint(state.topics, state.language, state.subject),
        "verification_status": status,
        "caution_reason": reason,
    }
    if state.solution is not None:
        steps = [localized(clean_latex(s), state.language) for s in state.solution.steps]
        update["solution"] = state.solution.model_copy(update={"steps": steps})
    return update
