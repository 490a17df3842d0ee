"""The difficulty rules say "hard" where the data says hard (docs/analytics.md, "Difficulty")."""

from __future__ import annotations

import pytest

from app.analysis.classifier import analyze


@pytest.mark.parametrize(
    ("text", "difficulty"),
    [
        ("What is 3 + 4?", "easy"),
        ("Tom has 3 apples and buys 5 more. How many apples does he have?", "easy"),
        ("Solve 2x + 3 = 11", "easy"),
        # the two: an integral and a proof came out "easy"
        ("Find the integral of x^2 from 0 to 1", "hard"),
        ("Prove that the sum of two odd numbers is even", "hard"),
        ("求证：三角形内角和为180度", "hard"),
        # MATH problems Gemini-1.5-Flash got wrong in most of 16 tries
        (
            "What is the smallest positive integer that satisfies the congruence "
            "$30x \\equiv 42 \\pmod{47}$?",
            "hard",
        ),
    ],
)
def test_difficulty_labels(text: str, difficulty: str) -> None:
    assert analyze(text).difficulty == difficulty


def test_bigger_numbers_are_not_easier() -> None:
    order = {"easy": 0, "medium": 1, "hard": 2}
    small = analyze("Calculate 12 * 7 - 5 + 3").difficulty
    large = analyze("Calculate 45428 * 78550 - 9252630 + 618322").difficulty
    assert order[large] > order[small]
