"""A wrong unit conversion is explained with the student's own numbers, never the right one."""

from __future__ import annotations

import pytest

from app.checks.steps import explain
from app.symbolic.steps import check_step_list
from app.verification.step_verdicts import combine


@pytest.mark.parametrize(
    ("problem", "steps", "language", "claim", "right_value"),
    [
        ("5 kg of flour is how many grams?", ["5 kg = 500 g"], "en", "5 kg = 500 g", "5000"),
        ("3米是多少厘米？", ["3米 = 30厘米"], "zh", "3米 = 30厘米", "300"),
    ],
)
def test_a_wrong_conversion_names_only_the_students_numbers(
    problem: str, steps: list[str], language: str, claim: str, right_value: str
) -> None:
    (outcome,) = combine(check_step_list(problem, steps), None)
    assert (outcome.verdict, outcome.method) == ("wrong", "arithmetic"), outcome
    explanation = explain(0, outcome, language)
    assert claim in explanation and right_value not in explanation
