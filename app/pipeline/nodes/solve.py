"""SOLVE: ask the next provider on the subject's route that has not been tried yet."""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime
from pydantic import ValidationError

from app.llm.answer_hygiene import unusable_answer_reason
from app.llm.errors import CannotAnswer, ProviderError
from app.llm.outputs import SolveOutput, schema_of
from app.llm.registry import ProviderRegistry
from app.llm.structured import extract_json, salvage_string_field
from app.pipeline.context import PipelineContext
from app.pipeline.prompts import solve as prompts
from app.pipeline.state import SolveState
from app.retrieval.bank_answer import BANK_MODEL, BANK_PROVIDER, bank_solution


def parse_solution(data: dict[str, Any] | None, text: str) -> SolveOutput:
    """The solution JSON; from a reply cut off mid-object, at least its final answer."""
    try:
        return SolveOutput.model_validate(data)
    except ValidationError:
        answer = salvage_string_field(text, "final_answer")
        if answer is None:
            raise
        return SolveOutput(final_answer=answer)


async def solve(state: SolveState, runtime: Runtime[PipelineContext]) -> dict[str, Any]:
    registry = runtime.context.registry
    # A retry is an independent solve: the next solver never sees the rejected answer, which
    # would anchor it (and make a later agreement between the two worth nothing).
    messages = prompts.build(
        state.problem_text, state.language, [(e.question, e.solution) for e in state.examples]
    )
    if BANK_PROVIDER not in state.provider_history:
        banked = await _from_bank(state, runtime.context)
        if banked is not None:
            return banked
    tried: list[str] = []
    errors: list[str] = []
    while name := registry.next_solver(state.subject, [*state.provider_history, *tried]):
        tried.append(name)
        client = registry.get(name)
        started = time.perf_counter()
        try:
            # Each try is bounded by the provider's request timeout (SOLVEVERIFY_REQUEST_TIMEOUT_S).
            response = await client.generate(messages, json_schema=schema_of(SolveOutput))
            output = parse_solution(response.data or extract_json(response.text), response.text)
        except CannotAnswer as exc:
            errors.append(str(exc))
            continue
        except ProviderError as exc:
            errors.append(str(exc)[:200])
            continue
        except ValidationError:
            errors.append(f"{name}: the reply was not a solution in the requested JSON")
            continue
        # A reply whose final answer is prose, markup or the prompt echoed back is no answer.
        unusable = unusable_answer_reason(
            output.final_answer,
            problem=state.problem_text,
            max_chars=runtime.context.verify.answer_max_chars,
        )
        if unusable is not None:
            errors.append(f"{name}: no usable answer ({unusable})")
            continue
        return {
            "solution": output,
            "provider": response.provider,
            "model": response.model,
            "solve_latency_ms": (time.perf_counter() - started) * 1000,
            "attempt_count": state.attempt_count + 1,
            "solved_this_round": True,
            "provider_history": tried,
            "solve_errors": errors,
            "model_calls": _model_calls(registry, tried),
        }
    return {
        "solved_this_round": False,
        "provider_history": tried,
        "solve_errors": errors,
        "model_calls": _model_calls(registry, tried),
    }


async def _from_bank(state: SolveState, ctx: PipelineContext) -> dict[str, Any] | None:
    """The bank's worked solution when this very problem is in it (its ground truth then
    verifies it), once per scan; only an answer the checker can compare is offered."""
    solution = bank_solution(state.examples, state.ground_truth)
    if solution is None:
        return None
    try:
        comparable = await ctx.sandbox.equivalent(
            solution.final_answer, solution.final_answer, state.problem_text
        )
    except Exception:  # the bank is an aid: a failed comparison means the models solve it
        return None
    if comparable is not True:
        return None
    return {
        "solution": solution,
        "provider": BANK_PROVIDER,
        "model": BANK_MODEL,
        "solve_latency_ms": 0.0,
        "attempt_count": state.attempt_count + 1,
        "solved_this_round": True,
        "provider_history": [BANK_PROVIDER],
        "solve_errors": [],
        "model_calls": 0,
    }


def _model_calls(registry: ProviderRegistry, tried: list[str]) -> int:
    """Requests to model providers (the symbolic solver is not a model)."""
    return sum("verify" in registry.get(name).capabilities for name in tried)
