"""An adversarial tester's findings: each input now gets its right answer, or an abstention.

A wrong answer marked verified, or a wrong correct/incorrect verdict, is the one failure the
symbolic path must never produce; abstaining (a model takes over) is always allowed.
"""

from __future__ import annotations

import pytest

from tests.symbolic.adversarial import (
    ABSTAIN,
    CORRECT,
    INCORRECT,
    UNKNOWN,
    assert_checked,
    assert_solved,
)

SOLVED = [
    # A1/A2: letters run together are a product (x·y), never a coefficient or a dropped word
    ("If x = 2 and y = 5, what is 3xy?", "30"),
    ("If a = 3 and b = 4, what is 2ab?", "24"),
    ("If x + y = 10 and x - y = 2, what is 2xy?", "48"),
    ("已知 x = 2，y = 5，求 xy + 1 的值", "11"),
    ("已知 x = 2，y = 5，求 3xy 的值", "30"),
    ("If x + y = 10 and x - y = 2, what is xy?", "24"),
    ("If 2x + 3 = 11, what is xx?", "16"),
    ("If a + b = 10 and a - b = 2, what is ab?", "24"),
    ("If a + b = 10 and a - b = 2, what is ba?", "24"),
    ("If a + b = 10 and a - b = 2, what is abc?", ABSTAIN),  # no c
    # A3: dividing by a fraction; ambiguous conventions abstain
    ("What is 3/4 ÷ 1/2?", "3/2"),
    ("What is \\frac{3}{4} \\div \\frac{1}{2}?", "3/2"),
    ("What is 3/4 \\div 1/2?", "3/2"),
    ("What is 1/2 ÷ 1/4?", "2"),
    ("What is 2/3 ÷ 4/5?", "5/6"),
    ("What is 5 ÷ 2/3?", "15/2"),
    ("What is 6 ÷ 1/2?", "12"),
    ("计算 3/4 ÷ 3/8", "2"),
    ("What is 1 1/2 ÷ 1/2?", "3"),
    ("What is 2 1/2 / 1/2?", ABSTAIN),
    ("What is 3/4 / 1/2?", ABSTAIN),
    ("What is 8 / 2(2+2)?", ABSTAIN),
    ("What is 6 ÷ 2(1+2)?", ABSTAIN),
    ("What is 1/2x when x = 4?", ABSTAIN),
    # A4/A13: words that change the mathematics are read or make the reader abstain
    ("What is the absolute value of -5?", ABSTAIN),
    ("Find the absolute value of -12.", ABSTAIN),
    ("What is the absolute value of 3 - 8?", ABSTAIN),
    ("What is the opposite of 5?", ABSTAIN),
    ("What is the reciprocal of 4?", ABSTAIN),
    ("What is the square of 3?", "9"),  # read since issue 27
    ("What is the cube of 2?", "8"),
    ("What is the square root of 16?", "4"),
    ("What is 3 + 4, doubled?", ABSTAIN),
    ("What is 3 + 4, tripled?", ABSTAIN),
    ("What is 8, halved?", ABSTAIN),
    ("What is 2/3 inverted?", ABSTAIN),
    ("What is 12 + 3 in binary?", ABSTAIN),
    ("What is 12 + 3 in hexadecimal?", ABSTAIN),
    ("What is 12 in Roman numerals?", ABSTAIN),
    ("What is 3 + 4 hours in minutes?", ABSTAIN),
    ("What is 3 + 4 in cm?", ABSTAIN),
    ("What is 3 + 4 in m?", ABSTAIN),
    ("What is 3 + 4 in thousands?", ABSTAIN),
    ("If 2x + 3 = 11, what is 3x in binary?", ABSTAIN),
    # A5: unknown function names
    ("cbrt(x) = 2", ABSTAIN),
    ("arcsin(x) = 1", ABSTAIN),
    ("asin(x) = 1", ABSTAIN),
    ("sec(x) = 1", ABSTAIN),
    ("cot(x) = 1", ABSTAIN),
    ("sgn(x) = 1", ABSTAIN),
    ("sign(x) = 1", ABSTAIN),
    ("sqr(x) = 9", ABSTAIN),
    ("fact(x) = 6", ABSTAIN),
    ("opposite(x) = 4", ABSTAIN),
    ("the opposite of x = 4", ABSTAIN),
    ("foo(x) = 3", ABSTAIN),
    ("floor(x) = 3", ABSTAIN),
    ("ceil(x) = 3", ABSTAIN),
    # A6/A7: disjunctions and negations of conditions
    ("x^2 = 4; x > 0 or x < -3", ABSTAIN),
    ("x^2 = 9 where x < -1 or x > 5", ABSTAIN),
    ("x^2 = 4 where x < 0 or x > 0", ABSTAIN),
    ("解方程 x² = 4，其中 x > 0 或 x < -3", ABSTAIN),
    ("x^2 = 4 where x > 0 is false", ABSTAIN),
    ("x^2 = 4 where x > 0 is wrong", ABSTAIN),
    ("x^2 = 4 where x > 0 fails", ABSTAIN),
    ("x^2 = 4 where x > 0 is impossible", ABSTAIN),
    ("x^2 = 4. Assume x > 0 is false.", ABSTAIN),
    # A8: the real domain of every sub-expression, also after simplification
    ("(sqrt(x))^2 = -9", "no solution"),
    ("sqrt(x)^2 = -1", "no solution"),
    ("sqrt(x)*sqrt(x) = -4", "no solution"),
    ("(x^(1/2))^2 = -4", "no solution"),
    ("sqrt(x)^4 = 16", "x = 4"),
    ("(sqrt(x))^2 = x", ABSTAIN),  # x ≥ 0, not every real
    # A9: identities with excluded values
    ("x/x = 1", ABSTAIN),
    ("(x-3)/(x-3) = 1", ABSTAIN),
    ("2x/x = 2", ABSTAIN),
    ("x^2/x = x", ABSTAIN),
    ("1/x - 1/x = 0", ABSTAIN),
    ("-1(x - 1)/(x - 1) = -1", ABSTAIN),  # once "no solution": solveset lost the identity
    # A10/A11/A12: percents of fractions, mixed numbers before a variable, spaced digits
    ("What is 3 1/2 % of 200?", "7"),
    ("What is 1/2 % of 200?", "1"),
    ("What is 7 % 3?", ABSTAIN),
    ("1 1/2 x = 3", ABSTAIN),
    ("2 1/2x = 5", ABSTAIN),
    ("What is 1 000 + 1?", "1001"),
    ("What is 12 345 × 2?", "24690"),
    ("x + 1 000 = 2 000", "x = 1000"),
    ("What is 1 000 000 / 1 000?", ABSTAIN),
    ("What is 2 3 + 1?", ABSTAIN),
    # A14: qualifiers of the asked solution
    ("x^2 - 5x + 6 = 0. Find the smaller solution.", "2"),
    ("x^2 - 5x + 6 = 0. Find the larger solution.", "3"),
    ("x^2 - 5x + 6 = 0. Find the bigger solution.", "3"),
    ("x^2 - 5x + 6 = 0. Find the lesser solution.", "2"),
    ("x^2 - 5x + 6 = 0. Give the larger value of x.", "3"),
    ("x^2 - 5x + 6 = 0. Find the first solution.", ABSTAIN),
    ("x^2 - 4 = 0. Find one solution.", ABSTAIN),
    ("x^2 - 4 = 0. Find a solution.", ABSTAIN),
    # A15: two questions, or a variable that is not in the problem
    ("Solve 2x + 3 = 11. What is 3 + 4?", ABSTAIN),
    ("Solve 2x + 3 = 11 for y.", ABSTAIN),
    # D: ambiguous conventions and unevaluated echoes
    ("What is 1 1/2^2?", ABSTAIN),
    ("What is 200 - 10%?", ABSTAIN),
    ("What is 0^0?", ABSTAIN),
    ("x^0 = 1", ABSTAIN),
    ("x^(1/3) = -2", ABSTAIN),
    ("What is sin(30)?", ABSTAIN),
    ("What is tan(45)?", ABSTAIN),
    ("What is 1000/3?", "1000/3"),
]


