"""The programmatic verifier: right answers in any notation pass, near misses fail."""

from __future__ import annotations

import pytest

from app.symbolic.checker import answers_equivalent, check_answer, math_verify_equivalent


@pytest.mark.parametrize(
    ("problem", "candidate", "method"),
    [
        ("Solve 2x + 3 = 11", "x = 4", "substitution"),
        ("Solve 2x + 3 = 11", "4", "substitution"),
        ("Solve 2x + 3 = 11", "The answer is x = 4.", "substitution"),
        ("Solve 2x + 3 = 11", "\\boxed{4}", "substitution"),
        ("x^2 - 5x + 6 = 0", "x = 3 or x = 2", "substitution"),
        ("x^2 - 5x + 6 = 0", "2, 3", "substitution"),
        ("x^2 - 5x + 6 = 0", "x₁ = 2, x₂ = 3", "substitution"),
        ("x^2 - 2 = 0", "x = ±sqrt(2)", "substitution"),
        ("x^2 - 2 = 0", "x = \\pm \\sqrt{2}", "substitution"),
        ("x^2 - 2 = 0", "x ≈ 1.414 or x ≈ -1.414", "substitution"),  # marked approximate
        ("Solve the system: x + y = 10, x - y = 2", "x = 6, y = 4", "substitution"),
        ("Solve the system: x + y = 10, x - y = 2", "(6, 4)", "substitution"),
        ("x^2 + 1 = 0", "no real solution", "evaluation"),
        ("3/4 + 5/6 = ?", "19/12", "evaluation"),
        ("3/4 + 5/6 = ?", "\\frac{19}{12}", "evaluation"),
        ("3/4 + 5/6 = ?", "1 7/12", "evaluation"),
        ("3/4 + 5/6 = ?", "≈ 1.58", "evaluation"),  # correctly rounded, marked approximate
        ("3/4 + 5/6 = ?", "about 1.5833", "evaluation"),
        ("1/4 + 1/4", "0.5", "evaluation"),  # 1/2, 0.5, \frac{1}{2}: one value
        ("1/4 + 1/4", "\\frac{1}{2}", "evaluation"),
        ("What is 17*23?", "391", "evaluation"),
        ("What is 15% of 80?", "12", "evaluation"),
        ("0.1 + 0.2", "0.3", "evaluation"),
    ],
)
def test_approves(problem: str, candidate: str, method: str) -> None:
    result = check_answer(problem, candidate)
    assert (result.verdict, result.method) == ("approve", method), result
    assert result.score == 1.0


@pytest.mark.parametrize(
    ("problem", "candidate"),
    [
        # wrong by a little
        ("Solve 2x + 3 = 11", "x = 4.01"),
        ("Solve 2x + 3 = 11", "x = 5"),
        ("Solve 2x + 3 = 11", "-4"),
        ("What is 17*23?", "390"),
        ("What is 17*23?", "391.5"),
        ("3/4 + 5/6 = ?", "19/13"),
        ("3/4 + 5/6 = ?", "1.59"),  # wrongly rounded
        ("3/4 + 5/6 = ?", "≈ 1.59"),  # wrongly rounded, though marked approximate
        ("3/4 + 5/6 = ?", "8/10"),  # added numerators and denominators
        ("0.1 + 0.2", "0.30000000000000004"),  # float noise is not the exact answer
        ("1/4 + 1/4", "2/8"),
        # incomplete or wrong roots
        ("x^2 - 5x + 6 = 0", "x = 2"),
        ("x^2 - 5x + 6 = 0", "x = 2 or x = 4"),
        ("x^2 - 2 = 0", "x = 1.41 or x = -1.42"),
        ("x^2 + 1 = 0", "x = 1"),
        ("Solve the system: x + y = 10, x - y = 2", "x = 4, y = 6"),
        ("Solve the system: x + y = 10, x - y = 2", "x = 6"),
        ("Solve 2x + 3 = 11", ""),
    ],
)
def test_rejects(problem: str, candidate: str) -> None:
    result = check_answer(problem, candidate)
    assert result.verdict == "reject", result
    assert result.score == 0.0


