"""Round 6 of the adversarial findings (independent testers, 2026-11-28): `verified` means
right, and the checker abstains when unsure. Each case failed before its fix.

F1: a value that breaks an equation the checker reads but cannot solve with certainty
(x⁵ = 32, 2^x = x + 5) was not refuted by substitution; a model's `x = 3` was verified.
F2: "then check your answer", "(hint: …)", "Q1)" / "Problem 3:" labels hid the stated equation
from its refutation (`x = 5` for 2x + 3 = 11 was verified on one model's word).
F3: a right percent typed with the full-width sign (15％) was called wrong.
"""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer
from app.symbolic.solver import solve_text
from app.symbolic.step_text import latex_rows
from app.symbolic.steps import check_step_list


def verdict(problem: str, answer: str) -> str:
    return check_answer(problem, answer).verdict


# ---------------------------------------------------- F1: refuted where it is not solved


@pytest.mark.parametrize(
    ("problem", "wrong", "shown"),
    [
        ("Solve x^5 = 32", "x = 3", "243 ≠ 32"),
        ("Solve x^6 = 64", "x = 3", "729 ≠ 64"),
        ("Solve x^7 = 128", "x = 3", "2187 ≠ 128"),
        ("Solve x^5 + x = 3", "x = 1", "2 ≠ 3"),
        ("Solve 2^x = x + 5", "x = 1", "2 ≠ 6"),
    ],
)
def test_a_value_that_breaks_an_unsolved_equation_is_wrong(
    problem: str, wrong: str, shown: str
) -> None:
    result = check_answer(problem, wrong)
    assert (result.verdict, result.method) == ("reject", "substitution")
    assert shown in result.detail


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("Solve x^6 = 64", "x = 2"),  # right, one root of two: not judged, never refuted
        ("Solve x^6 = 64", "x = -2"),
        ("Solve x^5 - x = 1", "x = 1.17"),  # a rounded root
        ("Solve sin(x) = 1/2", "x = 30"),  # right in degrees: a trigonometric value decides nothing
        ("Solve sin(x) = 0", "x = 180"),
    ],
)
def test_a_value_that_may_hold_is_not_refuted(problem: str, answer: str) -> None:
    assert verdict(problem, answer) == "abstain"


# ---------------------------------------------------- F2: the equation behind the wording


@pytest.mark.parametrize(
    "problem",
    [
        "Please solve for x: 2x + 3 = 11. Then check your answer.",
        "Solve 2x + 3 = 11. Check your answer.",
        "Solve 2x + 3 = 11, then check.",
        "Solve 2x + 3 = 11 and check your solution.",
        "Solve 2x + 3 = 11 (hint: subtract 3)",
        "Find x. 2x + 3 = 11 (hint: subtract 3)",
        "Q1) 2x + 3 = 11",
        "Problem 3: 2x + 3 = 11",
        "解方程 2x + 3 = 11，并检验。",
    ],
)
def test_a_stated_equation_refutes_through_instructions_hints_and_labels(problem: str) -> None:
    result = check_answer(problem, "x = 5")
    assert (result.verdict, result.method) == ("reject", "substitution")
    assert verdict(problem, "x = 4") in ("approve", "abstain")  # never a right answer rejected


def test_checking_a_given_value_is_still_another_question() -> None:
    assert verdict("Check whether x = 5 is a solution of 2x + 3 = 11.", "x = 5") == "abstain"


# ---------------------------------------------------- F3: the full-width percent sign


@pytest.mark.parametrize(
    ("problem", "right", "wrong"),
    [
        ("12是80的百分之几？", "15％", "16％"),
        ("60比50多百分之几？", "20％", "25％"),
        ("75是60的百分之几？", "125％", "120％"),
        ("What percent of 80 is 12?", "15％", "16％"),
        ("Write 3/8 as a percent", "37.5％", "38％"),
    ],
)
def test_a_percent_typed_full_width_is_read_as_a_percent(
    problem: str, right: str, wrong: str
) -> None:
    assert verdict(problem, right) == "approve"
    assert verdict(problem, right.replace("％", "%")) == "approve"
    assert verdict(problem, wrong) == "reject"


