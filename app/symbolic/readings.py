"""Two readings of one photo, the same problem? The symbolic reader's answer.

The OCR writes `(x)/(4)=3` where a vision model writes `\\frac{x}{4} = 3`: the texts differ,
the problem does not. Both are read by the same reader the solver uses (app/symbolic/problem.py,
where each expression is itself read by two parsers that must agree), and they are the same
problem only when everything the solver acts on is the same: the kind of problem, its equations
(term for term, not merely equivalent), the expression asked about, the side conditions, the
question asked (target, rounding, form, unit). The wording around the mathematics is not
compared here: the reader accepts only words that do not change the mathematics. A reading the
symbolic reader cannot read is never the same problem as anything. Runs in the sandbox
(`SymbolicSandbox.same_problem`): model text is untrusted input to sympy.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from app.symbolic.normalize import ParseError
from app.symbolic.problem import MathProblem, extract_problem


def _key(problem: MathProblem) -> tuple[Any, ...]:
    """Every field the solver acts on (all but the text it was read from; a condition's text,
    "x > 0" as written, aside): a field added to MathProblem is compared too."""
    values: list[Any] = []
    for item in fields(problem):
        value = getattr(problem, item.name)
        if item.name == "source":
            continue
        if item.name == "conditions":
            value = [replace(c, text="") for c in value]
        values.append(tuple(value) if isinstance(value, list) else value)
    return tuple(values)


def _read(text: str) -> tuple[Any, ...] | None:
    try:
        problem = extract_problem(text)
    except (ParseError, ValueError, TypeError, ArithmeticError, RecursionError):
        return None
    return None if problem is None else _key(problem)


def same_problem(first: str, second: str) -> bool:
    """Do both texts read as one and the same math problem? (sympy's structural equality:
    `x/4 = 3` and `x = 12` are different problems with one solution.)"""
    one = _read(first)
    return one is not None and one == _read(second)
