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
