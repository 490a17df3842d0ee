"""The same problem re-rendered never flips a verified answer."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer
from app.symbolic.solver import solve_text

RENDERINGS = [
    (
        "Solve 2x + 3 = 11",
        "Solve 2x+3=11",
        "Solve $2x + 3 = 11$",
        "Solve 11 = 2x + 3",
        "Solve 2y + 3 = 11",
        "２ｘ＋３＝１１",
        "解方程 2x+3=11",
    ),
    (
        "x^2 - 5x + 6 = 0",
        "x² - 5x + 6 = 0",
        "$x^{2} - 5x + 6 = 0$",
        "0 = x^2 - 5x + 6",
        "t^2 - 5t + 6 = 0",
    ),
    ("sqrt(x + 1) = 3", "\\sqrt{x + 1} = 3", "√(x+1) = 3", "3 = sqrt(x + 1)"),
    ("|x - 2| = 5", "abs(x - 2) = 5", "\\left|x - 2\\right| = 5", "5 = |x - 2|"),
    ("What is 3/4 + 5/6?", "3/4 + 5/6 = ?", "$\\frac{3}{4} + \\frac{5}{6} = ?$", "计算 3/4 + 5/6"),
    (
        "If 7 - 4x = 15, what is the value of 8x + 2?",
        "If 15 = 7 - 4x, what is the value of 8x + 2?",
        "已知 7 - 4x = 15，求 8x + 2 的值",
    ),
]


def _values(answer: str) -> list[str]:
    return sorted(part.split("=")[-1].strip() for part in answer.split(" or "))


@pytest.mark.parametrize("variants", RENDERINGS)
def test_renderings_agree(variants: tuple[str, ...]) -> None:
    answers = set()
    for problem in variants:
        solution = solve_text(problem)
        assert solution is not None, problem
        assert check_answer(problem, solution.final_answer).verdict == "approve", problem
        answers.add(tuple(_values(solution.final_answer)))
    assert len(answers) == 1, answers
