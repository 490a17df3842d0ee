"""Issue 27, fourth round: faults found by fresh probes (English and Chinese) after the
measurement on MAV's MATH problems and reasoning-gym; each was a wrong verdict or a wrong
answer marked verified before its fix."""

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


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        # Braces are not shown: 2{\frac{1}{2}} and {2}\frac{1}{2} look like 2½ (verified 2 as
        # the product 2 × 1/2 + 1); 2(\frac{1}{2}) is Ape210K's 1(5/6). Refused, as 1(5/6) is.
        ("What is 2{\\frac{1}{2}} + 1?", ABSTAIN),
        ("What is {2}\\frac{1}{2} + 1?", ABSTAIN),
        ("What is 2(\\frac{1}{2}) + 1?", ABSTAIN),
        ("What is 2\\left(\\frac{1}{2}\\right) + 1?", ABSTAIN),
        ("计算 3{\\frac{1}{4}} \\times 4", ABSTAIN),
        ("What is x^{2}\\frac{1}{2} if x = 2?", ABSTAIN),  # as x^2\frac{1}{2} is
        # Brackets that do not sit between a number and a fraction are read as before.
        ("Solve 3(\\frac{x}{2} + 1) = 9", "x = 4"),
        ("Solve 3(\\frac{1}{2} + x) = 9", "x = 5/2"),
        ("Solve 4\\left(\\frac{1}{2}x\\right) = 6", "x = 3"),
        ("What is 2 \\times {\\frac{1}{2}}?", "1"),
        ("What is 2^{2}\\cdot\\frac{1}{2}?", "2"),
        ("What is 2\\frac{1}{2} + 1?", "7/2"),
        ("What is 2\\,\\frac{1}{2} + 1?", "7/2"),
        # "2 0/3" is no mixed number (verified 3).
        ("What is 2 0/3 + 1?", ABSTAIN),
        ("What is 2 1/3 + 1?", "10/3"),
        # "the positive solution" where two are positive: which one? (verified both, and a
        # check called either one alone incorrect)
        ("Find the positive solution of x^2 - 5x + 6 = 0", ABSTAIN),
        ("Find the nonzero solution of x^3 = 4x", ABSTAIN),
        ("Find the positive solutions of x^2 - 5x + 6 = 0", "x = 2 or x = 3"),
        ("Find the positive root of x^2 - x - 6 = 0", "x = 3"),
        ("Find the integer solution of 2x^2 - 5x + 2 = 0", "x = 2"),
    ],
)
def test_solved_or_abstained(problem: str, answer: str | None) -> None:
    assert_solved(problem, answer)


