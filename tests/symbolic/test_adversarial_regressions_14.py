"""An independent tester's breaks (2026-12-04, round 16): an exclamation mark read as a
factorial ("计算：5×4！" verified 120, a student's "x = 4!" rejected as 24), a double factorial
read as (4!)!, and an answer in pounds approved for a problem counted in dollars."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer
from app.symbolic.exclamation import exclamation_in_answer, exclamation_in_problem
from app.symbolic.solver import solve_text


@pytest.mark.parametrize(
    "problem",
    [
        "What is 5 × 4!",
        "5 × 4!",
        "计算：5×4！",
        "计算 10 - 3！",
        "Calculate 10 - 3!",
        "Compute 3 + 3!",
        "计算：3+3！",
        "What is 5!!",
        # the re-test: other operations, marks after a bar or a radical, look-alikes, a
        # sentence that goes on in small letters or ends in punctuation
        "what is 5 x 4!",
        "What is 6 divided by 3!",
        "What is 5 minus 4!",
        "What is 5(4)!",
        "What is 5 × |4|!",
        "What is √16!",
        "What is 5 × 4⁉",
        "What is 5 × 4‼",
        "Compute 3 + 3! show your work.",
        "Compute 3 + 3!\nshow work",
        "Compute 5 × 4! then check it",
        "Compute 3 + 3!”",
        "Compute 3 + 3!,",
        "What is 5 × 4!.",
        "计算：5×4!。",
        # a factorial after a number word was taken over the product: (5 × 4)! + 1, verified
        "What is 5 times 4! + 1",
        "What is 5 times 4!",
        "What is 5 plus 4!",
        "What is the product of 5 and 4!",
        "What is 5 multiplied by 4!",
        "What is 2 times 3! ?",
    ],
)
def test_an_exclamation_that_may_end_the_sentence_is_not_solved(problem: str) -> None:
    assert solve_text(problem) is None


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("计算：5×4！", "20"),
        ("计算：5×4！", "120"),
        ("Calculate 10 - 3!", "7"),
        ("Calculate 10 - 3!", "4"),
        ("What is 5!!", "8"),
        ("What is 5!!", "120"),
    ],
)
def test_neither_reading_of_such_a_problem_is_judged(problem: str, answer: str) -> None:
    assert check_answer(problem, answer).verdict == "abstain"


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("Solve 2x + 3 = 11", "x = 4!"),
        ("Solve 2x + 3 = 11", "The answer is x = 4!"),
        ("解方程 2x + 3 = 11", "x=4！"),
        ("Solve 2x + 3 = 11", "x=4!!"),
        ("2 + 2 = ?", "4！"),
        ("What is 15% of 80?", "12!"),
        ("Solve x^2 = 16", "x = ±4!"),
        ("What is 5 × 4?", "20!."),
        ("What is 5 × 4?", "20 !."),
        ("What is 5 × 4?", "20!。"),
        ("What is 5 × 4?", "|20|!"),
        ("Solve x + 1 = 5", "x = 4!,"),
        ("Solve x + 1 = 5", "x = 4!;"),
        ("What is 5 times 4! + 1", "121"),
    ],
)
def test_a_right_answer_said_with_an_exclamation_is_not_rejected(problem: str, answer: str) -> None:
    """The student may be shouting a right answer, or writing a factorial: neither is judged."""
    assert check_answer(problem, answer).verdict == "abstain"


@pytest.mark.parametrize(
    ("problem", "answer", "verdict"),
    [
        ("What is 5!", "120", "approve"),  # a lone number: only a factorial is meant
        ("What is 5!?", "120", "approve"),
        ("What is 5!?", "100", "reject"),
        ("Solve x! = 24", "x = 4", "approve"),
        ("What is (3!)!", "720", "approve"),
        ("计算：5×4", "20", "approve"),
        ("What is 4! × 5", "120", "approve"),  # the expression goes on after the mark
        ("What is 5! + 1", "121", "approve"),
        ("6!/(4!2!)", "15", "approve"),
        ("7!/5!.", "42", "approve"),  # the text writes factorials: its last one is one too
    ],
)
def test_a_factorial_that_cannot_be_an_exclamation_is_still_read(
    problem: str, answer: str, verdict: str
) -> None:
    assert check_answer(problem, answer).verdict == verdict


def test_where_an_exclamation_is_ambiguous() -> None:
    assert exclamation_in_problem("Compute 3 + 3!")
    assert exclamation_in_problem("5 × 4! Then add 1.")
    assert exclamation_in_problem("加油：5×4！")
    assert not exclamation_in_problem("What is 5!")
    assert not exclamation_in_problem("5! + 3 = ?")
    assert not exclamation_in_problem("Warm-up: What is 4!")  # a hyphen between words
    assert exclamation_in_problem("加油！2+3=?")  # a mark NFKC folds into "!": never read
    assert exclamation_in_answer("x = 4!")
    assert exclamation_in_answer("4！")
    assert exclamation_in_answer("(2+3)!")
    assert exclamation_in_answer("\\frac{6!}{3!}")  # an answer's factorial is never judged
    assert not exclamation_in_answer("x = 4")


@pytest.mark.parametrize(
    ("problem", "answer", "verdict"),
    [
        ("What is $3.50 × 4?", "£14", "abstain"),
        ("What is $3.50 × 4?", "€14", "abstain"),
        ("What is $3.50 × 4?", "¥14", "abstain"),
        ("What is $3.50 × 4?", "$14", "approve"),
        ("What is $3.50 × 4?", "14", "approve"),
        ("What is $3.50 × 4?", "$15", "reject"),
        ("What is 15% of 80?", "$12", "approve"),  # no currency in the problem: the sign is idle
    ],
)
def test_an_answer_in_another_currency_is_not_the_amount_asked(
    problem: str, answer: str, verdict: str
) -> None:
    assert check_answer(problem, answer).verdict == verdict


def test_latex_thin_space_is_no_exclamation() -> None:
    """MATH writes "20,\\!000" and answers "\\$1,\\!348": LaTeX spacing, not a mark."""
    assert not exclamation_in_answer(r"\$1,\!348")
    assert not exclamation_in_problem(r"invest $20,\!000$ dollars for $4$ years")
    assert check_answer("What is 1000 + 348?", r"1,\!348").verdict == "approve"
