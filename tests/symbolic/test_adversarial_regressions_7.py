"""Round 7 of the adversarial findings (an independent tester on the model path, 2026-11-28):
`verified` means right. Each case failed before its fix.

G1: a lead-in the reader did not know ("Homework:", "Help me with", "帮我算一下") left the
problem unread, so a wrong answer one model echoed was verified and a right one was caution.
G2: two points were compared as sets: "(3, 2)" matched a verifier's "(2, 3)".
"""

from __future__ import annotations

import pytest

from app.symbolic.checker import answers_equivalent, check_answer


@pytest.mark.parametrize(
    ("problem", "right", "wrong"),
    [
        ("Homework: 7x - 4 = 24", "x = 4", "x = 5"),
        ("Homework: 7x - 4 = 24", "4", "5"),
        ("HW: 3/4 + 5/6", "19/12", "8/10"),
        ("Math homework: 12 * 13", "156", "146"),
        ("作业：3/4 + 5/6", "19/12", "8/10"),
        ("Help me with 12 * 13", "156", "146"),
        ("Help me solve 2x + 3 = 11", "x = 4", "x = 5"),
        ("Can you help me solve 2x + 3 = 11?", "4", "5"),
        ("Please help me with this problem: 2x + 3 = 11", "x = 4", "x = 5"),
        ("Help me expand (x+1)^2", "x^2 + 2x + 1", "x^2 + 1"),
        ("帮我算一下 12 × 13", "156", "146"),
        ("请帮我解方程 2x + 3 = 11", "x = 4", "x = 5"),
    ],
)
def test_a_lead_in_asking_for_help_leaves_the_problem_read(
    problem: str, right: str, wrong: str
) -> None:
    assert check_answer(problem, right).verdict == "approve"
    assert check_answer(problem, wrong).verdict == "reject"


@pytest.mark.parametrize(
    "problem",
    [
        "Help me with half of 12",  # "half" is mathematics the reader does not model
        "Homework: what is 12 more than 3 doubled?",
        "Help me check whether x = 5 solves 2x + 3 = 11",
    ],
)
def test_words_after_the_lead_in_are_still_read_strictly(problem: str) -> None:
    assert check_answer(problem, "6").verdict == "abstain"


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("(3, 2)", "(2, 3)", False),
        ("(3,2)", "(3, 2)", True),
        ("(1/2, 3)", "(0.5, 3)", True),
        ("(3, 2)", "2, 3", None),  # a point, or two roots listed: not told
        ("2, 3", "3, 2", True),  # roots, listed in any order
        ("{2, 3}", "{3, 2}", True),  # a set
    ],
)
def test_points_are_compared_in_order(a: str, b: str, same: bool | None) -> None:
    assert answers_equivalent(a, b) is same
