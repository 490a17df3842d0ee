"""A model's final answer must be a short answer: no echoed prompt, markup or prose."""

from __future__ import annotations

import json

import pytest

from app.llm.answer_hygiene import unusable_answer_reason
from app.pipeline.graph import run_pipeline
from app.pipeline.state import SolveState
from tests.fixtures.providers import solution_json, solver
from tests.fixtures.scripted import ScriptedClient

PROBLEM = (
    "A baker fills 7 trays with 13 muffins each and sells all but 5 muffins. "
    "How many muffins does the baker sell?"
)
# What SmolLM2-135M really put into final_answer.
SMOL_ECHO = "}\n\nThe answer is: 2.\n\nThe original problem was: " + PROBLEM


@pytest.mark.parametrize(
    "answer",
    [
        "86",
        "x = 4",
        "x = 1, y = 2",
        "x = 1\ny = 2\nz = 3",
        r"\frac{19}{12}",
        r"\boxed{4}",
        "1 7/12",
        "x = ±√2",
        "[1, 3)",
        "50%",
        "-14",
        "$12.50",
        "86 muffins",
        "The baker sells 86 muffins.",
        "3:4",
    ],
)
def test_short_answers_are_usable(answer: str) -> None:
    assert unusable_answer_reason(answer, problem=PROBLEM) is None


@pytest.mark.parametrize("answer", ["86 or 87", "maybe 86", "86 还是 87", "86, 87", "86 or more"])
def test_a_guess_is_no_answer(answer: str) -> None:
    """(More wordings in test_hedges.py.)"""
    assert unusable_answer_reason(answer, problem=PROBLEM) == "answer hedges between values"


def test_control_characters_are_no_answer() -> None:
    assert unusable_answer_reason("\x00", problem=PROBLEM) == "answer contains control characters"
    assert unusable_answer_reason("8\x076", problem=PROBLEM) == "answer contains control characters"
    lost = unusable_answer_reason("86\ufffd", problem=PROBLEM)  # a character lost on the way
    assert lost == "answer contains control characters"


def test_the_limit_is_a_setting() -> None:
    assert unusable_answer_reason("1" * 50, max_chars=40) == "answer longer than 40 characters"
    assert unusable_answer_reason("1" * 50, max_chars=60) is None


async def test_solve_skips_a_soup_reply_and_asks_the_next_provider(graph, make_context) -> None:
    echo = ScriptedClient("tiny", [solution_json(SMOL_ECHO)], capabilities=frozenset({"solve"}))
    ctx = make_context(echo, solver("capable", "86"), symbolic=False)
    state = await run_pipeline(graph, ctx, SolveState(problem_text=PROBLEM))
    assert state.solution is not None and state.solution.final_answer == "86"
    assert state.provider == "capable"
    assert state.provider_history == ["tiny", "capable"]
    assert any(e.startswith("tiny: no usable answer (answer") for e in state.solve_errors)
    # the soup was never an attempt, so it was never verified or shown
    assert [a.final_answer for a in state.attempts] == ["86"]


async def test_solve_skips_a_hedge_and_asks_the_next_provider(graph, make_context) -> None:
    unsure = ScriptedClient(
        "unsure", [solution_json("86 or 87")], capabilities=frozenset({"solve"})
    )
    ctx = make_context(unsure, solver("capable", "86"), symbolic=False)
    state = await run_pipeline(graph, ctx, SolveState(problem_text=PROBLEM))
    assert state.solution is not None and state.solution.final_answer == "86"
    assert state.provider_history == ["unsure", "capable"]
    assert "unsure: no usable answer (answer hedges between values)" in state.solve_errors


async def test_only_soup_means_no_answer(graph, make_context) -> None:
    echo = ScriptedClient(
        "tiny", [solution_json("<answer>2</answer>")], capabilities=frozenset({"solve"})
    )
    state = await run_pipeline(
        graph, make_context(echo, symbolic=False), SolveState(problem_text=PROBLEM)
    )
    assert state.solution is None
    assert state.verification_status == "unverified"
    assert "markup" in " ".join(state.solve_errors)


async def test_a_number_given_as_a_json_number_is_an_answer(graph, make_context) -> None:
    numeric = ScriptedClient(
        "numeric",
        [json.dumps({"steps": [{"description": "7 × 13 − 5"}], "final_answer": 86})],
        capabilities=frozenset({"solve"}),
    )
    ctx = make_context(numeric, symbolic=False)
    state = await run_pipeline(graph, ctx, SolveState(problem_text=PROBLEM))
    assert state.solution is not None and state.solution.final_answer == "86"
    assert state.provider == "numeric"
