"""Division by zero is read, as having no value (left open in stop 40's note): "12 ÷ 0 = ?",
"5 / 0" were not read at all, so two models agreeing on 0 verified it. Both readings (ours and
sympy's) must find the division by zero; then the answer is "undefined", a number (∞ too) is
wrong, and any other answer ends the check (a conclusive abstention: no model approves it).
Only plain arithmetic may have no value: an equation, a condition or a question about such a
value ("as a percent", "round …") is still not read."""

from __future__ import annotations

import httpx
import pytest

from app.llm.hedges import hedges
from app.symbolic.checker import check_answer
from app.symbolic.problem import extract_problem
from app.symbolic.solver import solve_text
from solveverify_bench.fake_llm import FakeLLMServer, Reply
from tests.fixtures.checks import check
from tests.fixtures.fake_llm import sdk_model
from tests.fixtures.providers import verdict_json

NO_VALUE = [
    "12 ÷ 0 = ?",
    "What is 5/0?",
    "0 ÷ 0 = ?",
    "10 ÷ (5 - 5) = ?",
    "What is 5/0 + 2?",
    "12除以0等于多少？",
    "12 ÷ 0 = ( )",
]


@pytest.mark.parametrize("problem", NO_VALUE)
def test_the_solver_answers_undefined(problem: str) -> None:
    solution = solve_text(problem)
    assert solution is not None and solution.final_answer == "undefined", problem


@pytest.mark.parametrize("problem", NO_VALUE)
@pytest.mark.parametrize(
    "answer", ["undefined", "Undefined.", "It is undefined", "12 ÷ 0 is undefined", "无意义"]
)
def test_saying_it_has_no_value_is_right(problem: str, answer: str) -> None:
    assert check_answer(problem, answer).verdict == "approve", (problem, answer)


@pytest.mark.parametrize("problem", NO_VALUE)
@pytest.mark.parametrize("answer", ["0", "12", "-1", "∞", "infinity", "$0$"])
def test_a_number_is_wrong(problem: str, answer: str) -> None:
    assert check_answer(problem, answer).verdict == "reject", (problem, answer)


@pytest.mark.parametrize(
    "answer", ["undefined or 0", "x = 0", "cannot be determined", "0 (undefined)", "maybe 0", "1/0"]
)
def test_anything_else_ends_the_check(answer: str) -> None:
    result = check_answer("12 ÷ 0 = ?", answer)
    assert (result.verdict, result.conclusive) == ("abstain", True), (answer, result)


@pytest.mark.parametrize(
    "problem",
    [
        "Solve x = 5/0",
        "x/0 = 3",
        "If x = 3, what is 5/0?",
        "Solve x + 1/0 > 2",
        "What is 1/0 as a decimal?",
        "Round 5/0 to 2 decimal places",
        "Simplify 6/0",
        "What is 0^0?",  # 1 or undefined: conventions differ
        "1/0 + 9^9^9 = ?",  # a part too large to evaluate is no reading either
    ],
)
def test_only_plain_arithmetic_may_have_no_value(problem: str) -> None:
    assert extract_problem(problem) is None, problem


def test_arithmetic_with_a_value_is_unchanged() -> None:
    assert check_answer("12 ÷ 4 = ?", "3").verdict == "approve"
    assert check_answer("12 ÷ 4 = ?", "undefined").verdict == "abstain"
    assert check_answer("(1/2 - 1/2) × 3 = ?", "0").verdict == "approve"  # 0 as a factor


async def test_an_echoing_verifier_does_not_make_zero_correct(
    client: httpx.AsyncClient, with_clients, fake_llm: FakeLLMServer
) -> None:
    """The defect itself, through /v1/checks: a model that approves whatever it is shown."""
    fake_llm.reset()
    with_clients(sdk_model(fake_llm))
    fake_llm.default = Reply(verdict_json(True, 0.99, "0"))
    wrong = await check(client, "12 ÷ 0 = ?", "0")
    assert (wrong["verdict"], wrong["method"]) == ("incorrect", "programmatic"), wrong
    right = await check(client, "12 ÷ 0 = ?", "undefined")
    assert (right["verdict"], right["method"]) == ("correct", "programmatic"), right
    fake_llm.default = Reply(verdict_json(True, 0.99, "undefined, or 0"))
    unread = await check(client, "12 ÷ 0 = ?", "undefined, or 0")
    assert unread["verdict"] == "unknown", unread


@pytest.mark.parametrize(
    "problem",
    [
        "Ann says 12 ÷ 0 = 0. What is 12 ÷ 0?",  # words the reader does not read (a second
        "Compute 12 ÷ 0 for me.",  # tester: two models agreeing on 0 verified these)
        "What is 12 divided by zero, please tell me",
    ],
)
def test_a_division_by_zero_the_reader_cannot_read_ends_the_check(problem: str) -> None:
    result = check_answer(problem, "0")
    assert (result.verdict, result.conclusive) == ("abstain", True), result


def test_no_value_in_words_is_no_negation() -> None:
    assert not hedges("not defined", "12 ÷ 0 = ?")
    assert not hedges("does not exist", "12 ÷ 0 = ?")
    assert hedges("not 13", "How many apples are there?")
