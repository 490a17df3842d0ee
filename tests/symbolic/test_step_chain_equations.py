"""A step that chains its equation through arithmetic ("2x = 11 + 3 = 14") states the
equation at its ends (2x = 14): an independent tester (2026-11-27) found such steps judged
only as arithmetic — a wrong step shown `ok`, and the right step after it named as the first
error."""

from __future__ import annotations

import pytest

from app.symbolic.steps import check_step_list

# (problem, steps, the verdict of each step)
CHAINS = [
    ("Solve 5x = 20", ["x = 20 × 5 = 100"], ["wrong"]),
    ("Solve x/4 = 3", ["x = 3 ÷ 4 = 3/4"], ["wrong"]),
    ("Solve 2x + 3 = 11", ["2x = 8", "x = 8 - 2 = 6"], ["ok", "wrong"]),
    ("Solve 2x + 3 = 11", ["∴ 2x = 11 + 3 = 14", "so x = 14 ÷ 2 = 7"], ["wrong", "ok"]),
    ("解方程 2x + 3 = 11", ["2x = 11 + 3 = 14", "x = 14 ÷ 2 = 7"], ["wrong", "ok"]),
    ("Solve 2x + 3 = 11", ["2x = 8 ÷ 2 = 4"], ["wrong"]),
    ("Solve 0.5x = 2", ["x = 2 × 0.5 = 1", "x = 4"], ["wrong", "ok"]),
    ("Solve 3x + 5 = 20", ["3x = 20 + 5 = 25", "x = 25/3"], ["wrong", "ok"]),
    ("解方程：3x - 7 = 8", ["3x = 8 - 7 = 1", "x = 1/3"], ["wrong", "ok"]),
    # Right chains stay right.
    ("Solve 2x + 3 = 11", ["2x = 11 - 3 = 8", "x = 8 ÷ 2 = 4"], ["ok", "ok"]),
    ("Solve 3x - 7 = 8", ["3x = 8 + 7 = 15", "x = 15/3 = 5"], ["ok", "ok"]),
]


@pytest.mark.parametrize(("problem", "steps", "verdicts"), CHAINS)
def test_a_chain_states_the_equation_at_its_ends(
    problem: str, steps: list[str], verdicts: list[str]
) -> None:
    assert [f.verdict for f in check_step_list(problem, steps)] == verdicts


def test_a_chain_with_the_unknown_inside_is_not_read_as_an_equation() -> None:
    (finding,) = check_step_list("Solve 2x + 3 = 11", ["8 = 2x = 11 - 3"])
    assert finding.method != "equation"


@pytest.mark.parametrize(
    ("steps", "verdicts"),
    [
        (["移项得 2x = 11 + 3", "x = 7"], ["wrong", "ok"]),  # the sign slip is the first error
        (["移项得 2x = 11 - 3", "系数化为1得 x = 4"], ["ok", "ok"]),
        (["合并同类项得 2x = 8", "x = 4"], ["ok", "ok"]),
        (["Step 1: 2x = 8", "Step 2: x = 4"], ["ok", "ok"]),
        (["第一步：2x = 8", "第二步：x = 4"], ["ok", "ok"]),
    ],
)
def test_the_words_that_open_a_line_are_not_the_equation(
    steps: list[str], verdicts: list[str]
) -> None:
    assert [f.verdict for f in check_step_list("Solve 2x + 3 = 11", steps)] == verdicts
