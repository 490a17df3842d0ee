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


@pytest.mark.parametrize(
    ("problem", "remainder"),
    [
        ("Find the remainder when $1 + 2 + 2^2 + 2^3$ is divided by 7.", "1"),  # 15
        ("What is the remainder when 2^10 + 3 is divided by 7?", "5"),  # 1027
        ("What is the remainder when $2^{2005} + 3^{2005}$ is divided by 5?", "0"),
        ("What is the remainder when 3 × 5^20 is divided by 4?", "3"),
        ("Find the remainder when 15 - 4 × 3 is divided by 2.", "1"),  # × before -
        ("2^10+3除以7的余数是多少", "5"),
    ],
)
def test_the_remainder_of_a_sum_or_product_of_powers(problem: str, remainder: str) -> None:
    assert check_answer(problem, remainder).verdict == "approve", problem
    assert check_answer(problem, str(int(remainder) + 1)).verdict == "reject", problem


@pytest.mark.parametrize(
    "problem",
    [
        "2^10 + 3 mod 7",  # 2^10 + (3 mod 7)?
        "What is the remainder when 2^5 - 40 is divided by 7?",  # below 0: two conventions
        "What is the remainder when 10^999 * 10^999 is divided by 7?",  # too many digits
        "What is the remainder when 2.5 + 1 is divided by 7?",
    ],
)
def test_a_dividend_not_read_beyond_doubt(problem: str) -> None:
    assert check_answer(problem, "1").verdict == "abstain", problem
