"""MATH's "Find all the solutions to …" and "Enter all the solutions, separated by commas."
ask for the solutions, as "Solve …" does; "all" elsewhere ("= 0 for all x", an identity) is
still a word the reader does not know, and it abstains."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer

QUADRATIC = (
    r"Find all the solutions to \[x^2 - 4 = 0.\]Enter all the solutions, separated by commas."
)


@pytest.mark.parametrize(
    ("problem", "answer", "verdict"),
    [
        (QUADRATIC, "-2, 2", "approve"),
        (QUADRATIC, "2, -2", "approve"),
        (QUADRATIC, "2, 3", "reject"),
        (QUADRATIC, "2", "reject"),  # a solution is missing
        ("Find all solutions to x^2 - 4 = 0.", "-2, 2", "approve"),
        ("Determine all the solutions of x^2 - 4 = 0.", "2, -2", "approve"),
        (r"Find all the solutions to \[\sqrt{x} + 2 = x.\]", "4", "approve"),
        (r"Find all the solutions to \[\sqrt{x} + 2 = x.\]", "1, 4", "reject"),
        ("Find all positive solutions to x^2 = 4", "2", "approve"),  # its condition is read
        ("Solve x^2 = 4. Enter all the solutions, separated by commas.", "2, -2", "approve"),
    ],
)
def test_find_all_the_solutions(problem: str, answer: str, verdict: str) -> None:
    assert check_answer(problem, answer).verdict == verdict


@pytest.mark.parametrize(
    "problem",
    [
        "Find a such that (a - 1)x = 0 for all x.",  # an identity in x, not an equation
        "Find all x for which x^2 = 4 holds for all y.",
        "Enter all the solutions, separated by commas.",  # nothing to solve
    ],
)
def test_all_elsewhere_is_not_read(problem: str) -> None:
    assert check_answer(problem, "1").verdict == "abstain"
