"""A third adversarial round (F3–F5): the form a problem asks for, quotients with remainders,
and operation words whose operand is not a plain number standing alone.

- "Simplify 6/8" asks for 3/4: 12/16 or 6/8 is the right value but no answer to the question
  (incorrect, as a teacher marks it); 0.75 or 1 1/2 is another form (not judged). A root is
  simplest as c√n/d with n square-free. "Factor" asks for a product of factors over the
  integers that factor no further: x(2x + 4), (2x - 4)(2x + 4), 4(x^2 - 4) are incorrect.
- "17÷5=？……？" asks for a quotient and a remainder: an ellipsis left in a problem is refused.
- "the quotient of 12 and 4 ÷ 2", "the square root of 196 + 4", "3/4 of 60 + 4", "25% of 80 +
  20", "16 + 9的算术平方根", "2\\frac{1}{2}^2": which operation comes first is open; refused.
"""

from __future__ import annotations

import pytest

from app.symbolic.checker import answers_equivalent
from tests.symbolic.adversarial import (
    ABSTAIN,
    CORRECT,
    INCORRECT,
    UNKNOWN,
    assert_checked,
    assert_solved,
)

SOLVED = [
    # F3: the simplest form
    ("Simplify 6/8.", "3/4"),
    ("化简：6/8", "3/4"),
    ("Simplify 12/18.", "2/3"),
    ("Simplify \\sqrt{18}.", "3*sqrt(2)"),
    ("Factor 2x^2 + 4x.", "2*x*(x + 2)"),
    ("Factor 4x^2 - 16.", "4*(x - 2)*(x + 2)"),
    ("Factor 12.", ABSTAIN),  # 2^2 × 3, not 12
    ("Expand 6/8.", ABSTAIN),
    ("Simplify 0.5/1.5.", ABSTAIN),  # a fraction or a decimal?
    # F4: a quotient and a remainder
    ("计算：17÷5=？……？", ABSTAIN),
    ("17÷5=？……？", "3 余 2"),  # read since (test_remainders.py)
    ("17÷5=（ ）……（ ）", "3 余 2"),
    ("17除以5商是多少余数是多少", ABSTAIN),
    # read since (tests/symbolic/test_remainders.py): the quotient and the remainder
    ("17 ÷ 5 = ? R ?", "3 R 2"),
    ("What are the quotient and remainder when 17 is divided by 5?", "3 R 2"),
    ("What is 0.333... as a fraction?", "1/3"),  # a repeating decimal is still read
    # F5: an operand that is not a plain number standing alone
    ("What is the quotient of 12 and 4 ÷ 2?", ABSTAIN),
    ("What is the quotient of 12 and 4÷2?", ABSTAIN),
    ("What is the difference of 10 and 4 - 1?", ABSTAIN),
    ("What is the product of 3 and 4 + 2?", ABSTAIN),
    ("What is the square root of 196 + 4?", ABSTAIN),
    ("What is the square root of 16 / 4?", ABSTAIN),
    ("What is the cube root of 27 + 37?", ABSTAIN),
    ("What is 3/4 of 60 + 4?", ABSTAIN),
    ("What is 25% of 80 + 20?", ABSTAIN),
    ("16 + 9的算术平方根是多少？", ABSTAIN),
    ("16+9的算术平方根是多少？", ABSTAIN),
    ("2\\frac{1}{2}^2", ABSTAIN),
    ("What is 2\\frac{1}{2}^2?", ABSTAIN),
    ("What is 2½^2?", ABSTAIN),
    ("What is 2½²?", ABSTAIN),
    ("1又1/2^2 = ?", ABSTAIN),
    # ... while a plain operand is still read
    ("What is the sum of 3 and 4?", "7"),
    ("What is the sum of 1/2 and 1/3?", "5/6"),
    ("What is the quotient of 12 and 4?", "3"),
    ("What is the square root of 196?", "14"),
    ("What is 4 + the square root of 196?", "18"),
    ("What is 3/4 of 60?", "45"),
    ("What is 25% of 80?", "20"),
    ("9的算术平方根是多少？", "3"),
    ("What is 2\\frac{1}{2} + 1?", "7/2"),
    ("What is 2½ + 1?", "7/2"),
    ("48 ÷ 4 ÷ 2 = ?", "6"),
    ("3/4 ÷ 1/2 = ?", "3/2"),
    ("12÷4 = ?", "3"),
    ("Solve ln(x)=1", "x = e"),  # Euler's number written e, not sympy's E
    ("Solve ln(x)=2", "x = e^2"),
]


