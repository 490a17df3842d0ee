"""An independent tester's breaks (2026-12-03, round 15): inequalities whose written form has a
domain that evaluation cancels (x/x > 0 was "all real numbers", verified), a number's power
typed against a letter (2^2x = 16), an operation note after a line read as a division, and
step checks that took seconds on a 4,000-digit problem."""

from __future__ import annotations

import time

import pytest

from app.symbolic.checker import answers_equivalent, check_answer, solve_reading_with_choices
from app.symbolic.normalize import squeeze_space
from app.symbolic.solver import solve_text
from app.symbolic.steps import check_step_list
from app.verification.programmatic import claims


@pytest.mark.parametrize(
    ("problem", "expected"),
    [
        ("Solve x/x > 0", "x < 0 or x > 0"),
        ("Solve (x-1)/(x-1) > 0", "x < 1 or x > 1"),
        ("解不等式 (x-1)/(x-1) > 0", "x < 1 or x > 1"),
        ("Solve (x - 2)/(x - 2) ≤ 1", "x < 2 or x > 2"),
        ("Solve x^2/x >= 0", "x > 0"),
        ("Solve (x-2)^2/(x-2) >= 0", "x > 2"),
        ("Solve x * (x-2)/(x-2) < 5", "x < 2 or 2 < x < 5"),
        ("Solve x + (x-5)/(x-5) > 0", "-1 < x < 5 or x > 5"),
        ("Solve x^3/x^2 < 3", "x < 0 or 0 < x < 3"),
        ("Solve sqrt(x)^2 < 9", "0 <= x < 9"),
        ("Solve sqrt(x)^2 <= -1", "no solution"),
        ("Solve (sqrt(x))^2 + 4 > -5", "x >= 0"),
        # unchanged: no domain of their own
        ("Solve 2x + 1 > 5", "x > 2"),
        ("Solve x^2 - 4 > 0", "x < -2 or x > 2"),
    ],
)
def test_an_inequality_keeps_the_domain_it_is_written_with(problem: str, expected: str) -> None:
    solution = solve_text(problem)
    assert solution is not None and solution.final_answer == expected


@pytest.mark.parametrize(
    ("problem", "right", "wrong"),
    [
        ("Solve x/x > 0", "x < 0 or x > 0", "all real numbers"),
        ("Solve sqrt(x)^2 < 9", "[0, 9)", "x < 9"),
        ("Solve sqrt(x)^2 <= -1", "no solution", "x <= -1"),
        ("Solve x^4/x^2 ≥ 0", "x < 0 or x > 0", "all real numbers"),
    ],
)
def test_the_check_judges_the_domain_too(problem: str, right: str, wrong: str) -> None:
    assert check_answer(problem, right).verdict == "approve"
    assert check_answer(problem, wrong).verdict == "reject"


@pytest.mark.parametrize("problem", ["Solve 2^2x = 16", "Solve e^2x = 1", "Calculate 2^2(3+1)"])
def test_a_numbers_power_typed_against_a_letter_is_not_guessed(problem: str) -> None:
    assert solve_text(problem) is None  # (2^2)x or 2^(2x)?
    assert check_answer(problem, "4").verdict == "abstain"


def test_a_letters_power_before_another_letter_is_still_a_monomial() -> None:
    solution = solve_text("Solve 2^(2x) = 16")
    assert solution is not None and solution.final_answer == "x = 2"
    simplified = solve_text("Simplify 3x^2y + 2x^2y")
    assert simplified is not None and simplified.final_answer == "5*x^2*y"


def test_an_operation_note_after_a_line_is_not_read_as_a_division() -> None:
    steps = ["2x + 3 = 11 /-3", "2x = 8 /:2", "x = 4"]
    findings = check_step_list("Solve 2x + 3 = 11", steps)
    assert [f.verdict for f in findings] == ["unchecked", "unchecked", "ok"]
    # written against the number, a division by a negative number is still judged
    assert check_step_list("Solve 2x + 3 = 11", ["2x + 3 = 11", "2x = 11/-3"])[1].verdict == (
        "wrong"
    )
    assert check_step_list("", ["12 /-3 = -4"])[0].verdict == "ok"


