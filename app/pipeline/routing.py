"""Conditional edges. Each returns the name of the next node.

They are coroutines though they never wait: LangGraph runs a plain function of an async graph
in a thread pool, a thread hop per edge for a few comparisons."""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime

from app.pipeline.badge import standing
from app.pipeline.context import PipelineContext
from app.pipeline.state import SolveState


def next_after_verify(state: SolveState, ctx: PipelineContext) -> Literal["enrich", "solve"]:
    """The design's retry edge (docs/design-notes.md §3) with the uncertain band: verified →
    enrich; could not verify (None: timeout, skip, budget) → enrich; uncertain (passed with
    confidence in [uncertain_threshold, verified)) or failed → another provider while
    attempts remain (< max_attempts); else enrich (the best attempt, with a caution flag)."""
    current = standing(state, ctx)
    if current in ("verified", "unverified"):
        return "enrich"
    if state.attempt_count < ctx.verify.max_attempts:
        return "solve"
    return "enrich"


async def should_retry_after_verify(
    state: SolveState, runtime: Runtime[PipelineContext]
) -> Literal["enrich", "solve"]:
    """Thresholds are read from the run's context, so a changed setting applies to the next
    run."""
    return next_after_verify(state, runtime.context)


async def route_after_ocr(state: SolveState) -> Literal["analyze", "__end__"]:
    """A photo read only in part is not solved: it would be a different problem. Nor is one
    whose two readings (the OCR's, a model's) are not the same problem."""
    readable = state.problem_text.strip() and not state.error and not state.ocr_unread
    return "analyze" if readable and not state.readings_disagree else "__end__"


async def route_after_solve(state: SolveState) -> Literal["quick_verify", "enrich"]:
    """No provider produced a (new) solution: nothing to verify, report what we have."""
    return "quick_verify" if state.solved_this_round else "enrich"
