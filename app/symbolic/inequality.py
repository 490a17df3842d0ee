"""Inequalities in one unknown: their solution set, written and read as a set.

"Solve 2x + 1 > 5" is the set (2, ∞). Only polynomial sides of degree at most 2 are solved (what
K12 asks, and where sympy's answer is a finite union of intervals it computes exactly). An
answer is read as a set too — "x > 2", "2 < x <= 5", "(2, ∞)", "[2, 5)", "x < -2 or x > 2",
"(-∞, -2) ∪ (2, ∞)" — and compared as a set: the same set in another notation is right.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy as sp

from app.symbolic.conditions import Condition, read_relation
from app.symbolic.evaluation import evaluate
from app.symbolic.normalize import ParseError, normalize
from app.symbolic.parsing import parse_expression

MAX_DEGREE = 2


def solution_set(conditions: list[Condition], x: sp.Symbol) -> sp.Set | None:
    """The real x satisfying every relation, or None when it is not a plain set of intervals."""
    result: sp.Set = sp.S.Reals
    for condition in conditions:
        if condition.kind != "relation" or condition.symbols != {x}:
            return None
        assert condition.lhs is not None and condition.rhs is not None
        residual = sp.expand(evaluate(condition.lhs) - evaluate(condition.rhs))
        try:
            if sp.Poly(residual, x).degree() > MAX_DEGREE:
                return None
        except sp.PolynomialError:
            return None  # 1/x > 2, sqrt(x) < 3: domains first; left to a model
        part = condition.as_set()
        if part is None:
            return None
        result = sp.Intersection(result, part)
    return _plain(result)


def _plain(found: sp.Set) -> sp.Set | None:
    pieces = found.args if isinstance(found, sp.Union) else (found,)
    for piece in pieces:
        if piece is sp.S.EmptySet or piece is sp.S.Reals:
            continue
        if isinstance(piece, sp.FiniteSet) and all(p.is_real for p in piece):
            continue
        if not isinstance(piece, sp.Interval):
            return None
    return found


def format_set(found: sp.Set, x: sp.Symbol) -> str:
    """'x > 2', '-1 < x <= 3', 'x < -2 or x > 2', 'all real numbers', 'no solution'."""
    if found is sp.S.EmptySet:
        return "no solution"
    if found == sp.S.Reals:
        return "all real numbers"
    pieces = found.args if isinstance(found, sp.Union) else (found,)
    return " or ".join(_format_piece(piece, x) for piece in pieces)


def _format_piece(piece: sp.Set, x: sp.Symbol) -> str:
    if isinstance(piece, sp.FiniteSet):
        return " or ".join(f"{x} = {sp.sstr(p)}" for p in piece)
    assert isinstance(piece, sp.Interval)
    lo, hi = piece.start, piece.end
    left = "<" if piece.left_open else "<="
    right = "<" if piece.right_open else "<="
    if lo == -sp.oo:
        return f"{x} {right} {_show(hi)}"
    if hi == sp.oo:
        return f"{x} {'>' if piece.left_open else '>='} {_show(lo)}"
    return f"{_show(lo)} {left} {x} {right} {_show(hi)}"


def _show(value: sp.Expr) -> str:
    return str(sp.sstr(value)).replace("**", "^")


_INTERVAL = re.compile(
    r"^\s*([\[(])\s*([^,\[\]()]*(?:\([^()]*\)[^,\[\]()]*)*)\s*,\s*(.+?)\s*([\])])\s*$"
)
_INFINITY = re.compile(r"^\s*([+-]?)\s*(?:∞|oo|inf(?:inity)?)\s*$", re.IGNORECASE)
_UNION = re.compile(r"\s*(?:∪|\bor\b|\bU\b|或)\s*", re.IGNORECASE)


def _bound(text: str) -> sp.Expr:
    infinite = _INFINITY.match(text)
    if infinite:
        return -sp.oo if infinite.group(1) == "-" else sp.oo
    value = evaluate(parse_expression(text, answer=True))
    if value.free_symbols or not value.is_real:
        raise ParseError("an interval bound must be a number")
    return value


def read_set(
    answer: str, x: sp.Symbol, parse: Callable[[str], sp.Expr] = parse_expression
) -> sp.Set:
    """An answer as a set of reals; ParseError when it cannot be read with certainty."""
    text = normalize(answer).strip().rstrip(".。")
    text = re.sub(
        r"^(?:the\s+)?(?:solution\s+set\s+is|solution\s+is|answer\s*:?)\s*", "", text, flags=re.I
    )
    text = re.sub(rf"^{x.name}\s*∈\s*", "", text)
    found: sp.Set = sp.S.EmptySet
    for part in _UNION.split(text):
        if not part.strip():
            raise ParseError("an empty part")
        interval = _INTERVAL.match(part)
        if interval:
            lo, hi = _bound(interval.group(2)), _bound(interval.group(3))
            piece = sp.Interval(
                lo, hi, left_open=interval.group(1) == "(", right_open=interval.group(4) == ")"
            )
            if (lo == -sp.oo and interval.group(1) == "[") or (
                hi == sp.oo and interval.group(4) == "]"
            ):
                raise ParseError("a closed end at infinity")
        elif re.search(r"[<>]", part):
            conditions = read_relation(part, parse)
            if any(c.symbols != {x} for c in conditions):
                raise ParseError("a relation in another letter")
            piece = sp.S.Reals
            for condition in conditions:
                as_set = condition.as_set()
                if as_set is None:
                    raise ParseError("an unreadable relation")
                piece = sp.Intersection(piece, as_set)
        else:
            raise ParseError("not an interval or a relation")
        found = sp.Union(found, piece)
    return found


def same_set(a: sp.Set, b: sp.Set) -> bool | None:
    difference = sp.Union(sp.Complement(a, b), sp.Complement(b, a))
    empty = difference.is_empty
    return None if empty is None else bool(empty)
