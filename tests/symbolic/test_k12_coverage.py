"""Issue 27: plain K12 items read soundly — operation words, percents, roots chosen by a stated
condition — each answered right (and approved by the checker) or abstained on."""

from __future__ import annotations

import pytest

from app.symbolic.checker import answers_equivalent
from app.symbolic.solver import solve_text
from tests.symbolic.adversarial import (
    ABSTAIN,
    CORRECT,
    INCORRECT,
    UNKNOWN,
    assert_checked,
    assert_solved,
)


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("What is the square root of 196?", "14"),
        ("Find the cube root of 27.", "3"),
        ("What is the square root of 2?", "sqrt(2)"),
        ("What is 15 squared?", "225"),
        ("What is 3/4 of 60?", "45"),
        ("What is 3/4 of 60.5?", "45.375"),
        ("计算 60的3/4", "45"),
        ("计算 48 ÷ 4 ÷ 2", "6"),
        ("What is 96 ÷ 4 ÷ 2 ÷ 3?", "4"),
        ("What is the sum of 3/4 and 5/6?", "19/12"),
        ("Find the product of 12 and 15.", "180"),
        ("What is the difference between 100 and 37?", "63"),
        ("What is 144 divided by 12?", "12"),
        ("What is 7 times 8?", "56"),
        ("计算 48与12的差", "36"),
        ("计算 3.6除以0.4", "9"),
        ("9的算术平方根是多少", "3"),
        ("27的立方根是多少", "3"),
        ("计算 3 加 4 - 1", "6"),
        # Percents.
        ("What percent of 50 is 12?", "24%"),
        ("12 is what percent of 50?", "24%"),
        ("12是50的百分之几？", "24%"),
        ("What is 50 increased by 10%?", "55"),
        ("Increase 80 by 25%.", "100"),
        ("What is 80 decreased by 25%?", "60"),
        # Roots chosen by a condition.
        ("Find the positive solution of x^2 = 9", "x = 3"),
        ("What is the negative root of x^2 - x - 6 = 0?", "x = -2"),
        ("求方程 x^2 - 2x - 15 = 0 的正数解", "x = 5"),
        ("求方程 x^2 - 3x = 0 的非零解", "x = 3"),
        ("Find the integer solutions of 2x^2 - 3x - 2 = 0", "x = 2"),
        # Fraction / decimal / percent conversions: the answer in the form asked.
        ("Write 1/8 as a decimal.", "0.125"),
        ("把 1/8 化成小数", "0.125"),
        ("Express 3/8 as a percent.", "37.5%"),
        ("把 3/4 化成百分数", "75%"),
        ("Write 0.45 as a fraction in lowest terms.", "9/20"),
        ("把 0.6 化成分数", "3/5"),
        ("Write 1/3 as a decimal.", "0.333..."),  # repeating: the block three times
        ("Write 1/17 as a decimal.", ABSTAIN),  # a block of 16 digits
        # Unit conversions (pint, exact fractions).
        ("Convert 72 km/h to m/s.", "20 m/s"),
        ("Convert 4500 g to kg.", "4.5 kg"),
        ("Convert 90 minutes to hours.", "1.5 hours"),
        ("How many inches are in 3 feet?", "36 inches"),
        ("72千米/时等于多少米/秒？", "20 米/秒"),
        ("3.5米等于多少厘米？", "350 厘米"),
        ("Convert 2 m² to cm²", "20000 cm^(2)"),
        ("Convert 5 kg to m.", ABSTAIN),
        ("Convert 3 MM to m.", ABSTAIN),  # a symbol is read as written only
        # Formula substitution.
        ("v = u + at with u = 3, a = 2, t = 4. Find v.", "11"),
        ("If A = l*w, l = 7 and w = 5, what is A?", "35"),
        ("s = ut + t^2, u = 2, t = 3. Find s.", "15"),
        ("x = 2, y = 3, x + y = 6. Find x.", ABSTAIN),
        # "Solve for x" with another letter given: the answer is x alone.
        ("Solve for x: a x = 6 where a = 2", "3"),
        ("Solve for y: x + y = 10, x = 4", "6"),
        # Rounding said with "round".
        ("Round 3.14159 to the nearest hundredth.", "3.14"),
        ("Round 3.14159.", ABSTAIN),
        # Inequalities: the solution set.
        ("Solve 2x + 1 > 5", "x > 2"),
        ("解不等式 3x - 2 ≤ 7", "x <= 3"),
        ("Solve -2x + 3 < 7", "x > -2"),
        ("Solve x^2 - 4 > 0", "x < -2 or x > 2"),
        ("Solve x^2 - 5x + 6 <= 0", "2 <= x <= 3"),
        ("Solve x^2 + 1 < 0", "no solution"),
        ("Solve x^2 >= 0", "all real numbers"),
        ("Solve 1 < 2x + 1 <= 7", "0 < x <= 3"),
        ("2x + 1 > 5", ABSTAIN),  # nobody asked to solve it
        ("Solve 1/x > 2", ABSTAIN),
        ("Solve x^3 > 8", ABSTAIN),
        # Expressions: simplify, expand, factor.
        ("Expand (x + 2)(x + 3)", "x^2 + 5*x + 6"),
        ("Expand (2x - 1)^2", "4*x^2 - 4*x + 1"),
        ("Factor x^2 - 9", "(x - 3)*(x + 3)"),
        ("因式分解 x^2 - 4x + 4", "(x - 2)^2"),
        ("展开 (x - 1)(x + 1)", "x^2 - 1"),
        ("Simplify 3x + 2x - x", "4*x"),
        ("化简 3a + 5a - 2a", "6*a"),
        ("Simplify (x^2 - 1)/(x - 1)", "x + 1"),
        ("Factor x + 1", ABSTAIN),  # nothing to factor
        ("Simplify sqrt(x^2)", ABSTAIN),  # |x| or x? only polynomials and quotients are read
        ("Expand (x + 1)^100", ABSTAIN),
        # Words whose reading would change which operation comes first, or which differ
        # between conventions: abstain.
        ("计算 2*3 加 4", ABSTAIN),
        ("计算 1 - 3 加 4", ABSTAIN),
        ("计算 3 加 4 * 2", ABSTAIN),
        ("9的平方根是多少", ABSTAIN),  # ±3 in Chinese schools
        ("What is 3/4 of the class?", ABSTAIN),
        ("What is 2 of 60?", ABSTAIN),
        ("What is 2^15 squared?", ABSTAIN),
        # Two operations said in words: which comes first is not guessed.
        ("计算 12减3加2", ABSTAIN),
        ("计算 12除以3乘2", ABSTAIN),
        ("What is 10 divided by 2 times 5?", ABSTAIN),
        ("What is the sum of 3 and 4 times 2?", ABSTAIN),
        ("What is 1/2 of 1/2 of 8?", ABSTAIN),
        ("What is 20 increased by 50% of 10?", ABSTAIN),
        ("计算 0.5的2倍", ABSTAIN),
        ("What is 1/2 squared?", "1/4"),
        ("计算 6的1/3", "2"),
    ],
)
def test_solved_or_abstained(problem: str, answer: str | None) -> None:
    assert_solved(problem, answer)