@pytest.mark.parametrize(
    ("problem", "candidate", "allowed"),
    [
        # "+-" is ASCII for ±: read as 2 + (-√3) it dropped a root and was called incorrect.
        ("x^2 - 4x + 1 = 0", "x = 2 +- sqrt(3)", CORRECT),
        ("x^2 - 4x + 1 = 0", "x = 2 +- sqrt(2)", INCORRECT),
        ("x^2 = 4", "x = +-2", CORRECT),
        ("x^2 - 4x + 1 = 0", "x = 2 -+ sqrt(3)", UNKNOWN),
        ("What is 5+-3?", "2", UNKNOWN),  # ± (as answers read it) or a sum? Not read
        # Marked approximate and rounded to a whole number: too coarse to approve, not wrong
        # (19/3 ≈ 6 was called incorrect); a wrong rounding is still wrong.
        ("Solve 5(x-1) = 2(x+7)", "about 6", UNKNOWN),
        ("Solve 5(x-1) = 2(x+7)", "x ≈ 6", UNKNOWN),
        ("Solve 5(x-1) = 2(x+7)", "about 7", INCORRECT),
        ("Solve 5(x-1) = 2(x+7)", "6", INCORRECT),
        ("What is 1000/3?", "about 333", CORRECT),
        ("What is 1000/3?", "about 334", INCORRECT),
        # The percent without its sign ("3/8 as a percent": 37.5) is not the value 37.5.
        ("Write 3/8 as a percent", "37.5", UNKNOWN),
        ("把 3/5 化成百分数", "60", UNKNOWN),
        ("Write 3/8 as a percent", "37", INCORRECT),
        ("Write 3/8 as a percent", "37.5%", CORRECT),
        ("Write 3/8 as a percent", "0.375%", INCORRECT),
        # "the positive solution" with two: neither alone is judged.
        ("Find the positive solution of x^2 - 5x + 6 = 0", "x = 2", UNKNOWN),
        ("Find the positive solution of x^2 - 5x + 6 = 0", "x = 3", UNKNOWN),
        # A mixed number in braces or brackets, in an answer: not judged.
        ("计算 2\\frac{1}{2} + 1\\frac{3}{4}", "4{\\frac{1}{4}}", UNKNOWN),
        ("计算 2\\frac{1}{2} + 1\\frac{3}{4}", "4(1/4)", UNKNOWN),
        ("计算 2\\frac{1}{2} + 1\\frac{3}{4}", "4\\frac{1}{4}", CORRECT),
        ("计算 2\\frac{1}{2} + 1\\frac{3}{4}", "4又1/4", CORRECT),
    ],
)
def test_checked(problem: str, candidate: str, allowed: set[str]) -> None:
    assert_checked(problem, candidate, allowed)


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        # Rounding said otherwise: 把/将, 四舍五入到, 近似数, tens and hundreds.
        ("把 2.345 精确到十分位", "2.3"),
        ("2.45 四舍五入到十分位", "2.5"),
        ("将 3.996 保留两位小数", "4.00"),
        ("用四舍五入法求 3.14159 的近似数（精确到0.01）", "3.14"),
        ("Round 1234 to the nearest ten", "1230"),
        ("Round 1250 to the nearest hundred", "1300"),
        ("把 12345 精确到千位", "12000"),
        ("What is 1000/3 to the nearest ten?", "330"),
        ("把 x = 2 代入 3x", ABSTAIN),
        # Greatest common divisor and least common multiple of whole numbers.
        ("Find the GCD of 12 and 18", "6"),
        ("What is the greatest common factor of 24 and 36?", "12"),
        ("What is the least common multiple of 4, 6 and 10?", "60"),
        ("Find the Least Common Multiple (LCM) of these numbers: 27, 60", "540"),
        ("求12和18的最大公因数", "6"),
        ("12和18的最小公倍数是多少", "36"),
        ("What is the GCD of 0 and 5?", ABSTAIN),
        ("What is the GCD of 1.5 and 3?", ABSTAIN),
        ("What is the GCD of 12 and 18 + 1?", ABSTAIN),
        ("What is the GCD of 12 and 18x?", ABSTAIN),
        ("12和18的公因数有哪些", ABSTAIN),
        # Sentences that only say how to write the answer; one that asks a form is not one.
        ("What is 484 * 229? Give only the result as your final answer.", "110836"),
        (
            "Solve the following multiplication: 484 * 229. "
            "Give only the result as your final answer.",
            "110836",
        ),
        ("Solve the following multiplication: 484 + 229.", ABSTAIN),
        ("State the final answer to the following arithmetic problem: 4 - 1 - 7 =", "-4"),
        ("Simplify the fraction $\\dfrac{3388}{4354}$ to its lowest terms.", "242/311"),
        ("Calculate 12 + 5. Give your answer.", "17"),
        ("What is 3/4? Give your answer as a decimal.", ABSTAIN),
        ("Determine the value of r that satisfies: 27*r + 316 = 1639", "r = 49"),
        ("Determine the value of i that satisfies: 0 = 0", ABSTAIN),
        # Unit conversions said with 把/将.
        ("把 3.5 米化成厘米", "350 厘米"),
        ("将 2 小时换算成分钟", "120 分钟"),
        ("把 3.5 米化成几米几厘米", ABSTAIN),
        # "80的25%": a percent of a number, in Chinese word order.
        ("80的25%是多少？", "20"),
        ("80的12.5%是多少", "10"),
        ("80的25%的40%是多少？", ABSTAIN),
        ("80的25%+1是多少？", ABSTAIN),
        ("1+80的25%是多少？", ABSTAIN),
        # A percent converted to a fraction or a decimal.
        ("Write 45% as a fraction", "9/20"),
        ("Write 45% as a decimal", "0.45"),
        ("把 45% 化成分数", "9/20"),
        ("Write 150% as a decimal", "1.5"),
        ("Write 45% of 80 as a decimal", ABSTAIN),
        # Percent more / less than, and the percent one number is more or less than another.
        ("What is 20% more than 80?", "96"),
        ("What is 20% less than 80?", "64"),
        ("比80多20%的数是多少？", "96"),
        ("比80少20%的数是多少？", "64"),
        ("100比80多百分之几？", "25%"),
        ("80比100少百分之几？", "20%"),
        ("100 is what percent more than 80?", "25%"),
        ("By what percent is 80 less than 100?", "20%"),
        ("80比100多百分之几？", ABSTAIN),  # the wrong way: a false premise
        ("By what percent is 100 less than 80?", ABSTAIN),
        ("100比30多百分之几？", ABSTAIN),  # 233.33…%: no rounding asked
        ("What is 20% more than 80 + 1?", ABSTAIN),
        ("100比80多百分之几？比80多多少？", ABSTAIN),
        # A decrease past zero is no school quantity (was verified -16).
        ("What is 80 decreased by 120%?", ABSTAIN),
        ("80减少120%是多少？", ABSTAIN),
        ("What is 120% less than 80?", ABSTAIN),
        ("一件商品先降价120%再提价20%，现价是原价的百分之几？", ABSTAIN),
        ("Decrease 80 by 100%", "0"),
        # An answer-format sentence naming another quantity than the one asked.
        ("What is the LCM of 4 and 6? Give only the GCD as your final answer.", ABSTAIN),
        ("What is 6/8? Give only the simplified fraction as your final answer.", ABSTAIN),
        ("What is the GCD of 12 and 18? Give only the GCD as your final answer.", "6"),
    ],
)
def test_read_now(problem: str, answer: str | None) -> None:
    assert_solved(problem, answer)


