"""The symbolic solver: what it solves, how it shows the work, and what it refuses."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer
from app.symbolic.problem import extract_problem
from app.symbolic.solver import solve_text


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("Solve 2x + 3 = 11", "x = 4"),
        ("解方程 2x+3=11", "x = 4"),
        ("２ｘ＋３＝１１", "x = 4"),
        ("Solve for y: 5 - y = 2y + 11", "y = -2"),
        ("x^2 - 5x + 6 = 0", "x = 2 or x = 3"),
        ("x² = 4x - 4", "x = 2"),
        ("x^2 - 2 = 0", "x = -sqrt(2) or x = sqrt(2)"),
        ("x^2 + 1 = 0", "no real solution"),
        ("Solve the system: x + y = 10, x - y = 2", "x = 6, y = 4"),
        ("2a + b = 7; a - b = -1", "a = 2, b = 3"),
        ("3/4 + 5/6 = ?", "19/12"),
        ("计算 1/3 - 1/2", "-1/6"),
        ("What is 17*23?", "391"),
        ("What is 17 × 23?", "391"),
        ("Calculate 2.5 * 4", "10"),
        ("0.1 + 0.2", "0.3"),
        ("7 - 2.5 =", "4.5"),
        ("What is 15% of 80?", "12"),
        ("\\frac{1}{2} + \\frac{1}{3} = ?", "5/6"),
        ("(2 + 3) * 4 - 6 / 3", "18"),
        ("Evaluate 2^10", "1024"),
        ("What is 1,250 + 3,750?", "5000"),
        ("If 2x + 3 = 11, what is 3x?", "12"),
        ("If x + y = 10 and x - y = 2, find x + y", "10"),
        ("Solve x^3 = 8", "x = 2"),
        ("1/x = 2", "x = 1/2"),
    ],
)
def test_solves(problem: str, answer: str) -> None:
    solution = solve_text(problem)
    assert solution is not None, problem
    assert solution.final_answer == answer


def test_steps_show_the_work() -> None:
    fraction = solve_text("3/4 + 5/6 = ?")
    assert fraction is not None
    assert [s.latex for s in fraction.steps] == [
        r"\frac{3}{4} + \frac{5}{6}",
        r"\frac{9}{12} + \frac{10}{12}",
        r"\frac{3}{4} + \frac{5}{6} = \frac{19}{12}",
        r"1\tfrac{7}{12}",
    ]
    linear = solve_text("Solve 2x + 3 = 11")
    assert linear is not None
    assert [s.description for s in linear.steps] == [
        "Write the equation",
        "Move every term to one side",
        "Isolate x",
        "Divide both sides by 2",
        "Answer",
    ]
    quadratic = solve_text("x^2 - 5x + 6 = 0")
    assert quadratic is not None and quadratic.steps[2].description == "Factor"
    decimals = solve_text("0.1 + 0.2")
    assert decimals is not None and decimals.steps[-1].latex == "0.1 + 0.2 = 0.3"


@pytest.mark.parametrize(
    "problem",
    [
        # word problems go to a model: evaluating a fragment would be confidently wrong
        "Natalia sold clips to 48 of her friends in April, and then she sold half as many "
        "clips in May. How many clips did Natalia sell altogether?",
        "3/4 of the class are girls. There are 20 girls. How many students?",
        "She has 3 + 4 apples and 2 pears",
        # under-determined, unreadable or ambiguous
        "x + y = 10",
        "log(x) = 2",  # base 10 or e?
        "sin(x) = 0.5",  # infinitely many solutions
        "Solve 2x + 3 = 1\u200b1",  # an invisible character splits 11
        # hostile or unreadable
        "2^10^10",
        "9^9^9^9 = x",
        "__import__('os').system('true') = x",
        "(" * 300 + "1" + ")" * 300,
        "",
        "hello",
    ],
)
def test_refuses(problem: str) -> None:
    assert solve_text(problem) is None


def test_extract_orders_variables_by_first_use() -> None:
    problem = extract_problem("Solve the system: y + x = 10, x - y = 2")
    assert problem is not None
    assert [v.name for v in problem.variables] == ["y", "x"]


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("12+8=（ ）", "20"),
        ("计算：25×4=（  ）", "100"),
        ("3.6÷0.4=（\u3000）", "9"),
        ("12 + 8 = ___", "20"),
        ("7-2=□", "5"),
        ("1/2+1/3=( )。", "5/6"),
    ],
)
def test_a_worksheet_blank_after_equals_asks_for_the_value(problem: str, answer: str) -> None:
    solution = solve_text(problem)
    assert solution is not None and solution.final_answer == answer


@pytest.mark.parametrize(
    "problem",
    [
        "（ ）+5=12",  # a blank inside the equation is an unknown: not read as a question
        "3×（ ）=12",
        "12+8=( ) + 3",
        "12+8=（ ）cm",
        "12+8=（ ），20-5=（ ）",  # two questions
    ],
)
def test_other_blanks_are_not_read_as_the_question(problem: str) -> None:
    assert solve_text(problem) is None


@pytest.mark.parametrize(
    "problem", ["Solve x = 5 +- 3", "What is 10 +- 2?", "What is 10 +/- 2?", "7 -+ 2 = ?"]
)
def test_ascii_plus_minus_in_a_problem_is_not_read_either_way(problem: str) -> None:
    """± (answers read "+-" so: "x = +-2") or plus a negative? "x = 5 +- 3" was x = 2,
    verified, dropping x = 8. "3 + -2", spaced, still adds a negative."""
    assert solve_text(problem) is None
    assert solve_text("3 + -2 = ?").final_answer == "1"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "problem",
    [
        "Round -2.5 to the nearest integer.",
        "Round -0.5 to the nearest integer.",
        "把-2.5四舍五入到个位",
        "Round -1250 to the nearest hundred",
        "Round -2.5 to 1 significant figure",
    ],
)
def test_a_tie_below_zero_is_not_rounded_either_way(problem: str) -> None:
    """-2.5: -3 by magnitude (四舍五入), -2 rounding half up toward +∞; which one the class
    was taught is not known (-3 was verified and -2 called incorrect). Off the tie, and
    above zero, rounding is read."""
    assert solve_text(problem) is None
    assert solve_text("Round -2.6 to the nearest integer.").final_answer == "-3"  # type: ignore[union-attr]
    assert solve_text("Round 2.5 to the nearest integer.").final_answer == "3"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("problem", "answer"),
    [("What is 7% of 80?", "5.6"), ("80的7%是多少？", "5.6"), ("What is 50% of 7?", "3.5")],
)
def test_a_percent_of_a_number_is_answered_as_a_decimal(problem: str, answer: str) -> None:
    """As a K12 book answers it (was 28/5, 7/2)."""
    solution = solve_text(problem)
    assert solution is not None and solution.final_answer == answer


def test_the_difference_of_a_smaller_and_a_larger_number_is_not_read() -> None:
    """7 to most teachers, −7 by the definition (was −7, verified), as "difference between"."""
    assert solve_text("What is the difference of 3 and 10?") is None
    assert solve_text("What is the difference of 10 and 3?").final_answer == "7"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "problem",
    [
        "Solve for x: 4x = 20. What is y = x + 10?",
        "Solve for x: x + 5 = 12. What is y = 2x?",
        "Solve for x: 2x + 3 = 11, then find y = x - 10.",
        "Solve for n: n + 5 = 12. Find m = 2n.",
    ],
)
def test_a_follow_up_letter_defined_by_the_unknown_is_not_answered_with_the_unknown(
    problem: str,
) -> None:
    """ "What is y = x + 10?" asks for y: x = 5 was answered, verified, in its place (an
    independent tester's finding). A letter given a value ("where a = 2") is not asked."""
    assert solve_text(problem) is None
    assert check_answer(problem, "5").verdict == "abstain"
    assert solve_text("Solve for x: a x = 6 where a = 2").final_answer == "3"  # type: ignore[union-attr]