@pytest.mark.parametrize(("problem", "answer"), SOLVED)
def test_solver(problem: str, answer: str | None) -> None:
    assert_solved(problem, answer)


CHECKED = [
    # F3: simplify a number
    ("Simplify 6/8.", "12/16", INCORRECT),
    ("Simplify 6/8.", "6/8", INCORRECT),
    ("Simplify 6/8.", "\\frac{6}{8}", INCORRECT),
    ("Simplify 6/8.", "3/4", CORRECT),
    ("Simplify 6/8.", "\\frac{3}{4}", CORRECT),
    ("Simplify 6/8.", "0.75", UNKNOWN),  # another form: a teacher may take it or not
    ("Simplify 6/8.", "4/3", INCORRECT),
    ("Simplify 12/18.", "4/6", INCORRECT),
    ("Simplify 12/18.", "6/9", INCORRECT),
    ("Simplify 12/18.", "2/3", CORRECT),
    ("化简：6/8", "6/8", INCORRECT),
    ("化简：6/8", "3/4", CORRECT),
    ("Simplify -6/8.", "-3/4", CORRECT),
    ("Simplify 8/4.", "2", CORRECT),
    ("Simplify 8/4.", "4/2", INCORRECT),
    ("Simplify 6/4.", "3/2", CORRECT),
    ("Simplify 6/4.", "1 1/2", UNKNOWN),
    ("Simplify \\sqrt{18}.", "\\sqrt{18}", UNKNOWN),
    ("Simplify \\sqrt{18}.", "3\\sqrt{2}", CORRECT),
    ("Simplify \\sqrt{18}.", "3√2", CORRECT),
    ("Simplify \\sqrt{18}.", "3 \\cdot \\sqrt{2}", CORRECT),
    ("Simplify \\sqrt{18}.", "2\\sqrt{2}", INCORRECT),
    ("Simplify \\sqrt{8}.", "\\sqrt{2}+\\sqrt{2}", UNKNOWN),
    ("Simplify \\sqrt{8}.", "\\sqrt{4*2}", UNKNOWN),
    ("Simplify 1/\\sqrt{2}.", "\\frac{\\sqrt{2}}{2}", CORRECT),
    ("Simplify 1/\\sqrt{2}.", "1/\\sqrt{2}", UNKNOWN),
    # F3: factor over the integers, fully
    ("Factor 2x^2 + 4x.", "x(2x+4)", INCORRECT),
    ("Factor 2x^2 + 4x.", "2x(x+2)", CORRECT),
    ("Factor 2x^2 + 4x.", "(x+2)·2x", CORRECT),
    ("Factor 4x^2 - 16.", "(2x-4)(2x+4)", INCORRECT),
    ("Factor 4x^2 - 16.", "(4x-8)(x+2)", INCORRECT),
    ("Factor 4x^2 - 16.", "4(x^2-4)", INCORRECT),
    ("Factor 4x^2 - 16.", "4(x-2)(x+2)", CORRECT),
    ("Factor 4x^2 - 16.", "-4(2-x)(x+2)", CORRECT),
    ("因式分解：4x^2 - 16", "4(x+2)(x-2)", CORRECT),
    ("Factor 2x + 4.", "2(x+2)", CORRECT),
    ("Factor 2x + 4.", "2x+4", INCORRECT),
    ("Factor x^4 - 81.", "(x^2-9)(x^2+9)", INCORRECT),
    ("Factor x^4 - 81.", "(x-3)(x+3)(x^2+9)", CORRECT),
    ("Factor x^2 + 2x + 1.", "(x+1)^2", CORRECT),
    ("Factor x^2 + 2x + 1.", "(x+1)(x+1)", CORRECT),
    ("Factor 4x^2 + 8x + 4.", "4(x+1)^2", CORRECT),
    ("Factor 4x^2 + 8x + 4.", "(2x+2)^2", INCORRECT),
    ("Factor x^2 - 5x + 6.", "(2-x)(3-x)", CORRECT),
    ("Factor x^2 - 5x + 6.", "-(x-2)(3-x)", CORRECT),
    ("Factor x^2 - y^2.", "(x-y)(x+y)", CORRECT),
    ("Factor x^2/4 - 1.", "(x/2-1)(x/2+1)", UNKNOWN | CORRECT),
    ("Factor x^2/4 - 1.", "(x-2)(x+2)/4", CORRECT),
    # Arithmetic left undone in an expression answer is not the form asked
    ("Simplify 2x + 3x.", "x(2+3)", UNKNOWN),
    ("Simplify 2x + 3x.", "5x", CORRECT),
    ("Factor 5x + 10.", "(2+3)(x+2)", UNKNOWN),
    ("Factor 5x + 10.", "5(x+2)", CORRECT),
    ("Expand (x+2)(x+3).", "x^2+(2+3)x+6", UNKNOWN),
    ("Expand (x - 1/2)^2.", "x^2 - x + 1/4", CORRECT),
    ("Simplify x/2 + x/3.", "\\frac{5}{6}x", CORRECT),
    # F4: never the quotient as a decimal or a fraction
    ("计算：17÷5=？……？", "3.4", UNKNOWN),
    ("计算：17÷5=？……？", "17/5", UNKNOWN),
    ("计算：17÷5=？……？", "3……2", UNKNOWN | CORRECT),
    ("17 ÷ 5 = ? R ?", "3.4", UNKNOWN),
    ("17除以5商是多少余数是多少", "3.4", UNKNOWN),
    ("What are the quotient and remainder when 17 is divided by 5?", "3.4", UNKNOWN),
    # F5
    ("What is the quotient of 12 and 4 ÷ 2?", "6", UNKNOWN),
    ("What is the quotient of 12 and 4 ÷ 2?", "1.5", UNKNOWN),
    ("What is the difference of 10 and 4 - 1?", "5", UNKNOWN),
    ("What is the product of 3 and 4 + 2?", "14", UNKNOWN),
    ("What is the square root of 196 + 4?", "18", UNKNOWN),
    ("What is the square root of 16 / 4?", "2", UNKNOWN),
    ("What is the cube root of 27 + 37?", "40", UNKNOWN),
    ("What is 3/4 of 60 + 4?", "49", UNKNOWN),
    ("What is 25% of 80 + 20?", "40", UNKNOWN),
    ("16 + 9的算术平方根是多少？", "19", UNKNOWN),
    ("16 + 9的算术平方根是多少？", "5", UNKNOWN),
    ("What is 2\\frac{1}{2}^2?", "25/4", UNKNOWN),
    ("What is 2\\frac{1}{2}^2?", "9/4", UNKNOWN),
    # Valid notations read (each wrong twin rejected)
    ("Solve x^2 - 5x + 6 = 0", "x1=2,x2=3", CORRECT),
    ("Solve x^2 - 5x + 6 = 0", "x1=2,x2=5", INCORRECT),
    ("Solve x^2 = 4", "x = -2, 2", CORRECT),
    ("Solve x^2 = 4", "x = -2, 3", INCORRECT),
    ("Solve x^2 = 4", "x = +/- 2", CORRECT),
    ("Solve x^2 = 4", "x = +/- 3", INCORRECT),
    ("Solve x^2 - 5x + 6 = 0", "x=2 or 3", CORRECT),
    ("Solve x^2 - 5x + 6 = 0", "x=2 or 4", INCORRECT),
    ("Solve 2x + 3 = 11", "**x = 4**", CORRECT),
    ("Solve 2x + 3 = 11", "**x = 5**", INCORRECT),
    ("解方程：2x+3=11", "解得x=4", CORRECT),
    ("解方程：2x+3=11", "解得x=5", INCORRECT),
    ("Solve x + y = 5, x - y = 1", "x = 3, 2", UNKNOWN),  # two unknowns: x = 3, y = 2?
    ("Solve ln(x)=1", "x = e", CORRECT),
    ("Solve ln(x)=1", "x = 3", INCORRECT),
    ("Solve ln(x)=2", "x = e^2", CORRECT),
    ("Solve ln(x)=2", "x = e^3", INCORRECT),
    ("Solve x + e = 5", "x = 5 - e", UNKNOWN | CORRECT),  # e a letter: never Euler's number
]


@pytest.mark.parametrize(("problem", "candidate", "allowed"), CHECKED)
def test_checker(problem: str, candidate: str, allowed: set[str]) -> None:
    assert_checked(problem, candidate, allowed)


WENG = (
    "Weng earns $12 an hour for babysitting. Yesterday, she just did 50 minutes of babysitting. "
    "How much did she earn?"
)


def test_dollars_spelled_out_for_a_problem_in_dollars() -> None:
    assert answers_equivalent("10", "10 dollars", WENG) is True
    assert answers_equivalent("10", "12 dollars", WENG) is False
    assert answers_equivalent("10", "10 apples", WENG) is None