@pytest.mark.parametrize(("problem", "answer"), SOLVED)
def test_solver(problem: str, answer: str | None) -> None:
    assert_solved(problem, answer)


CHECKED = [
    ("If x = 2 and y = 5, what is 3xy?", "30", CORRECT),
    ("If x = 2 and y = 5, what is 3xy?", "3", INCORRECT),
    ("If x + y = 10 and x - y = 2, what is xy?", "x = 6, y = 4", UNKNOWN),
    ("If x + y = 10 and x - y = 2, what is xy?", "24", CORRECT),
    ("What is 3/4 ÷ 1/2?", "3/8", INCORRECT),
    ("What is the absolute value of -5?", "-5", UNKNOWN),
    ("cbrt(x) = 2", "x = 2", UNKNOWN),
    ("x^2 = 4; x > 0 or x < -3", "no solution", UNKNOWN),
    ("x^2 = 4 where x > 0 is false", "x = 2", UNKNOWN),
    ("(sqrt(x))^2 = -9", "x = -9", INCORRECT),
    ("sqrt(x)^4 = 16", "x = -4 or x = 4", INCORRECT),
    ("(sqrt(x))^2 = x", "all real numbers", UNKNOWN),
    ("x/x = 1", "all real numbers", UNKNOWN),
    ("What is 3 1/2 % of 200?", "30000", INCORRECT),
    ("x^2 - 5x + 6 = 0. Find the smaller solution.", "2", CORRECT),
    ("x^2 - 5x + 6 = 0. Find the smaller solution.", "x = 2 or x = 3", UNKNOWN | INCORRECT),
    ("x^2 - 4 = 0. Find one solution.", "2", UNKNOWN | CORRECT),
    ("What is 2 × 2?", "2 squared", UNKNOWN | CORRECT),
    ("x + 1 = x + 1", "all real numbers except 0", UNKNOWN | INCORRECT),
    ("x + 1 = x + 1", "all real numbers", CORRECT),
    ("Solve 199x = 1", "0.01", UNKNOWN | INCORRECT),
    ("What is 1/199?", "0.01", UNKNOWN | INCORRECT),
    ("What is 1/70?", "0.01", UNKNOWN | INCORRECT),
    # A rounded value is right only when rounding was asked or the answer is marked ≈.
    ("What is 2/3?", ".67", UNKNOWN),
    ("What is 2/3?", "0.67", UNKNOWN),
    ("What is 2/3?", "≈ .67", CORRECT),
    ("What is 2/3?", "约0.67", CORRECT),
    ("3/4 + 5/6 = ?", "1.6", UNKNOWN),
    ("Solve 2x + 3 = 11", "4e0", UNKNOWN | CORRECT),
    ("Solve 2x + 3 = 11", "4,0", UNKNOWN | CORRECT),
    ("What is 3 - 17?", "-7 2", UNKNOWN),
    ("What is -14?", "-7 2", UNKNOWN),
    ("x^2 - 5x + 6 = 0", "2, 2, 3", UNKNOWN | INCORRECT),
    ("What is 1000/3?", "333.3", UNKNOWN),
    ("What is 1000/3?", "approximately 333.3", CORRECT),
    ("What is 1000/3?", "about 1.6", UNKNOWN | INCORRECT),
    ("What is sin(30)?", "sin(30)", UNKNOWN),
    ("What is tan(45)?", "tan(45)", UNKNOWN),
    ("What is 8 / 2(2+2)?", "16", UNKNOWN),
    ("What is 8 / 2(2+2)?", "1", UNKNOWN),
    ("Solve 2x + 3 = 11. What is 3 + 4?", "7", UNKNOWN),
    *(
        ("Solve 2x + 3 = 11", f"4 {word}", UNKNOWN)
        for word in [
            "thousand",
            "million",
            "billion",
            "hundred",
            "lakh",
            "dozen",
            "percent",
            "cubed",
            "squared",
            "tenths",
            "halves",
            "pairs",
        ]
    ),
    ("Solve 2x + 3 = 11", "4", CORRECT),
]


@pytest.mark.parametrize(("problem", "candidate", "allowed"), CHECKED)
def test_checker(problem: str, candidate: str, allowed: set[str]) -> None:
    assert_checked(problem, candidate, allowed)
