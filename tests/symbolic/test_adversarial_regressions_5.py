"""Round 5 of the adversarial findings: `verified` means right, and the checker abstains when
unsure.

F1: a stated equation refutes a value that breaks it even where the words are not read, and
harmless instruction phrases ("carefully", "show your work", "写出过程") are read as such.
F2: an answer with an operation left to carry out ("7 × 8" for "7 × 8 = ?") is not approved.
"""

from __future__ import annotations

import pytest

from app.symbolic.checker import answers_equivalent, check_answer


def verdict(problem: str, answer: str) -> str:
    return check_answer(problem, answer).verdict


# ------------------------------------------------------------------ F1: harmless phrases


@pytest.mark.parametrize(
    ("problem", "wrong", "right"),
    [
        ("Please solve 2x + 3 = 11 carefully", "x = 5", "x = 4"),
        ("解方程：2x+3=11（请写出过程）", "x = 5", "x = 4"),
        ("Solve 2x + 3 = 11, explain each step", "x = 5", "x = 4"),
        ("Solve 2x + 3 = 11. Show your work.", "x = 5", "x = 4"),
        ("Solve 2x + 3 = 11 step by step", "x = 5", "x = 4"),
        ("Determine the value of o that satisfies: 3*o + 2 = 11 (show work)", "o = 5", "o = 3"),
    ],
)
def test_instructions_on_how_to_work_do_not_change_the_question(
    problem: str, wrong: str, right: str
) -> None:
    assert check_answer(problem, wrong).method == "substitution"
    assert verdict(problem, wrong) == "reject"
    assert verdict(problem, right) == "approve"


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("Solve 2x + 3 = 11, then double it", "x = 4"),  # asks for 8
        ("Solve 2x + 3 = 11, then double it", "8"),
        ("Solve 2x + 3 = 11 and show that it is positive", "x = 4"),
        ("Show that x = 4 solves 2x + 3 = 11", "x = 4"),
        ("Solve 2x + 3 = 11 (then add 3)", "x = 4"),
        ("解方程 2x+3=11，然后把结果乘以2", "x = 4"),
    ],
)
def test_words_that_change_the_question_still_abstain(problem: str, answer: str) -> None:
    assert verdict(problem, answer) == "abstain"


# ------------------------------------------------------------------ F1: a stated equation refutes


@pytest.mark.parametrize(
    "problem",
    [
        "Solve 2x + 3 = 11, then double it",
        "Solve 2x + 3 = 11 with great enthusiasm",
        "2x + 3 = 11. Then double x.",
        "解方程 2x+3=11，然后把结果乘以2",
    ],
)
def test_a_value_that_breaks_the_stated_equation_is_wrong_whatever_is_asked(problem: str) -> None:
    result = check_answer(problem, "x = 5")
    assert (result.verdict, result.method) == ("reject", "substitution")
    assert "13 ≠ 11" in result.detail


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("Solve 2x + 3 = 11, then double it", "10"),  # a value for the follow-up: not x
        ("Solve 2x + 3 = 11, then double it", "y = 5"),  # not the unknown
        ("Solve 2x + 3 = 11, then double it", "x ≈ 5"),  # marked approximate
        ("Solve x^2 = 2, then write it in a sentence", "x = 1.414"),  # a rounded root
        ("Solve 2x + 3 = 11, then double it", "x = 5 or x = 4"),
        ("Which is false: 2x + 3 = 11", "x = 5"),
        ("Is it true that 2x + 3 = 11 for every x", "x = 5"),
        ("If 2x + 3 = 11 were wrong, find x", "x = 5"),
        ("Solve 2x + 3 = 11 (mod 5)", "x = 9"),  # 9 is a solution mod 5
        ("Solve 2x + 3 = 11 in base 8 numerals", "x = 5"),
        ("Solve 2x + 3 = 12, give x rounded", "x = 5"),
        # rounding said in abbreviations (the second tester's F2): 2000/7 = 285.7…
        ("Solve 7x = 2000, to 2 s.f.", "x = 290"),
        ("Solve 7x = 2000 (2 sf)", "x = 290"),
        ("Solve 7x = 2000, to 2 sig figs", "x = 290"),
        ("Solve 7x = 2000, giving x to 2 sig. fig.", "x = 290"),
        ("Solve 7x = 2000, to 0 dp", "x = 286"),
        ("A student wrote 2x + 3 = 11 by mistake for 2x + 3 = 13", "x = 5"),
        ("Solve ax + 3 = 11 fully", "x = 5"),  # two letters
        ("Solve 1/x = 0 with gusto", "x = 0"),  # undefined there: not a rational value
    ],
)
def test_no_refutation_where_the_words_may_change_the_equation(problem: str, answer: str) -> None:
    assert verdict(problem, answer) == "abstain"