# ---------------------------------------------------- F4: percents added are a percent


@pytest.mark.parametrize(
    ("problem", "right", "wrong"),
    [
        ("What is 15% + 5%?", "20%", "25%"),
        ("15% + 5% = ?", "20％", "0.25"),
        ("What is 30% - 12%?", "18%", "0.12"),
        ("计算：15% + 5%", "20%", "2%"),
    ],
)
def test_a_sum_of_percents_is_answered_and_checked_as_a_percent(
    problem: str, right: str, wrong: str
) -> None:
    """'What is 15% + 5%?' was answered 0.2, and 20% was called 'not worked out'."""
    assert check_answer(problem, right).verdict == "approve"
    assert check_answer(problem, wrong).verdict == "reject"
    # the same value written otherwise is not judged, and is never "not worked out"
    other = check_answer(problem, "0.2" if "15%" in problem else "0.18")
    assert other.verdict == "abstain" and "worked out" not in other.detail


def test_a_rejected_factorisation_names_no_missing_value() -> None:
    assert "None" not in check_answer("Factor x^2 + 4", "(x+2)(x-2)").detail


# ---------------------------------------------------- F5: a logarithm that is a fraction


@pytest.mark.parametrize(
    ("problem", "root"), [("Solve 4^x = 2", "x = 1/2"), ("Solve 8^x = 2", "x = 1/3")]
)
def test_an_exponential_equations_rational_root_is_shown_and_approved(
    problem: str, root: str
) -> None:
    """Was answered log(2)/log(4), unverified."""
    assert check_answer(problem, root).verdict == "approve"
    assert check_answer(problem, "x = 2").verdict == "reject"
    solved = solve_text(problem)
    assert solved is not None and solved.final_answer == root


def test_a_wrong_rounding_is_told_the_rounding_asked() -> None:
    """'the exact value is 49/20' alone did not say what was asked (2.5)."""
    result = check_answer("Round 2.45 to the nearest tenth", "2.4")
    assert result.verdict == "reject" and "2.5 rounded as asked" in result.detail


# ---------------------------------------------------- F6: a second claim after "," or "so"


MING = "Ming has 15 apples. He eats 3 and then buys 8 more. How many apples does he have now?"


@pytest.mark.parametrize(
    "step",
    [
        "15 - 3 = 12, 12 + 8 = 19",
        "15 - 3 = 12,12 + 8 = 19",
        "15 - 3 = 12 so 12 + 8 = 19",
        "15-3=12，12+8=19",
        "3 + 3 = 6, 2 + 2 = 5",
    ],
)
def test_a_false_claim_after_a_comma_or_so_is_wrong(step: str) -> None:
    """The second claim was dropped as if '12, 12' listed numbers, and the step was `ok`."""
    (finding,) = check_step_list(MING, [step])
    assert finding.verdict == "wrong"
    assert (
        check_step_list(MING, [step.replace("19", "20").replace("= 5", "= 4")])[0].verdict == "ok"
    )


# ---------------------------------------------------- F7: an equation's number after it


@pytest.mark.parametrize(
    ("problem", "steps"),
    [
        ("Solve 2x + 3 = 11", ["2x + 3 = 11 (1)", "2x = 8 (2)", "x = 4 (3)"]),
        ("解方程：5x + 3 = 2x − 9", ["5x − 2x = −9 − 3（1）", "3x = −12（2）", "x = −4（3）"]),
        ("Solve 2x + 3 = 11", ["2x = 8 ②", "x = 4 ③"]),
    ],
)
def test_an_equation_number_after_a_right_line_is_not_a_factor(
    problem: str, steps: list[str]
) -> None:
    """'2x = 8 (2)' was read as 2x = 16 and a right step called wrong."""
    assert [f.verdict for f in check_step_list(problem, steps)] == ["ok"] * len(steps)


def test_a_closing_number_that_may_be_a_factor_is_not_judged() -> None:
    assert check_step_list("Solve 2x + 3 = 11", ["2x = 8(2)"])[0].verdict == "unchecked"


# ---------------------------------------------------- F8: work left undone is not correct


