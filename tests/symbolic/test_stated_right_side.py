"""A stated equation refutes only the equation it states (an independent tester, 2026-12-01):
"Solve 2x + 3 = 11 squared." refuted the right x = 59 ("substituting gives 121 ≠ 11"),
`incorrect` at confidence 1.0 on /v1/checks and `caution` on a scan both models got right.
Only a word that cannot change the right side may follow the last equation ("for x", "on
the board", "with care"), and no clause may state another equation ("use 13 instead of
11"); a value that breaks a plainly stated equation is still wrong."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer
from app.symbolic.stated import refutes


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("Solve 2x + 3 = 11 squared.", "x = 59"),
        ("Solve 4x = 2 squared", "x = 1"),
        ("Solve 3x = 2 dozen", "x = 8"),
        ("Solve x + 1 = 3 tens", "x = 29"),
        ("Solve 2x + 3 = 11 thousand.", "x = 10997/2"),
        ("Solve 2x + 3 = 11 times 3.", "x = 15"),
        ("Solve 2x + 3 = 11 plus 2.", "x = 5"),
        ("Solve 2x + 3 = 11 minus x.", "x = 8/3"),
        ("Solve 2x + 3 = 11 factorial.", "x = 19958397/2"),
        ("Solve 2x = 6 halved", "x = 3/2"),
        ("Solve x/2 = 3 doubled", "x = 12"),
        ("解方程：3x = 12的一半", "x = 2"),
        ("解方程：x + 5 = 20的3倍", "x = 55"),
        ("解方程 2x = 10的平方", "x = 50"),
        ("Solve 2x + 3 = 11, but use 13 instead of 11.", "x = 5"),
        ("Solve 2x + 3 = 11 with 13 rather than 11.", "x = 5"),
        ("Solve 2x + 3 = 11, swapping 11 for 13.", "x = 5"),
        ("Solve 2x + 3 = 11 after adding 2 to the right side.", "x = 5"),
        ("Solve 2x + 3 = 11 where 2x means 2 to the power x.", "x = 3"),
        # a second tester: any word may change it, so only harmless ones may follow
        ("解方程 x + 5 = 20万", "x = 199995"),
        ("解方程 x + 5 = 20打", "x = 235"),
        ("Solve x + 5 = 20 pairs", "x = 35"),
        ("Solve x + 5 = 2 gross", "x = 283"),
        ("Solve 2x + 3 = 11 sq.", "x = 59"),
        ("Solve x + 5 = 20 negated", "x = -25"),
        # a third (2026-12-02): words after the equation that alter a part of it
        ("Solve 2x + 3 = 11 with coefficient 4", "x = 2"),
        ("Solve 2x + 3 = 11 with a coefficient of 4 on x", "x = 2"),
        ("Solve 2x + 3 = 11 with the coefficient of x tripled", "x = 4/3"),
        ("Solve 2x + 3 = 11, doubling the coefficient first", "x = 2"),
        ("Solve 2x + 3 = 11 with constant 5", "x = 3"),
        ("Solve 2x + 3 = 11 with the sign of the constant reversed", "x = 7"),
        ("解方程 2x+3=11，x的系数扩大到原来的2倍", "x = 2"),
        ("Solve 2x + 3 = 11 on a 12-hour clock", "x = 10"),
        ("Solve 2x + 3 = 11 on a clock with 12 hours", "x = 10"),
        ("Solve 2x + 3 = 11 in clock arithmetic (12 hours)", "x = 10"),
    ],
)
def test_a_right_side_the_words_change_refutes_nothing(problem: str, answer: str) -> None:
    assert refutes(problem, answer) is None
    assert check_answer(problem, answer).verdict != "reject"


@pytest.mark.parametrize(
    "problem",
    [
        "Solve 2x + 3 = 11.",
        "Solve 2x + 3 = 11 for x.",
        "解方程：2x+3=11",
        "Solve 2x + 3 = 11, then double it",  # x = 5 is still not x
        "Solve 2x + 3 = 11 with great enthusiasm",
    ],
)
def test_a_plainly_stated_equation_still_refutes(problem: str) -> None:
    assert refutes(problem, "x = 5") == "substituting gives 13 ≠ 11"
