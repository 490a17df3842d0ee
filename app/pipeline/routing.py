"""Conditional edges. Each returns the name of the next node."""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime

from app.pipeline.badge import is_verified
from app.pipeline.context import PipelineContext
from app.pipeline.state import SolveState


def should_retry_after_verify(
    state: SolveState, runtime: Runtime[PipelineContext]
) -> Literal["enrich", "solve"]:
    """The design's retry edge (docs/design-notes.md, "retry edge"); thresholds are read from
    the run's context, so a changed setting applies to the next run."""
    verify = runtime.context.verify
    if is_verified(state, verify):
        return "enrich"  # answer verified correct
    if state.verify_passed is None:
        return "enrich"  # timeout/skip: proceed without verification
    if state.attempt_count < verify.max_attempts:
        return "solve"  # failed verification: retry with a different provider
    return "enrich"  # max retries reached: return with a caution flag


def route_after_ocr(state: SolveState) -> Literal["analyze", "__end__"]:
    return "analyze" if state.problem_text.strip() and not state.error else "__end__"


def route_after_solve(state: SolveState) -> Literal["quick_verify", "enrich"]:
    """No provider produced a (new) solution: nothing to verify, report what we have."""
    return "quick_verify" if state.solved_this_round else "enrich"