@pytest.mark.parametrize(
    ("problem", "wrong"),
    [("计算 5的平方 加 3", "3125"), ("2的3次方是多少", "18")],
)
def test_operation_words_never_misread(problem: str, wrong: str) -> None:
    solution = solve_text(problem)
    assert solution is None or solution.final_answer != wrong


@pytest.mark.parametrize(
    ("problem", "candidate", "allowed"),
    [
        ("What percent of 50 is 12?", "24", CORRECT),
        ("What percent of 50 is 12?", "24%", CORRECT),
        ("What percent of 50 is 12?", "24 percent", CORRECT),
        ("What percent of 50 is 12?", "0.24", UNKNOWN),  # the share, not written as a percent
        ("Find the positive solution of x^2 = 9", "x = 3", CORRECT),
        ("Find the positive solution of x^2 = 9", "x = -3 or x = 3", INCORRECT),
        ("What is 3/4 of 60?", "45", CORRECT),
        ("What is 3/4 of 60?", "80", INCORRECT),
        ("Solve for x: a x = 6 where a = 2", "x = 3", CORRECT),
        ("Solve for x: a x = 6 where a = 2", "x = 2", INCORRECT),
        ("Write 1/8 as a decimal.", "0.125", CORRECT),
        ("Write 1/8 as a decimal.", "1/8", UNKNOWN),  # the right value, not the form asked
        ("Write 1/8 as a decimal.", "0.12", INCORRECT),
        ("Write 0.45 as a fraction in lowest terms.", "\\frac{9}{20}", CORRECT),
        ("Write 0.45 as a fraction in lowest terms.", "45/100", UNKNOWN),
        ("Express 3/8 as a percent.", "37.5%", CORRECT),
        ("Express 3/8 as a percent.", "0.375", UNKNOWN),
        ("Express 3/8 as a percent.", "38%", INCORRECT),
        # Inequality answers compared as sets.
        ("Solve 2x + 1 > 5", "(2, ∞)", CORRECT),
        ("Solve 2x + 1 > 5", "(2, \\infty)", CORRECT),
        ("Solve 2x + 1 > 5", "x >= 2", INCORRECT),
        ("Solve 2x + 1 > 5", "x = 2", UNKNOWN),
        ("Solve x^2 - 4 > 0", "(-∞, -2) ∪ (2, ∞)", CORRECT),
        ("Solve x^2 - 4 > 0", "x > 2", INCORRECT),
        ("Solve x^2 - 5x + 6 <= 0", "[2, 3]", CORRECT),
        ("Solve x^2 - 5x + 6 <= 0", "(2, 3)", INCORRECT),
        ("Solve x^2 + 1 < 0", "no solution", CORRECT),
        # Expressions: equal for every value, and in the form asked.
        ("Expand (x + 2)(x + 3)", "6 + 5x + x^2", CORRECT),
        ("Expand (x + 2)(x + 3)", "(x+2)(x+3)", UNKNOWN),
        ("Expand (x + 2)(x + 3)", "x^2 + 2x + 3x + 6", UNKNOWN),
        ("Expand (x + 2)(x + 3)", "x^2 + 5x + 5", INCORRECT),
        ("Factor x^2 - 9", "(x+3)(x-3)", CORRECT),
        ("Factor x^2 - 9", "x^2 - 9", INCORRECT),  # not factored: a teacher marks it wrong
        ("Factor x^2 - 9", "(x - 9)(x + 1)", INCORRECT),
        ("Simplify 3x + 2x - x", "4x", CORRECT),
        ("Simplify 3x + 2x - x", "3x + x", UNKNOWN),
        ("Simplify 3x + 2x - x", "4y", UNKNOWN),
        # Answers with units.
        ("Convert 72 km/h to m/s.", "20 m/s", CORRECT),
        ("Convert 72 km/h to m/s.", "20", CORRECT),
        ("Convert 72 km/h to m/s.", "21 m/s", INCORRECT),
        ("Convert 72 km/h to m/s.", "72 km/h", UNKNOWN),  # the same quantity, unconverted
        ("72千米/时等于多少米/秒？", "20米/秒", CORRECT),
        ("Convert 2000 m to km.", "2 m", INCORRECT),
        ("Convert 2000 m to km.", "2 km", CORRECT),
        ("Solve 2x + 3 = 11", "x = 4 m", UNKNOWN),  # a unit the problem never used
    ],
)
def test_checked(problem: str, candidate: str, allowed: set[str]) -> None:
    assert_checked(problem, candidate, allowed)


@pytest.mark.parametrize(
    ("a", "b", "problem", "same"),
    [
        ("x = 0, y = 4", "y = 4, x = 0", None, True),
        ("x = 0, y = 4", "x = 4, y = 0", None, False),
        ("no real solution", "no real solution", None, True),
        ("no real solution", "x = 1", None, False),
        ("all real numbers", "no solution", None, False),
        ("20", "20 m/s", "Convert 72 km/h to m/s.", True),
        ("1", "2", "计算 1(5/6)", False),
        ("x > 2", "(2, ∞)", None, True),
        ("x > 2", "x >= 2", None, False),
        ("(x - 3)(x + 3)", "(x+3)(x-3)", None, True),
        ("x^2 - 1", "x^2 + 1", None, False),  # a problem the reader refuses still names no units
    ],
)
def test_answers_equivalent(a: str, b: str, problem: str | None, same: bool) -> None:
    assert answers_equivalent(a, b, problem) is same
