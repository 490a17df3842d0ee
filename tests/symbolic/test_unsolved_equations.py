"""An equation the reader reads but cannot solve with certainty (arctan, x + ln x, x⁵) proves
no answer right, but an exact value offered as a solution that breaks it is wrong: MAV's
"Find all the solutions to arctan(1/x) + arctan(1/(x+2)) = arctan(4/(x+3))" had the models'
shared wrong roots (1 ± √21)/2 verified. A decimal may be a rounded root and is not judged.

Inverse trigonometric functions are read where the angle's unit cannot matter: the equation
is a sum of their values (the unit's factor cancels), or the problem is stated in radians."""

from __future__ import annotations

import pytest

from app.symbolic.answers import read_candidate
from app.symbolic.checker import check_answer
from app.symbolic.normalize import ParseError

ARCTAN = (
    r"Find all the solutions to \[\arctan \frac{1}{x} + \arctan \frac{1}{x + 2} = "
    r"\arctan \frac{4}{x + 3}.\]Enter all the solutions, separated by commas."
)


@pytest.mark.parametrize(
    ("problem", "answer", "verdict"),
    [
        (ARCTAN, r"\frac{1 - \sqrt{21}}{2}, \frac{1 + \sqrt{21}}{2}", "reject"),
        (ARCTAN, r"-\sqrt{5}, \sqrt{5}", "reject"),  # -√5 breaks it
        (ARCTAN, "3", "reject"),
        (ARCTAN, r"\sqrt{5}", "abstain"),  # right; that it is the only one is not proven
        (ARCTAN, "2.236", "abstain"),  # √5 rounded?
        ("Solve ln(x) + x = 1", "2", "reject"),
        ("Solve ln(x) + x = 1", "1", "abstain"),
        ("Solve 2^x + x = 3", "2", "reject"),
        ("Solve 2^x + x = 3", "0.9", "abstain"),
        ("Solve x^7 = 128", "-2", "reject"),  # a bare value answers "solve"
        ("Solve x^7 = 128", "2", "abstain"),
        (r"Solve $\arcsin x = \arccos x$.", r"\frac{1}{2}", "reject"),
        (r"Solve $\arcsin x = \arccos x$.", r"\frac{\sqrt{2}}{2}", "abstain"),
        (r"Solve $\arctan x + \arctan (2x) = \frac{\pi}{4}$.", r"\frac{\sqrt{17}-3}{4}", "abstain"),
        (r"Solve $\arctan x + \arctan (2x) = \frac{\pi}{4}$.", "1", "reject"),
        # arctan x = 1: one radian or one degree? Not read, so not refuted either way.
        (r"Solve $\arctan x = 1$.", r"\tan 1", "abstain"),
        (r"Solve $\arctan x = 1$.", "5", "abstain"),
    ],
)
def test_an_exact_value_that_breaks_the_equation_is_wrong(
    problem: str, answer: str, verdict: str
) -> None:
    assert check_answer(problem, answer).verdict == verdict


def test_a_list_of_fractions_is_a_list() -> None:
    # "\frac12, \frac14" is "((1)/(2)), ((1)/(4))" once normalized: two values, not a pair
    assert check_answer("Solve 8x^2 - 6x + 1 = 0", r"\frac{1}{2}, \frac{1}{4}").verdict == "approve"
    assert check_answer("Solve 8x^2 - 6x + 1 = 0", r"\frac{1}{2}, \frac{1}{3}").verdict == "reject"
    with pytest.raises(ParseError):
        read_candidate("(1, 2), (3, 4)", ["x"])  # pairs, for one unknown


@pytest.mark.parametrize(
    "problem",
    [
        r"Solve $\arctan x = 1$.",  # one radian or one degree?
        r"Solve $\arctan(\arctan x) = \arctan 1$.",  # the inner angle's unit matters
        r"Solve $\sin(\arcsin x) = \frac{1}{2}$.",
        r"Solve $(\arctan x)^2 = \arctan(x)$.",  # not linear in the angles
    ],
)
def test_an_angle_whose_unit_matters_is_not_read(problem: str) -> None:
    result = check_answer(problem, "5")
    assert (result.verdict, result.detail) == (
        "abstain",
        "the problem is not one the symbolic checker reads",
    )