@pytest.mark.parametrize(
    ("problem", "candidate"),
    [
        ("Tom has 12 apples and buys 3 bags of 4 apples. How many now?", "24"),
        ("Solve 2x + 3 = 11", "banana"),
    ],
)
def test_abstains_rather_than_guessing(problem: str, candidate: str) -> None:
    result = check_answer(problem, candidate)
    assert result.verdict == "abstain"
    assert result.score is None


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("72", "$72", True),
        ("72", "72 clips", None),  # a unit only when the problem uses it (problem= below)
        ("1/2", "0.5", True),
        ("\\frac{1}{2}", "0.5", True),
        ("1,000", "1000", True),
        ("18", "18.5", False),
        ("72", "27", False),
    ],
)
def test_answers_equivalent(a: str, b: str, same: bool) -> None:
    assert answers_equivalent(a, b) is same


def test_a_unit_is_read_when_the_problem_uses_it() -> None:
    problem = "Natalia sold 48 clips in April and half as many in May. How many clips?"
    assert answers_equivalent("72", "72 clips", problem) is True
    assert answers_equivalent("72", "72 hours", problem) is None


@pytest.mark.parametrize(
    ("gold", "candidate", "same"),
    [
        # Undelimited, math-verify read these only up to the part it knew (24, 5, 2): "equal".
        ("24", "24\\sqrt{2}", False),
        ("5", "5^{3/2}", False),
        ("2", "2 + 2^{61}", False),
        ("\\frac{1}{2}", "\\frac{1}{2}\\pi", False),
        # ...and did not read these at all (no verdict), though they are the same answer.
        ("\\frac{3x^2}{2}", "\\frac{3}{2}x^2", True),
        ("\\frac{1}{6}", "\\dfrac{1}{6}", True),
        ("85,\\!184", "85184", True),
        ("$\\frac{1}{2}$", "0.5", True),  # already delimited: read as written
    ],
)
def test_math_verify_reads_the_whole_answer(gold: str, candidate: str, same: bool) -> None:
    """The MATH grader (`bench service --grader math-verify`) and the bank's LaTeX fallback."""
    assert math_verify_equivalent(gold, candidate) is same


@pytest.mark.parametrize(
    ("problem", "candidate", "verdict"),
    [
        # Rounded right and marked approximate, where the exact decimal was there to write:
        # not judged (was called incorrect, a right answer shown as wrong).
        ("What is 7/8?", "≈0.88", "abstain"),
        ("Convert 1 mile to km.", "≈1.61 km", "abstain"),
        ("Convert 3 feet to meters.", "about 0.91 m", "abstain"),
        ("What is 7/8?", "≈0.875", "approve"),
        ("What is 7/8?", "≈0.87", "reject"),  # rounded wrong
        ("What is 7/8?", "0.88", "reject"),  # not marked: stated as the exact value
        ("What is 2/3?", "≈0.67", "approve"),  # no exact decimal to write
    ],
)
def test_an_approximation_of_a_terminating_decimal(
    problem: str, candidate: str, verdict: str
) -> None:
    assert check_answer(problem, candidate).verdict == verdict


@pytest.mark.parametrize(
    ("problem", "candidate", "verdict"),
    [
        # The right share not written as a percent: not judged, as "7/8 as a percent": 0.875
        # (0.25 was called incorrect, a right value shown as wrong).
        ("What percent of 80 is 20?", "0.25", "abstain"),
        ("What percent of 80 is 20?", "1/4", "abstain"),
        ("20是80的百分之几？", "0.25", "abstain"),
        ("What percent of 80 is 20?", "25", "approve"),
        ("What percent of 80 is 20?", "0.3", "reject"),
        # "5-1/4": a mixed number as US rulers write it, or a difference? (was incorrect)
        ("What is 3 1/2 + 1 3/4?", "5-1/4", "abstain"),
        ("What is 3 1/2 + 1 3/4?", "5 1/4", "approve"),
    ],
)
def test_right_values_in_another_form_are_not_called_wrong(
    problem: str, candidate: str, verdict: str
) -> None:
    assert check_answer(problem, candidate).verdict == verdict
