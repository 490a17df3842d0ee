"""The cheap paths of a reading (issue 31: the sandbox was a third of a scan's CPU) decide as
the expensive ones would."""

from __future__ import annotations

import pytest
import sympy as sp

from app.symbolic import checker, problem, solver
from app.symbolic.crosscheck import differs_at_a_point, same_value
from app.symbolic.sandbox import SymbolicSandbox

t, c, o, s, x = sp.symbols("t c o s x")


def _no_simplify(*_: object, **__: object) -> sp.Expr:
    raise AssertionError("simplify was called")


def test_different_readings_are_told_apart_without_simplify(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "cos t" read as a function by one parser and as c·o·s·t by the other: simplify took
    # 20-140 ms to say they differ.
    monkeypatch.setattr(sp, "simplify", _no_simplify)
    assert not same_value(sp.cos(t), c * o * s * t)
    assert not same_value(sp.tan(x), sp.sin(x))
    assert not same_value(sp.Rational(1, 3), sp.Float("0.333333"))


def test_identities_still_reach_simplify() -> None:
    assert same_value(sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(1))
    assert same_value(sp.sqrt(5 + 2 * sp.sqrt(6)), sp.sqrt(2) + sp.sqrt(3))
    assert same_value((x**2 - 1) / (x - 1), x + 1)


@pytest.mark.parametrize(
    "diff",
    [
        sp.Integer(0) * x,
        sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1,  # zero everywhere: no proof of a difference
        sp.log(x) - sp.log(x),
        sp.Float("1e-20"),  # below any rounding we would trust
        sp.zoo * x,
    ],
)
def test_a_point_proves_nothing_when_the_value_is_not_clearly_nonzero(diff: sp.Expr) -> None:
    assert not differs_at_a_point(diff)


def test_the_checker_reuses_the_solvers_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Solve 3x + 5 = 20 for x."
    solver.read_and_solve.cache_clear()
    checker._read.cache_clear()
    reads: list[str] = []
    original = problem.extract_problem

    def counted(source: str) -> problem.MathProblem | None:
        reads.append(source)
        return original(source)

    monkeypatch.setattr(solver, "extract_problem", counted)
    solved = solver.solve_text(text)
    assert solved is not None and solved.final_answer == "x = 5"
    assert checker.check_answer(text, "5").verdict == "approve"
    assert checker.check_answer(text, "6").verdict == "reject"
    assert reads == [text]


UNREAD = [
    "Janet's ducks lay 16 eggs per day. She eats three for breakfast. How many are left?",
    "A train leaves at 3 pm and arrives at 5 pm. 2x + 3 = 11 is written on the board. "
    "How long was the trip?",
    "If x + 2 = 5 and the teacher says so, what did the student eat?",
]


@pytest.mark.parametrize("text", UNREAD)
@pytest.mark.parametrize("candidate", ["13", "x = 4", "3", ""])
def test_an_unread_problem_is_checked_as_reading_it_again_would(text: str, candidate: str) -> None:
    assert solver.solve_reading(text) == (False, None)
    assert checker.check_answer(text, candidate, True) == checker.check_answer(text, candidate)


async def test_the_sandbox_remembers_what_it_could_not_read(sandbox: SymbolicSandbox) -> None:
    word_problem, equation = UNREAD[0], "Solve 2x + 3 = 11"
    assert await sandbox.solve(word_problem) is None
    assert (await sandbox.solve(equation)) is not None
    assert word_problem in sandbox._unread and equation not in sandbox._unread
    unread = await sandbox.check(word_problem, "13")
    assert (unread.verdict, unread.method) == ("abstain", "none")
    read = await sandbox.check(equation, "4")
    assert read.verdict == "approve"


def test_a_repeated_number_is_read_once_and_read_the_same() -> None:
    problem._parse_checked.cache_clear()
    first = problem.extract_problem("What is 20 + 3?")
    again = problem.extract_problem("What is 20 + 3?   ")
    assert first is not None and again is not None and first.expression == again.expression
    assert problem._parse_checked.cache_info().hits >= 1