@pytest.mark.parametrize(
    ("problem", "undone", "done"),
    [
        ("Solve 2x - 1 > 3", "2x - 1 > 3", "x > 2"),  # the problem copied back
        ("Solve 2x - 1 > 3", "2x > 4", "2 < x"),
        ("Solve 2x - 1 > 3", "x > 4 ÷ 2", "(2, ∞)"),
        ("解不等式：3 − 2x ≤ 9", "−2x ≤ 6", "x ≥ -3"),
        ("Solve x^2 - 5x + 6 < 0", "(x-2)(x-3) < 0", "2 < x < 3"),
        ("Solve x^2 < 9", "x^2 < 9", "-3 < x < 3"),
        ("144 ÷ 12 = ?", "144 ÷ 12", "12"),
        ("12 ÷ 3 = ?", "36 ÷ 9", "4"),
        ("What is 3/4 of 60?", "180 ÷ 4", "45"),
        ("Solve 7x = 91", "x = 91 ÷ 7", "x = 13"),
        ("What is 1/2 + 3/2?", "4/2", "2"),
    ],
)
def test_an_answer_with_its_work_left_undone_is_never_correct(
    problem: str, undone: str, done: str
) -> None:
    """Each was `correct` (and, with steps, `expected` then showed the worked-out answer)."""
    result = check_answer(problem, undone)
    assert result.verdict == "abstain" and result.conclusive
    assert check_answer(problem, done).verdict == "approve"


def test_such_that_states_the_equation_given() -> None:
    problem = "Lily thinks of a number x such that 3x - 7 = 2x + 5. Find x."
    result = check_answer(problem, "x = -2")
    assert (result.verdict, result.method) == ("reject", "substitution")
    assert verdict(problem, "x = 12") in ("approve", "abstain")


# ---------------------------------------------------- F9: two measures multiplied


@pytest.mark.parametrize(
    "step",
    [
        "30厘米 × 20厘米 = 600平方分米",  # 600 cm² is 6 dm²
        "Area = 6 cm × 4 cm = 24 cm",
        "5米 × 5米 = 25米",
        "6千克 × 2千克 = 12千克",
    ],
)
def test_a_product_of_two_measures_is_not_confirmed_by_its_numbers(step: str) -> None:
    """Each was `ok` (600 = 600) whatever unit the result was given."""
    assert check_step_list("", [step])[0].verdict == "unchecked"


@pytest.mark.parametrize(
    "step", ["5 boxes × 12 pencils = 60 pencils", "3米 × 4 = 12米", "3 km = 3000 m"]
)
def test_counts_and_one_measure_are_still_checked(step: str) -> None:
    assert check_step_list("", [step])[0].verdict == "ok"


# ---------------------------------------------------- F10: angles without their unit


@pytest.mark.parametrize(
    ("problem", "right"),
    [
        ("Solve sin x = 1/2 for 0 < x < 90", "x = 30"),  # in degrees
        ("Solve 2cos x = 1 for 0 ≤ x ≤ 90", "x = 60"),
        ("Solve tan x = 1 for 0 < x < 90", "x = 45"),
        ("Solve 2x = sin 30", "x = 1/4"),  # sin 30°
        ("Solve x + tan 45 = 2", "x = 1"),
    ],
)
def test_an_angle_in_no_stated_unit_is_not_read_in_radians(problem: str, right: str) -> None:
    """Each right answer (in degrees) was `incorrect`: the angle was read in radians."""
    assert verdict(problem, right) == "abstain"


@pytest.mark.parametrize(
    ("problem", "right", "wrong"),
    [
        ("Solve 2x = sin 30°", "x = 1/4", "x = 1"),
        ("Solve sin x = 1/2 for 0 < x < pi/2", "x = pi/6", "x = pi/3"),
    ],
)
def test_angles_in_a_stated_unit_are_still_read(problem: str, right: str, wrong: str) -> None:
    assert verdict(problem, right) == "approve"
    assert verdict(problem, wrong) == "reject"


