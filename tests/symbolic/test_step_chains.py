"""A chain of equals signs is `ok` only when every link in it checks: one link that cannot
be read (3.5 = 9 1/2, 3 = 1 R 1, 2 h = 2 × 100) keeps it from `ok`, so a step after it is
never called the first error on its word."""

from __future__ import annotations

import pytest

from app.symbolic.step_arithmetic import claims_in
from app.symbolic.steps import check_step_list


def verdicts(step: str, problem: str = "") -> list[str]:
    return [c.verdict for c in claims_in(step, problem)]


@pytest.mark.parametrize(
    "step",
    [
        "7/2 = 3.5 = 9 1/2",  # 9 1/2 is 9.5
        "2 h = 2 × 100 = 200 min",  # 100 minutes an hour
        "6 ÷ 2 = 3 = 1 R 1",
        "So 12 ÷ 5 = 2.4 = 2 R 3, then",
    ],
)
def test_a_link_not_read_keeps_the_chain_from_ok(step: str) -> None:
    assert verdicts(step), step
    assert "ok" not in verdicts(step), step


def test_the_step_before_a_false_calculation_is_not_shown_right() -> None:
    found = check_step_list("What is 7/2 × 2 + 1?", ["7/2 = 3.5 = 9 1/2", "9.5 × 2 = 19"])
    assert [f.verdict for f in found] == ["unchecked", "ok"]
    assert not found[0].shown_right


@pytest.mark.parametrize(
    "step",
    [
        "x = 3 + 4 = 7",  # names the value
        "0.40 × A = 0.40 × 30 = 12",  # substitutes it
        "R = A + 0.40 × A = 30 + 12 = 42",
        "7/2 = 3.5",
        "4 × 25 cm = 100 cm = 1 m",
        "2 × 30 min = 60 min = 1 h",
    ],
)
def test_right_chains_stay_ok(step: str) -> None:
    assert verdicts(step) == ["ok"], step


@pytest.mark.parametrize(
    "step", ["4 × 25 cm = 100 cm = 5 m", "3 × 4 kg = 12 kg = 7 g", "2 × 30 min = 60 min = 5 h"]
)
def test_a_false_link_in_units_is_wrong(step: str) -> None:
    assert verdicts(step) == ["wrong"], step