# ------------------------------------------------------------------ F1 (c): chained percents


@pytest.mark.parametrize(
    ("problem", "right", "wrong"),
    [
        ("What is 20% of 50% of 80?", "8", "10"),
        ("What is 10% of 20% of 30% of 1000?", "6", "60"),
        ("What is 15% of 80?", "12", "13"),
    ],
)
def test_a_chain_of_percents_is_their_product(problem: str, right: str, wrong: str) -> None:
    assert verdict(problem, right) == "approve"
    assert verdict(problem, wrong) == "reject"


# ------------------------------------------------------------------ F2: not worked out


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("3/4 + 5/6 = ?", "3/4 + 5/6"),
        ("3/4 + 5/6 = ?", r"\dfrac{3}{4}+\dfrac{5}{6}"),
        ("7 × 8 = ?", "7 × 8"),
        ("2^10 = ?", "2^10"),
        ("What is √16?", "√16"),
        ("What is sqrt(16)?", "sqrt(16)"),
        ("What is sqrt(12)?", "sqrt(12)"),
        ("What is 5!?", "5!"),
        ("12 + 5 = ?", "12+5"),
        ("What is 15% of 80?", "15% * 80"),
        ("What is 2 - 5/12?", "2 - 5/12"),
        ("What is 5 × 4!?", "5 × 4!"),
        ("What is 3/4 + 5/6?", "1 + 7/12 + 0"),
        ("Solve 2x + 3 = 11", "x = 2 + 2"),
        ("Solve 2x + 3 = 11", "x = 2^2"),
        # a percent where a plain number is asked: 1200% = 12, but not "15% of 80"
        ("What is 15% of 80?", "1200%"),
        ("Solve 2x + 3 = 11", "400%"),
        ("1/4 + 1/4", "50%"),  # was approved as "one value": no percent is asked
        ("Solve 2x + 3 = 11", "x = 400%"),
        ("Simplify (x^2-1)/(x-1)", "(x-1)(x+1)/(x-1)"),
        ("Simplify (x^2+x)/x", "x(x+1)/x"),
    ],
)
def test_an_operation_left_to_carry_out_is_not_approved(problem: str, answer: str) -> None:
    result = check_answer(problem, answer)
    assert result.verdict == "abstain", result


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("What is 3/4 + 5/6?", "19/12"),
        ("What is 3/4 + 5/6?", "1 7/12"),
        ("What is 3/4 + 5/6?", r"\frac{19}{12}"),
        ("What is 2 - 5?", "-3"),
        ("What is 2 - 5/12?", "19/12"),
        ("What is 1/2 - 3/4?", "-1/4"),
        ("What is 1/2 + 1/4?", "0.75"),
        ("What is sqrt(12)?", "2√3"),
        ("What is sqrt(12)?", "2*sqrt(3)"),
        ("What is 7 × 8?", "56"),
        ("What is 2^10?", "1024"),
        ("Solve x^2 - 2x - 1 = 0", "x = 1 + √2 or x = 1 - √2"),
        ("Solve x^2 = 2", "x = √2 or x = -√2"),
        ("Write 3/8 as a percent", "37.5%"),
        ("What percent of 50 is 12?", "24%"),
        ("Simplify (x^2-1)/(x-1)", "x + 1"),
    ],
)
def test_final_forms_stay_correct(problem: str, answer: str) -> None:
    assert verdict(problem, answer) == "approve"


def test_wrong_values_are_still_wrong_however_written() -> None:
    assert verdict("7 × 8 = ?", "7 × 9") == "reject"
    assert verdict("Solve 2x + 3 = 11", "x = 2 + 3") == "reject"


def test_an_unworked_answer_is_not_the_same_answer_as_its_value() -> None:
    assert answers_equivalent("19/12", "3/4 + 5/6") is None
    assert answers_equivalent(r"\frac{19}{12}", r"\frac{3}{4}+\frac{5}{6}") is None
    assert answers_equivalent("19/12", "1 7/12") is True


@pytest.mark.parametrize(("a", "b"), [("24%", "24%"), ("37.5%", "37.5%"), ("0.333...", "0.333...")])
def test_answers_written_alike_are_the_same_answer(a: str, b: str) -> None:
    """The grader and the bank compare what was written: a percent is not 'left undone' next
    to the same percent (bench solve graded 22 right percent answers wrong)."""
    assert answers_equivalent(a, b) is True
