"""An independent tester's breaks of the new readers (2026-12-02): inverse trigonometric values
outside an equation, non-ASCII letters in a word, approximate answers, sympy's own errors and a
simplify that ran for minutes."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer
from app.symbolic.solver import solve_text

ARCTAN = (
    r"Find all the solutions to \[\arctan \frac{1}{x} + \arctan \frac{1}{x + 2} = "
    r"\arctan \frac{4}{x + 3}.\]Enter all the solutions, separated by commas."
)


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("What is arccos(0)?", "90"),  # 90° or π/2: no unit stated
        (r"Evaluate $\arccos\left(-\frac{1}{2}\right)$.", "120"),
        ("Calculate 3 arctan(1).", "135"),
        ("计算 arccos(0)。", "90"),
    ],
)
def test_an_inverse_value_without_a_unit_is_not_read(problem: str, answer: str) -> None:
    assert check_answer(problem, answer).verdict == "abstain"
    assert solve_text(problem) is None


@pytest.mark.parametrize(
    "problem",
    [
        "How many ways can the letters of the word İSTANBUL be arranged?",
        "How many ways can the letters of the word MIſſISSIPPI be arranged?",
    ],
)
def test_a_word_with_letters_beyond_ascii_is_not_read(problem: str) -> None:
    assert check_answer(problem, "40320").verdict == "abstain"
    assert solve_text(problem) is None


@pytest.mark.parametrize(
    ("problem", "answer"),
    [("Solve x^5 = 30", "x ≈ 2"), ("Solve ln(x) + x = 3", "x ≈ 11/5")],
)
def test_an_approximate_root_is_not_refuted(problem: str, answer: str) -> None:
    assert check_answer(problem, answer).verdict == "abstain"


def test_sympys_own_error_is_no_verdict() -> None:
    problem = r"Solve $\arcsin\frac35 + \arcsin\frac45 = \arcsin x$."
    assert check_answer(problem, "2").verdict in ("abstain", "reject")
    solve_text(problem)  # no exception


def test_a_root_in_a_nested_radical_is_judged_at_once() -> None:
    # √(14 + 6√5) − 3 is √5: numerically a root, so not refuted and not simplified for minutes
    assert check_answer(ARCTAN, r"\sqrt{14+6\sqrt5}-3").verdict == "abstain"