@pytest.mark.parametrize(
    ("problem", "candidate", "allowed"),
    [
        # Places asked: the value with fewer places written ("4" for 4.00) is not judged.
        ("将 3.996 保留两位小数", "4", UNKNOWN),
        ("将 3.996 保留两位小数", "4.0", UNKNOWN),
        ("将 3.996 保留两位小数", "4.00", CORRECT),
        ("将 3.996 保留两位小数", "3.99", INCORRECT),
        ("Round 1234 to the nearest ten", "1230", CORRECT),
        ("Round 1234 to the nearest ten", "1234", UNKNOWN),
        ("Round 1234 to the nearest ten", "1200", INCORRECT),
        ("Find the GCD of 12 and 18", "6", CORRECT),
        ("Find the GCD of 12 and 18", "3", INCORRECT),
        ("12和18的最小公倍数是多少", "216", INCORRECT),
        ("Write 45% as a fraction", "45/100", UNKNOWN),
        ("Write 45% as a decimal", "45%", UNKNOWN),
        ("Write 45% as a decimal", "45", INCORRECT),
        ("100比80多百分之几？", "25", CORRECT),
        ("100比80多百分之几？", "20%", INCORRECT),
        ("80比100少百分之几？", "25%", INCORRECT),
    ],
)
def test_checked_now(problem: str, candidate: str, allowed: set[str]) -> None:
    assert_checked(problem, candidate, allowed)


