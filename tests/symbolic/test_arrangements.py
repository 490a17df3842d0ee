"""The arrangements of a word's letters (MAV's "arrange the letters of the word ELEVEN": 60
was verified, 6!/3! = 120 is right): proven either way, and solved, when the problem is that
one question and nothing else."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer
from app.symbolic.solver import solve_text

ELEVEN = "Determine the number of ways to arrange the letters of the word ELEVEN."
COPYRIGHT = "In how many ways can the letters of the word ``COPYRIGHT'' be arranged?"
BASIC = "How many distinct arrangements of the letters in the word BASIC are there?"
BANANA = r"How many ways can I arrange the letters of the word $\text{BANANA}$?"
MISSISSIPPI = "How many ways can the letters of the word Mississippi be arranged?"


@pytest.mark.parametrize(
    ("problem", "answer", "verdict"),
    [
        (ELEVEN, "120", "approve"),
        (ELEVEN, "120 ways", "approve"),
        (ELEVEN, "60", "reject"),
        (ELEVEN, "720", "reject"),  # the E's told apart
        (ELEVEN, r"\frac{6!}{3!}", "abstain"),  # the value, not worked out
        (COPYRIGHT, "362880", "approve"),
        (COPYRIGHT, "9!", "abstain"),
        (BASIC, "120", "approve"),
        (BANANA, "60", "approve"),
        (BANANA, "120", "reject"),
        (MISSISSIPPI, "34650", "approve"),  # capitals and small letters alike: four i's
        (MISSISSIPPI, "34,650", "approve"),
    ],
)
def test_the_count_of_distinct_arrangements(problem: str, answer: str, verdict: str) -> None:
    assert check_answer(problem, answer).verdict == verdict


def test_the_count_is_solved_with_its_formula() -> None:
    solution = solve_text(ELEVEN)
    assert solution is not None
    assert solution.final_answer == "120"
    assert solution.steps[0].latex == r"\frac{6!}{3!}"


@pytest.mark.parametrize(
    "problem",
    [
        "How many ways can the letters of the word MISSISSIPPI be arranged if the S's must be "
        "together?",
        "How many three-letter arrangements of the letters of the word BASIC are there?",
        r"How many ways are there to arrange the letters of the word $\text{BA}_1\text{N}_1"
        r"\text{A}_2\text{N}_2\text{A}_3$, in which the three A's and the two N's are "
        "considered different?",
        "Consider the word ELEVEN. How many ways can the letters of the word ELEVEN be arranged "
        "so that no two E's are adjacent?",
        "How many ways can the letters of the word ELEVEN are there?",  # not a question
    ],
)
def test_any_other_word_and_it_is_not_read(problem: str) -> None:
    assert check_answer(problem, "120").verdict == "abstain"
    assert solve_text(problem) is None
