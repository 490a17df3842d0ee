"""A fourth adversarial round: degrees outside a trig function. "30° + 60° = ?" was verified as
π/2 (its value in radians) and a student's 90 called incorrect; the answer's unit is degrees
there, and 180° ÷ 30° is a plain 6, so outside sin, cos and tan an angle is refused."""

from __future__ import annotations

import pytest

from tests.symbolic.adversarial import ABSTAIN, CORRECT, UNKNOWN, assert_checked, assert_solved


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("30° + 60° = ?", ABSTAIN),
        ("90° - 30° = ?", ABSTAIN),
        ("180° ÷ 30° = ?", ABSTAIN),
        ("Solve x + 30° = 90°", ABSTAIN),
        ("sin(30°) = ?", "1/2"),  # inside a trig function an angle is read as before
        ("cos(60°) + sin(30°) = ?", "1"),
    ],
)
def test_angles_outside_trig_functions_are_refused(problem: str, answer: str | None) -> None:
    assert_solved(problem, answer)


@pytest.mark.parametrize("candidate", ["90", "90°", "pi/2"])
def test_no_verdict_on_a_sum_of_angles(candidate: str) -> None:
    assert_checked("30° + 60° = ?", candidate, UNKNOWN)


def test_a_trig_value_is_still_checked() -> None:
    assert_checked("sin(30°) = ?", "0.5", CORRECT)
