"""RETRIEVE: similar solved problems; the same problem's known answer becomes ground truth."""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from app.outage import Outage
from app.pipeline.context import PipelineContext
from app.pipeline.state import Example, SolveState
from app.retrieval.bank_answer import known_answer

# The bank is an aid: while it cannot be read (a database outage) scans go on without it.
bank_outage = Outage(
    logging.getLogger(__name__),
    down="problem bank unreadable; scans are solved without similar problems",
    back="problem bank readable again",
)


async def similar_problems(ctx: PipelineContext, text: str) -> list[Example] | None:
    """The bank's problems like this one; None without a bank or while it cannot be read."""
    if ctx.retriever is None:
        return None
    try:
        examples = await ctx.retriever.similar(text, ctx.top_k)
    except Exception as exc:  # the bank is an aid: a failed lookup must not fail the request
        bank_outage.failed(exc)
        return None
    bank_outage.answered()
    return examples


async def retrieve(state: SolveState, runtime: Runtime[PipelineContext]) -> dict[str, Any]:
    examples = await similar_problems(runtime.context, state.problem_text)
    if examples is None:
        return {}
    return {"examples": examples, "ground_truth": known_answer(examples)}