# ---------------------------------------------------- F11: a fraction of a percent


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("What is 1/2% + 1/2%?", "1%"),
        ("What is 1/2% + 1/2%?", "100"),
        ("What is 1/3% + 2/3%?", "100"),  # was `correct`: 1 ÷ (2/3)%
        ("What is 1/2% × 2?", "100"),
    ],
)
def test_a_fraction_before_a_percent_sign_is_not_read_as_a_division(
    problem: str, answer: str
) -> None:
    assert verdict(problem, answer) == "abstain"


# ---------------------------------------------------- F12: a note after a derivation line


@pytest.mark.parametrize(
    ("problem", "steps"),
    [
        ("Solve 2x - 3 = 5", ["2x - 3 = 5", "2x = 8 (+3)", "x = 4 (÷2)"]),
        ("Solve 2x + 3 = 11", ["2x = 8 (-3)", "x = 4"]),
        ("Solve 2x + 3 = 11", ["2x = 8（-3）", "x = 4"]),
        ("Solve -2x > 6", ["x < -3 (-2)"]),
    ],
)
def test_a_note_in_brackets_after_a_line_is_no_factor(problem: str, steps: list[str]) -> None:
    """'2x = 8 (+3)' was read as 2x = 8·3 and a right step called wrong."""
    assert "wrong" not in [f.verdict for f in check_step_list(problem, steps)]


def test_a_factor_in_brackets_is_still_read() -> None:
    steps = ["2x = 3(x - 1)", "2x = 3x - 3", "x = 3"]
    assert [f.verdict for f in check_step_list("Solve 2x = 3(x - 1)", steps)] == ["ok"] * 3


def test_set_membership_is_a_solved_form() -> None:
    assert verdict("Solve 2x > 4", "x ∈ (2, ∞)") == "approve"


# ---------------------------------------------------- F13: a model's solution, as shown


BALLOONS = "Lou buys 12 red and 24 green balloons. How many balloons?"


@pytest.mark.parametrize(
    "latex",
    [
        r"\begin{aligned} T &= 12 + 24 \\[4pt] &= 30 \end{aligned}",
        r"\begin{gathered} 12 + 24 = 30 \end{gathered}",
        r"\begin{eqnarray*} T &=& 12 + 24 \\ &=& 30 \end{eqnarray*}",
        r"\begin{alignedat}{2} T &= 12 + 24 \\ &= 30 \end{alignedat}",
        r"T = 12 + 24 \newline = 30",
        r"T = 12 + 24 \nonumber \\ = 30",
        r"T &= 12 + 24 \quad \text{(add)} \\ &= \color{red}{30}",
    ],
)
def test_a_false_sum_in_any_aligned_layout_is_seen(latex: str) -> None:
    """Each layout hid `12 + 24 = 30` from the solution's step check."""
    rows = latex_rows(latex)
    assert "wrong" in [f.verdict for f in check_step_list(BALLOONS, rows)], rows


@pytest.mark.parametrize(
    ("problem", "step"),
    [
        ("A parallelogram has a base of 12 cm and a height of 7 cm. What is its area?",
         "A = 12 \\times 7 = 94"),
        ("An arithmetic sequence has a_1 = 3 and common difference 4. Find a_5.",
         "3 + 4 × 4 = 20"),
    ],
)  # fmt: skip
def test_a_base_or_a_subscript_is_no_other_number_system(problem: str, step: str) -> None:
    """'base' (of a parallelogram) and a_1 turned every arithmetic flag off."""
    assert check_step_list(problem, [step])[0].verdict == "wrong"
    assert check_step_list("What is 23 in base 5?", ["23 = 4 × 5 + 3 = 43"])[0].verdict != "wrong"


@pytest.mark.parametrize("step", ["2 weeks = 80 hours", "4 weeks = 20 days", "2 days = 40 hours"])
def test_a_working_week_or_day_is_not_judged_by_the_calendar(step: str) -> None:
    """A right solution ('a 40-hour week': 2 weeks = 80 hours) was shown as caution."""
    problem = "Ann works a standard 40-hour week at $15 hourly. What does she earn in 2 weeks?"
    assert check_step_list(problem, [step])[0].verdict == "unchecked"
    assert check_step_list(problem, ["3 hours = 200 minutes"])[0].verdict == "wrong"
