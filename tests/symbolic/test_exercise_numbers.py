"""An independent tester's findings (2026-11-27): a bracketed exercise number read as a factor
verified wrong answers; "the difference between 3 and 10" verified −7; a long exact result
was printed rounded and then refused by its own check."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer
from app.symbolic.solver import solve_text
from app.symbolic.steps import check_step_list

# (problem, the answer read as a product, the answer to the exercise)
NUMBERED = [
    ("(2) 12 + 8 = ?", "32", "20"),
    ("（2）12+8=？", "32", "20"),
    ("(3) 5 × 6 = ?", "90", "30"),
    ("(2) 2x + 3 = 11", "x = 2", "x = 4"),
    ("(3) x^2 = 9", "x = ±√3", "x = ±3"),
    ("(2) -3 + 5 = ?", "4", "2"),
    ("Solve 2x + 3 = 11 (3)", "x = 15", "x = 4"),
    ("(2) 15% of 80", "24", "12"),
    ("(2) Round 3.456 to the nearest tenth", "6.9", "3.5"),
    ("Solve (2) 2x > 4", "x > 1", "x > 2"),
    ("计算：(1) 12+8 (2) 6×5", "492", "20"),
]


@pytest.mark.parametrize(("problem", "as_product", "as_exercise"), NUMBERED)
def test_an_exercise_number_is_not_read_as_a_factor(
    problem: str, as_product: str, as_exercise: str
) -> None:
    assert solve_text(problem) is None
    assert check_answer(problem, as_product).verdict == "abstain"
    assert check_answer(problem, as_exercise).verdict == "abstain"


@pytest.mark.parametrize(
    ("problem", "answer"),
    [("What is (2)(3)?", "6"), ("What is (-2)(3)?", "-6"), ("What is (3)+4?", "7")],
)
def test_brackets_inside_an_expression_are_still_read(problem: str, answer: str) -> None:
    solved = solve_text(problem)
    assert solved is not None and solved.final_answer == answer


def test_numbered_steps_are_steps_not_products() -> None:
    findings = check_step_list("Solve 2x + 3 = 11", ["(1) 2x = 8", "(2) x = 4"])
    assert all(f.verdict != "wrong" for f in findings)
    findings = check_step_list("Solve 2x + 3 = 11", ["（1）2x = 8", "（2）x = 4"])
    assert all(f.verdict != "wrong" for f in findings)


def test_a_difference_between_a_smaller_and_a_larger_number_is_not_read() -> None:
    for problem in ["Find the difference between 3 and 10.", "the difference between 3/4 and 5/6"]:
        assert solve_text(problem) is None
        assert check_answer(problem, "7").verdict == "abstain"
        assert check_answer(problem, "-7").verdict == "abstain"
    solved = solve_text("What is the difference between 10 and 3?")
    assert solved is not None and solved.final_answer == "7"


@pytest.mark.parametrize(
    ("problem", "exact"),
    [
        ("Evaluate 2^133", str(2**133)),
        ("Evaluate 10^40 + 1", str(10**40 + 1)),
        ("Evaluate 1/2^133", f"1/{2**133}"),
    ],
)
def test_a_long_exact_result_is_printed_exactly_and_checks(problem: str, exact: str) -> None:
    solved = solve_text(problem)
    assert solved is not None and solved.final_answer == exact
    assert check_answer(problem, exact).verdict == "approve"
