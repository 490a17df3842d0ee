"""Lines of a derivation that solves a linear inequality must keep its solution set.

A step that is one linear inequality in one unknown (`-2x + 4 > 10`, `-2x > 6`, `x < -3`)
is solved exactly: a ray. Adding, subtracting, multiplying or dividing both sides (flipping
the sign for a negative factor) keeps the ray, so a line whose ray is neither the problem's
nor the line before it is `wrong` — the classic slip, `-2x > 6` then `x > -3`. A line with
a decimal may round its bound (x > 3.33 for 10/3): not judged. Only linear lines are
judged: a quadratic inequality's lines may take one case at a time (x^2 > 4, then x > 2).
Without the problem's own inequality the derivation's first line stands in for it, the
line right after it is not judged (it may fix a misread first line), and a line is judged
against the one before it only when both bound the unknown at the same point (`x > -3` after
`-2x > 6`): lines with other bounds may be a list of separate conditions (a triangle's three
inequalities, `2 + 4 > x`, `2 + x > 4`), not one derivation. Pure functions (sandboxed).
"""

from __future__ import annotations

import re

import sympy as sp

from app.symbolic.parsing import parse_expression
from app.symbolic.step_equations import (
    READ_ERRORS,
    LineVerdict,
    polynomial_unknown,
    strip_lead,
    without_label,
)
from app.symbolic.step_text import to_plain

_SIDE = r"[0-9a-z+\-*/^(). ]+"
# A side starts where the characters a side may hold begin: searched, a long run is tried from
# its start only, not from each of its characters.
_INEQUALITY = re.compile(rf"(?<![0-9a-z+\-*/^(). ])({_SIDE})(<=|>=|<|>)({_SIDE})")
_RELATIONS = {"<": sp.Lt, ">": sp.Gt, "<=": sp.Le, ">=": sp.Ge}
_ERRORS = (*READ_ERRORS, NotImplementedError)  # solve_univariate_inequality may raise it


def _ray(lhs_text: str, relation: str, rhs_text: str) -> tuple[sp.Symbol, sp.Set] | None:
    try:
        lhs, rhs = parse_expression(lhs_text), parse_expression(rhs_text)
        residual = lhs - rhs
        x = polynomial_unknown(residual)
        if x is None:
            return None
        poly = sp.Poly(residual, x)
        if poly.degree() != 1 or not all(c.is_Rational for c in poly.all_coeffs()):
            return None
        solved = sp.solve_univariate_inequality(
            _RELATIONS[relation](residual, 0), x, relational=False
        )
    except _ERRORS:
        return None
    return x, solved


def read_inequality(text: str) -> tuple[str, sp.Symbol, sp.Set] | None:
    """The step as one linear inequality in one unknown: (its text, the unknown, its ray)."""
    unlabelled = without_label(text)
    if unlabelled is None:
        return None
    plain = to_plain(unlabelled).strip().rstrip(" .,;").replace("≤", "<=").replace("≥", ">=")
    plain = strip_lead(plain)
    match = _INEQUALITY.fullmatch(plain)
    if match is None:
        return None
    read = _ray(match[1], match[2], match[3])
    return None if read is None else (plain, *read)


def problem_inequality(problem: str) -> tuple[sp.Symbol, sp.Set] | None:
    """The problem's own inequality, when it states exactly one linear one in one unknown."""
    plain = to_plain(problem).replace("≤", "<=").replace("≥", ">=")
    if len(re.findall(r"[<>]", plain)) != 1 or re.search(r"\b(?:and|or|where|if)\b|且|或|:", plain):
        return None  # two inequalities, a chain (1 < x < 3), a condition: not this reader's
    plain = re.sub(r"[A-Za-z]{2,}", ";", plain)  # "Solve", "for": words end a side
    found = _INEQUALITY.search(plain)
    return None if found is None else _ray(found[1], found[2], found[3])


def inequality_verdicts(problem: str, steps: list[str]) -> dict[int, LineVerdict]:
    """Verdicts for the steps that are linear inequalities in the problem's unknown."""
    reference = problem_inequality(problem)
    trusted = reference is not None
    previous: tuple[sp.Symbol, sp.Set] | None = None
    previous_index = stand_in = -1
    verdicts: dict[int, LineVerdict] = {}
    for index, step in enumerate(steps):
        line = read_inequality(step)
        if line is None:
            continue
        text, x, ray = line
        if reference is None:
            reference = (x, ray)  # the derivation's first line stands in for the problem
            previous, previous_index, stand_in = reference, index, index
            continue
        if x != reference[0]:
            continue
        kept = [r for r in (reference, previous) if r is not None]
        # the line right before, bounding the unknown at the same point (the classic slip)
        slip = (
            previous is not None
            and previous_index == index - 1
            and ray.boundary == previous[1].boundary
        )
        if any(ray == r[1] for r in kept):
            verdicts[index] = LineVerdict("ok", text, "same solution set")
        elif "." in text:  # x > 3.33 for x > 10/3: a rounded bound, not judged
            verdicts[index] = LineVerdict("unchecked", text, "a decimal bound")
        elif not trusted and previous_index == stand_in:
            verdicts[index] = LineVerdict("unchecked", text, "a fix of the first line?")
        elif trusted or slip:
            verdicts[index] = LineVerdict(
                "wrong", text, "its solution set is not the one of the inequality before it"
            )
        else:
            verdicts[index] = LineVerdict("unchecked", text, "another solution set")
        previous, previous_index = (x, ray), index
    return verdicts
