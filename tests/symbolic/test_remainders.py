"""Division with a remainder (an independent tester, 2026-12-01: "17 ÷ 5 = ? 余 ?", "What is
the remainder when 17 is divided by 5?" and "17 mod 5" were not read, so an echoing verifier
verified "3 余 3" and "3"). Whole numbers, a divisor that is not 0; the quotient and the
remainder as a pair, or the remainder alone where only it is asked."""

from __future__ import annotations

import pytest

from app.llm.hedges import hedges
from app.symbolic.checker import answers_equivalent, check_answer
from app.symbolic.solver import solve_text

BOTH = [
    "17 ÷ 5 = ? 余 ?",
    "17 ÷ 5 = (  )……(  )",
    "17÷5=□……□",
    "Find the quotient and remainder when 17 is divided by 5",
]
ALONE = ["What is the remainder when 17 is divided by 5?", "17除以5的余数是多少？", "17 mod 5"]


@pytest.mark.parametrize("problem", BOTH)
@pytest.mark.parametrize(
    "answer", ["3 余 2", "3……2", "3...2", "3 R 2", "3 r2", "3 remainder 2", "商3余2"]
)
def test_the_quotient_and_remainder_are_right(problem: str, answer: str) -> None:
    assert check_answer(problem, answer).verdict == "approve", (problem, answer)


@pytest.mark.parametrize("problem", BOTH)
@pytest.mark.parametrize("answer", ["3 余 3", "2 R 7", "4……-3"])
def test_another_pair_is_wrong(problem: str, answer: str) -> None:
    assert check_answer(problem, answer).verdict != "approve", (problem, answer)


@pytest.mark.parametrize("answer", ["3 余 3", "2 R 7"])
def test_a_wrong_pair_is_incorrect(answer: str) -> None:
    assert check_answer("17 ÷ 5 = ? 余 ?", answer).verdict == "reject"


@pytest.mark.parametrize("answer", ["3.4", "3", "2", "3 余"])
def test_not_a_pair_ends_the_check(answer: str) -> None:
    result = check_answer("17 ÷ 5 = ? 余 ?", answer)
    assert (result.verdict, result.conclusive) == ("abstain", True), answer


@pytest.mark.parametrize("problem", ALONE)
def test_the_remainder_alone(problem: str) -> None:
    solution = solve_text(problem)
    assert solution is not None and solution.final_answer == "2"
    assert check_answer(problem, "2").verdict == "approve"
    assert check_answer(problem, "余数是2").verdict == "approve"
    assert check_answer(problem, "3").verdict == "reject"


def test_the_solver_writes_the_pair_as_the_problem_does() -> None:
    assert [solve_text(p).final_answer for p in BOTH] == ["3 余 2", "3 余 2", "3 余 2", "3 R 2"]
    assert solve_text("17 ÷ 0 = ? 余 ?") is None


def test_a_pair_is_no_range() -> None:
    assert not hedges("3……2", "17÷5=□……□")
    assert hedges("8...9", "How many apples are there?")  # a range where one value is asked
    assert answers_equivalent("3 余 2", "3 R 2", "17 ÷ 5 = ? 余 ?") is True
    assert answers_equivalent("3 余 2", "3 R 3", "17 ÷ 5 = ? 余 ?") is False
