"""ENRICH: knowledge points, a hint, LaTeX-clean steps in the scan's language, and the badge.

With a model configured, one call asks for knowledge points and a hint in the scan's language,
under the short label timeout. ANALYZE starts it (it needs only the subject and grade), so it
runs while SOLVE and QUICK_VERIFY wait on their models; ENRICH reads its reply. Its valid
labels win; else ANALYZE's model knowledge points, else the rule-based ones (which abstain
when unsure). Without a model, no call is made.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from langgraph.runtime import Runtime

from app.analysis.classifier import Language
from app.analysis.enrichment import hint, knowledge_points
from app.llm.outputs import EnrichmentOutput, SolveStep, schema_of
from app.pipeline.badge import badge
from app.pipeline.context import PipelineContext
from app.pipeline.labels import ask_for_labels, labelling_client, read_enrichment
from app.pipeline.prompts import enrich as prompts
from app.pipeline.prompts.localized import localize_step
from app.pipeline.state import SolveState

_MATH_DELIMITERS = re.compile(r"^\s*(?:\$\$?|\\\(|\\\[)(.*?)(?:\$\$?|\\\)|\\\])\s*$", re.S)

ENRICH_CALL = "enrich-labels"  # the task's name: a run's own call, found by tests and in dumps


def localized(step: SolveStep, language: str) -> SolveStep:
    description = localize_step(step.description, "zh" if language == "zh" else "en")
    return step.model_copy(update={"description": description})


def clean_latex(step: SolveStep) -> SolveStep:
    """Steps carry bare LaTeX: the app adds its own delimiters."""
    if not step.latex:
        return step
    match = _MATH_DELIMITERS.match(step.latex)
    return step.model_copy(update={"latex": match.group(1).strip() if match else step.latex})


def ask_model(
    ctx: PipelineContext, problem: str, language: Language, subject: str, grade_band: str
) -> asyncio.Task[dict[str, Any] | None] | None:
    """Start the label call (None without a model): ANALYZE starts it as soon as it knows the
    subject and grade (`PipelineContext.calls`), else ENRICH does."""
    client = labelling_client(ctx)
    if client is None:
        return None
    messages = prompts.build(problem, language, subject, grade_band)
    schema = schema_of(EnrichmentOutput)
    call = ask_for_labels(client, messages, schema, ctx.verify.label_timeout_s)
    return asyncio.create_task(call, name=ENRICH_CALL)


def _started(state: SolveState, ctx: PipelineContext) -> asyncio.Task[dict[str, Any] | None] | None:
    calls = ctx.calls
    if calls is not None and calls.enrichment is not None:
        asked, calls.enrichment = calls.enrichment, None
        return asked
    return ask_model(ctx, state.problem_text, state.language, state.subject, state.grade_band)


async def enrich(state: SolveState, runtime: Runtime[PipelineContext]) -> dict[str, Any]:
    asked = _started(state, runtime.context)
    try:
        status, reason = badge(state, runtime.context)
        update: dict[str, Any] = {"verification_status": status, "caution_reason": reason}
        if state.solution is not None:
            steps = [localized(clean_latex(s), state.language) for s in state.solution.steps]
            update["solution"] = state.solution.model_copy(update={"steps": steps})
        data = await asked if asked is not None else None
    finally:
        if asked is not None:
            asked.cancel()  # a no-op once done; stops the call if the work above raised
    answer = state.solution.final_answer if state.solution is not None else None
    model = read_enrichment(data, state.language, answer=answer, problem=state.problem_text)
    update["knowledge_points"] = (
        model.knowledge_points
        or state.knowledge_points  # ANALYZE's, from the model
        or knowledge_points(state.topics, state.language, state.subject)
    )
    update["hint"] = model.hint or hint(state.topics, state.language, state.subject)
    if asked is not None:
        update["model_calls"] = 1
    return update
