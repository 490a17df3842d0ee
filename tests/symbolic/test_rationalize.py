"""MATH's and K12's "Rationalize the denominator: 5/√3" asks for the simplest form, c√n/d: the
value is checked, then the form, as for "Simplify"; the value left with a root below is not
judged (a teacher marks it wrong, but the reader is not sure of every such form)."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer

FIVE = r"Rationalize the denominator: $\frac{5}{\sqrt{3}}$ ."
EIGHTH = r"Rationalize the denominator of $\frac{1}{\sqrt{8}}$."


@pytest.mark.parametrize(
    ("problem", "answer", "verdict"),
    [
        (FIVE, r"\frac{5\sqrt{3}}{3}", "approve"),
        (FIVE, r"\frac{5\sqrt{3}}{2}", "reject"),
        (FIVE, r"\frac{5}{\sqrt{3}}", "abstain"),  # the value as it was
        (EIGHTH, r"\frac{\sqrt{2}}{4}", "approve"),
        (EIGHTH, r"\frac{1}{2\sqrt{2}}", "abstain"),
        (r"Rationalize the denominator of $\frac{1}{1+\sqrt{2}}$.", r"\sqrt{2}+1", "reject"),
    ],
)
def test_rationalize_the_denominator(problem: str, answer: str, verdict: str) -> None:
    assert check_answer(problem, answer).verdict == verdict