RG = (
    "Please solve this problem to a maximum of 12 significant digits, rounding up from the "
    "half. Only reply with the final value.\n"
)


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        # Significant figures: arithmetic only, half up, trailing zeros kept unless "at most".
        ("What is 1/3 to 3 significant figures?", "0.333"),
        ("Calculate 12345 × 2, giving your answer to 3 significant figures", "24700"),
        ("Give 9.996 to 3 significant figures", "10.0"),
        ("What is sqrt(2) to 4 significant figures?", "1.414"),
        ("计算 2/3，保留三个有效数字", "0.667"),
        ("What is 0.0012345 to 2 s.f.?", "0.0012"),
        ("What is 1.2 to 3 significant figures?", "1.20"),
        ("What is 2.5 to 1 significant figure?", "3"),
        ("What is 10/3? Give your answer correct to 3 s.f.", "3.33"),
        # reasoning-gym's decimal_arithmetic; its own gold (15.8839006989) is a float artifact:
        # 7.873 × (3.714 / 6.710 × 3.645) = 15.88390069895678…, so 15.8839006990.
        (RG + "7.873*(3.714/6.710*3.645) = ?", "15.883900699"),
        (RG + "(4.507-2.287) = ?", "2.22"),
        (RG + "(0.387/1.976*3.797) = ?", "0.743643218623"),
        ("What is -2.5 to 1 significant figure?", ABSTAIN),  # up from the half: -2 or -3?
        ("What is 0 to 2 significant figures?", ABSTAIN),
        ("Solve 3x = 1, to 3 significant figures", ABSTAIN),
        ("Round 1/3 to 3 significant figures and 2 decimal places", ABSTAIN),
        ("Write 1/3 as a decimal to 3 significant figures", ABSTAIN),
        ("What is 1/3 to 20 significant figures?", ABSTAIN),
    ],
)
def test_significant_figures(problem: str, answer: str | None) -> None:
    assert_solved(problem, answer)


@pytest.mark.parametrize(
    ("problem", "candidate", "allowed"),
    [
        ("What is 1/3 to 3 significant figures?", "0.333", CORRECT),
        ("What is 1/3 to 3 significant figures?", "0.33", INCORRECT),
        ("What is 1/3 to 3 significant figures?", "0.334", INCORRECT),
        ("What is 1/3 to 3 significant figures?", "1/3", UNKNOWN),
        ("What is 1.2 to 3 significant figures?", "1.20", CORRECT),
        ("What is 1.2 to 3 significant figures?", "1.2", UNKNOWN),
        ("Calculate 12345 × 2, giving your answer to 3 significant figures", "24700", CORRECT),
        ("Calculate 12345 × 2, giving your answer to 3 significant figures", "24690", UNKNOWN),
        (RG + "(4.507-2.287) = ?", "2.22", CORRECT),
        (RG + "(4.507-2.287) = ?", "2.220", CORRECT),
        (RG + "(0.387/1.976*3.797) = ?", "0.74364321862", INCORRECT),
    ],
)
def test_significant_figures_checked(problem: str, candidate: str, allowed: set[str]) -> None:
    assert_checked(problem, candidate, allowed)


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("Find the prime factorization of 360", "2 × 2 × 2 × 3 × 3 × 5"),
        ("Write 84 as a product of prime factors.", "2 × 2 × 3 × 7"),
        ("分解质因数：36", "2 × 2 × 3 × 3"),
        ("把36分解质因数", "2 × 2 × 3 × 3"),
        ("Find the prime factorization of 487.", "487"),
        (
            "Find the prime factorization of 60. Write the factors separated by × (Example: for "
            "12 the answer would be: 2 × 2 × 3)",
            "2 × 2 × 3 × 5",
        ),
        ("What is the prime factorization of 1?", ABSTAIN),
        ("Find the prime factorization of 360 + 1", ABSTAIN),
        ("Find the prime factorization of 60.5", ABSTAIN),
        ("把36分解质因数，再求和", ABSTAIN),
    ],
)
def test_prime_factorization(problem: str, answer: str | None) -> None:
    assert_solved(problem, answer)


@pytest.mark.parametrize(
    ("candidate", "allowed"),
    [
        ("2 × 2 × 2 × 3 × 3 × 5", CORRECT),
        ("2^3 × 3^2 × 5", CORRECT),
        ("2³ × 3² × 5", CORRECT),
        ("360 = 2×2×2×3×3×5", CORRECT),
        ("5 × 3 × 3 × 2 × 2 × 2", CORRECT),
        ("8 × 45", INCORRECT),  # a factor that is not prime: what a teacher marks wrong
        ("360", INCORRECT),
        ("1 × 2^3 × 3^2 × 5", INCORRECT),
        ("2 × 2 × 3 × 3 × 5", INCORRECT),  # 180
        ("2, 2, 2, 3, 3, 5", UNKNOWN),
    ],
)
def test_prime_factorization_checked(candidate: str, allowed: set[str]) -> None:
    assert_checked("Find the prime factorization of 360", candidate, allowed)
