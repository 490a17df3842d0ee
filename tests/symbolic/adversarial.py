"""What the adversarial regression rounds assert, once: a problem is solved with its right
answer (which the checker then approves) or abstained on; a check gives an allowed verdict."""

from __future__ import annotations

from app.symbolic.checker import check_answer
from app.symbolic.solver import solve_text

ABSTAIN = None
UNKNOWN = {"abstain"}
CORRECT = {"approve"}
INCORRECT = {"reject"}


def assert_solved(problem: str, answer: str | None) -> None:
    solution = solve_text(problem)
    if answer is ABSTAIN:
        assert solution is None, solution.final_answer if solution else None
        return
    assert solution is not None, problem
    assert solution.final_answer == answer
    assert check_answer(problem, answer).verdict == "approve"


def assert_checked(problem: str, candidate: str, allowed: set[str]) -> None:
    assert check_answer(problem, candidate).verdict in allowed
