"""RETRIEVE: similar solved problems; the same problem's known answer becomes ground truth."""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from app.pipeline.context import PipelineContext
from app.pipeline.state import SolveState

log = logging.getLogger(__name__)


async def retrieve(state: SolveState, runtime: Runtime[PipelineContext]) -> dict[str, Any]:
    retriever = runtime.context.retriever
    if retriever is None:
        return {}
    try:
        examples = await retriever.similar(state.problem_text, runtime.context.top_k)
    except Exception:  # the bank is an aid: a failed lookup must not fail the request
        log.exception("problem bank lookup failed")
        return {}
    same = next((e for e in examples if e.same_problem), None)
    return {"examples": examples, "ground_truth": same.final_answer if same else None}
