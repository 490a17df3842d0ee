"""Claims between numbers to judge (an independent tester, 2026-12-01: "True or false: 2 + 2 =
5" was not read, so an echoing verifier verified "True"). One relation between two rational
values, each side read by both readers, answered as asked: true / false, yes / no, 对 / 错."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer
from app.symbolic.solver import solve_text


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("True or false: 2 + 2 = 5", "false"),
        ("True or false: 2 + 2 = 4", "true"),
        ("2 + 2 = 5, true or false?", "false"),
        ("Is 3/4 > 5/7?", "yes"),
        ("Is 2 + 2 = 5?", "no"),
        ("Is 0.1 + 0.2 = 0.3?", "yes"),  # exact arithmetic, as at school
        ("Is 1/3 = 0.33?", "no"),
        ("Is 5 ≠ 5?", "no"),
        ("判断：2+2=5（ ）", "错"),
        ("2 + 2 = 5 对吗？", "错"),
    ],
)
def test_a_claim_is_judged_as_asked(problem: str, answer: str) -> None:
    solution = solve_text(problem)
    assert solution is not None and solution.final_answer == answer, problem


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("false", "approve"),
        ("False.", "approve"),
        ("no", "approve"),
        ("错", "approve"),
        ("×", "approve"),
        ("true", "reject"),
        ("yes", "reject"),
        ("对", "reject"),
        ("√", "reject"),
    ],
)
def test_any_word_for_true_or_false_is_checked(answer: str, verdict: str) -> None:
    assert check_answer("True or false: 2 + 2 = 5", answer).verdict == verdict, answer


def test_anything_else_ends_the_check() -> None:
    result = check_answer("True or false: 2 + 2 = 5", "maybe")
    assert (result.verdict, result.conclusive) == ("abstain", True)


@pytest.mark.parametrize(
    "problem",
    [
        "Is x + 1 > x?",  # an unknown
        "Is 1 < 2 < 3?",  # a chain
        "Is √2 < 1.415?",  # an irrational side
        "True or false: 4 + 3 = 12 in base 5",
        "Is 6/2(1+2) = 9?",  # read two ways
        "Is 12 ÷ 0 = 0?",  # a side with no value
    ],
)
def test_claims_the_reader_is_not_sure_of_are_not_read(problem: str) -> None:
    assert solve_text(problem) is None, problem
