"""/v1/checks, an independent tester's round (2026-12-01).

- The rule that the right value not worked out is `unknown` caught "144/12" but not the same
  division bracketed: "\\frac{144}{12}" (cleaned to "((144)/(12))"), "(144)/(12)", "91/(7)",
  "x = \\frac{8}{2}" were `correct`.
- "0,125" for 1/8 (a decimal comma) was read as 125 with a thousands comma and called
  `incorrect`; no group of thousands begins with 0, so it is not read."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("What is 144 ÷ 12?", r"\frac{144}{12}"),
        ("What is 144 ÷ 12?", r"\tfrac{144}{12}"),
        ("What is 144 ÷ 12?", "{144}/{12}"),
        ("What is 144 ÷ 12?", "(144)/(12)"),
        ("What is 91 ÷ 7?", "91/(7)"),
        ("Solve 7x = 91", "x = (91)/(7)"),
        ("Solve 2x + 3 = 11", r"x = \frac{8}{2}"),
        ("7 × 8 = ?", r"\dfrac{112}{2}"),
    ],
)
def test_a_bracketed_division_left_is_not_worked_out(problem: str, answer: str) -> None:
    result = check_answer(problem, answer)
    assert (result.verdict, result.conclusive) == ("abstain", True), (answer, result)


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("3/4 + 5/6 = ?", r"\frac{19}{12}"),
        ("3/4 + 5/6 = ?", "(19)/(12)"),
        ("Solve 2x = 3", "x = (3)/(2)"),
        ("What is 144 ÷ 12?", "12"),
    ],
)
def test_a_fraction_in_lowest_terms_is_worked_out(problem: str, answer: str) -> None:
    assert check_answer(problem, answer).verdict == "approve", answer


@pytest.mark.parametrize("answer", ["0,125", "-0,125"])
def test_a_decimal_comma_is_not_read_as_thousands(answer: str) -> None:
    assert check_answer("Write 1/8 as a decimal", answer).verdict == "abstain"


def test_thousands_commas_are_still_read() -> None:
    assert check_answer("What is 1000 + 125?", "1,125").verdict == "approve"
    assert check_answer("What is 1000000 + 1?", "1,000,001").verdict == "approve"