@pytest.mark.parametrize(
    "problem",
    [
        "9" * 3999 + "!",
        "9" * 4000,
        "1," * 2000,
        "9" * 3999 + "x",
        "2^" * 1999 + "2",
        "x" + " " * 3998 + "y",  # a property question's pattern took 265 s on 300 spaces
        "计算" + "\u3000" * 3990 + "的",
        "x" + "\n" * 3998 + "y",
    ],
)
def test_forty_steps_against_a_problem_at_the_size_limit_are_cheap(problem: str) -> None:
    started = time.process_time()
    check_step_list(problem, ["4"] * 40)
    check_answer(problem, "4")
    solve_reading_with_choices(problem)
    answers_equivalent(problem[:200], "4", problem)
    # was 9-10 s (a units pattern retried a 4,000-digit run from each digit, forty times)
    assert time.process_time() - started < 2.0


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (["18 - 6 = 12"], True),
        (["x > 3"], True),
        (["= 4"], True),
        (["work it out"], False),
        (["12 apples"], False),
        (["x = y"], False),
        (["9" * 1000], False),
    ],
)
def test_a_step_that_may_hold_a_claim(steps: list[str], expected: bool) -> None:
    assert claims(steps) is expected


def test_white_space_is_squeezed_but_line_breaks_are_kept() -> None:
    assert squeeze_space("Solve  2x +\t\t3 = 11") == "Solve 2x + 3 = 11"
    assert squeeze_space("A. 3\n\n  B. 4\r\nC. 5") == "A. 3\nB. 4\nC. 5"
    assert squeeze_space("x\u3000\u3000= 2") == "x = 2"
    solution = solve_text("Solve   2x  +  3   =   11")
    assert solution is not None and solution.final_answer == "x = 4"


# Round 2 (helper 17) on the changes above.


@pytest.mark.parametrize(
    "problem",
    [
        "Calculate 1\n\n1/2 + 1/4",  # was 7/4: an exercise number read as a mixed number
        "Calculate:\n1\n1/2 + 1/4",
        "计算\n1\n1/2+1/4",
        "2\n1/2 × 4 = ?",
        "What is\n3\n1/2 + 1/2?",
    ],
)
def test_a_number_on_the_line_before_a_fraction_is_no_mixed_number(problem: str) -> None:
    assert solve_text(problem) is None
    assert check_answer(problem, "3/4").verdict != "reject"
    solution = solve_text("Calculate 1 1/2 + 1/4")
    assert solution is not None and solution.final_answer == "7/4"


@pytest.mark.parametrize(
    "problem",
    [
        "Solve x + sqrt(-4)^2 > 1",  # was x > 5 through (√-4)² = -4
        "Solve x*sqrt(-1)^2 > 1",
        "Solve x + 0*sqrt(-2) > 1",
        "Simplify x + sqrt(-4)^2",  # was x - 4
    ],
)
def test_a_non_real_part_leaves_an_inequality_or_expression_unread(problem: str) -> None:
    assert solve_text(problem) is None
    simplified = solve_text("Simplify x + sqrt(4)^2")
    assert simplified is not None and simplified.final_answer == "x + 4"


@pytest.mark.parametrize(
    "problem",
    [
        "Solve x^2x = 4",
        "Simplify x^2x",
        "Evaluate x^-2x when x = 2",
        "Evaluate a^-2b when a = 2, b = 8",
    ],
)
def test_an_exponent_typed_without_brackets_is_not_guessed(problem: str) -> None:
    assert solve_text(problem) is None


@pytest.mark.parametrize(
    "problem",
    [
        "Solve " + "9" * 1900 + "x^2 + " + "7" * 1900 + "x = 1",  # 20 s in sympy's solver
        "Solve x^2 - " + "7" * 1900 + "x + 1 < 0",
        "Solve x^2 > " + "7" * 1900,
    ],
)
def test_a_questions_number_of_hundreds_of_digits_is_not_read(problem: str) -> None:
    started = time.process_time()
    assert solve_text(problem) is None
    assert check_answer(problem, "x = 1").verdict == "abstain"
    assert time.process_time() - started < 2.0


def test_an_answer_may_state_a_long_value() -> None:
    assert check_answer("What is 2^400?", str(2**400)).verdict == "approve"


@pytest.mark.parametrize(
    ("steps", "verdict"),
    [
        (["18 - 6 = 1\n2"], "unchecked"),  # 12 wrapped: was wrong
        (["1000 + 234 = 1\n234"], "unchecked"),
        (["18 - 6 = 12\n12 + 3 = 15"], "ok"),  # a line with its own calculation is a line
        (["18 - 6 = 12\n12 + 3 = 16"], "wrong"),
    ],
)
def test_a_number_wrapped_onto_the_next_line_is_not_judged(steps: list[str], verdict: str) -> None:
    assert check_step_list("What is 18 - 6 + 3?", steps)[0].verdict == verdict
