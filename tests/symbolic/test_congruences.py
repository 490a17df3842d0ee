"""A linear congruence or a modular inverse, and the one residue asked (MAV: 30x ≡ 42 (mod 47)
drew ten different answers from sixteen samples; the inverse of 160 modulo 1399 fifteen):
proven either way, and solved, when the text is that question and nothing else."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer
from app.symbolic.solver import solve_text

SMALLEST = (
    r"What is the smallest positive integer that satisfies the congruence "
    r"$30x \equiv 42 \pmod{47}$?"
)
INVERSE = (
    r"Find an integer $n$ such that $0\leq n<398$ and $n$ is a multiplicative inverse to 7 "
    "modulo 398."
)
RESIDUE = (
    r"Find $2^{-1} \pmod{185}$, as a residue modulo 185.  (Give an answer between 0 and 184, "
    "inclusive.)"
)
SHIFTED = r"Find the smallest positive integer $x$ such that $3x + 4 \equiv 1 \pmod{5}$."
COMMON_FACTOR = r"What is the smallest positive integer $x$ such that $6x \equiv 4 \pmod{10}$?"


@pytest.mark.parametrize(
    ("problem", "answer", "verdict"),
    [
        (SMALLEST, "39", "approve"),  # 30 · 39 = 1170 = 24 · 47 + 42
        (SMALLEST, "86", "reject"),  # a solution, not the smallest positive one
        (SMALLEST, "21", "reject"),
        (SMALLEST, r"x \equiv 39 \pmod{47}", "abstain"),  # not the one number asked
        (INVERSE, "57", "approve"),  # 7 · 57 = 399
        (INVERSE, "159", "reject"),
        (RESIDUE, "93", "approve"),
        (RESIDUE, "278", "reject"),  # 93 + 185: outside 0 … 184
        (SHIFTED, "4", "approve"),
        (SHIFTED, "9", "reject"),
        (COMMON_FACTOR, "4", "approve"),  # x ≡ 4 (mod 5)
        (COMMON_FACTOR, "9", "reject"),
    ],
)
def test_the_residue_asked(problem: str, answer: str, verdict: str) -> None:
    assert check_answer(problem, answer).verdict == verdict


def test_the_congruence_is_solved_with_the_inverse() -> None:
    solution = solve_text(SMALLEST)
    assert solution is not None
    assert solution.final_answer == "39"
    assert [step.latex for step in solution.steps][:2] == [
        r"30 \times 11 = 330 = 7 \times 47 + 1",
        r"x \equiv 42 \times 11 = 462 \equiv 39 \pmod{47}",
    ]


@pytest.mark.parametrize(
    "problem",
    [
        # a hint, a second condition, another question, no single residue asked
        r"Notice that \[35\cdot40=1400.\]Find some integer $n$ with $0\leq n<1399$ such that "
        r"$n$ is the multiplicative inverse to 160 modulo 1399.",
        r"What is the smallest positive integer $n$ such that $3n \equiv 1 \pmod{7}$ and $n$ is "
        "even?",
        r"What is the smallest positive two-digit integer that satisfies $3x \equiv 1 \pmod{7}$?",
        r"What is the sum of the smallest positive integer that satisfies $3x \equiv 1 \pmod{7}$"
        " and 5?",
        r"Solve $6x \equiv 4 \pmod{10}$, as a residue modulo 10.",  # two residues: 4 and 9
        r"What is the smallest positive integer that satisfies $6x \equiv 3 \pmod{10}$?",  # none
        r"Find the modular inverse of $4$ modulo $21$.",  # 16, or 37?
        r"Find $x$ with $x \equiv 2 \pmod{3}$ and $x \equiv 3 \pmod{5}$, between 0 and 14.",
        r"Find an integer $n$ with $0 \le n < 100$ that is the inverse of 7 modulo 398.",
    ],
)
def test_anything_else_is_not_read(problem: str) -> None:
    assert check_answer(problem, "5").verdict == "abstain"
    assert solve_text(problem) is None
