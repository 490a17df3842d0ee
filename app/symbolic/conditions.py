"""Side conditions: relations (x > 5, 0 <= x < 2pi, x in [0, pi]) and kinds (x is an integer).

A condition restricts the solution set; checking one on a value answers True, False, or None
when sympy cannot decide (the caller then abstains).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

from app.symbolic.evaluation import evaluate
from app.symbolic.normalize import ParseError
from app.symbolic.parsing import parse_expression

_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


@dataclass(frozen=True, slots=True)
class Condition:
    kind: str  # relation | integer | positive | negative | nonnegative
    text: str
    lhs: sp.Expr | None = None
    op: str | None = None
    rhs: sp.Expr | None = None
    symbol: sp.Symbol | None = None

    @property
    def asks_one(self) -> bool:
        """'the positive solution', 'its integer root': one solution is meant; when several
        satisfy the condition, the question is ill-posed (answer neither one nor all)."""
        return self.kind != "relation" and bool(_ONE_SOLUTION.search(self.text))

    @property
    def symbols(self) -> set[sp.Symbol]:
        if self.kind == "relation":
            assert self.lhs is not None and self.rhs is not None
            return set(self.lhs.free_symbols | self.rhs.free_symbols)
        assert self.symbol is not None
        return {self.symbol}

    def holds(self, assignment: dict[sp.Symbol, sp.Expr]) -> bool | None:
        if self.kind == "relation":
            assert self.lhs is not None and self.rhs is not None and self.op is not None
            diff = evaluate(self.lhs.xreplace(assignment)) - evaluate(self.rhs.xreplace(assignment))
            return _sign_test(sp.simplify(diff), self.op)
        assert self.symbol is not None
        value = assignment[self.symbol]
        checks = {
            "integer": value.is_integer,
            "positive": value.is_positive,
            "negative": value.is_negative,
            "nonnegative": value.is_nonnegative,
            "positive_integer": value.is_integer and value.is_positive,
            "nonnegative_integer": value.is_integer and value.is_nonnegative,
            "negative_integer": value.is_integer and value.is_negative,
            "nonzero": value.is_nonzero,
        }
        result = checks[self.kind]
        return None if result is None else bool(result)

    def as_set(self) -> sp.Set | None:
        """The condition as a set of reals (one variable), or None."""
        if len(self.symbols) != 1:
            return None
        (x,) = self.symbols
        if self.kind == "relation":
            assert self.lhs is not None and self.rhs is not None and self.op is not None
            domain = real_domain(self.lhs, x)
            other = real_domain(self.rhs, x)
            if domain is None or other is None:
                return None
            rel = _COMPARE[self.op](evaluate(self.lhs), evaluate(self.rhs))
            result = sp.solveset(rel, x, sp.S.Reals)
            if not isinstance(result, sp.Set):
                return None
            return sp.Intersection(result, domain, other)
        sets = {
            "positive": sp.Interval.open(0, sp.oo),
            "negative": sp.Interval.open(-sp.oo, 0),
            "nonnegative": sp.Interval(0, sp.oo),
            "nonzero": sp.Union(sp.Interval.open(-sp.oo, 0), sp.Interval.open(0, sp.oo)),
        }
        return sets.get(self.kind)


# Functions defined for every real number: nothing of their own to take out of a domain.
_ENTIRE = (sp.sin, sp.cos, sp.exp, sp.Abs)


def real_domain(expr: sp.Expr, x: sp.Symbol) -> sp.Set | None:
    """Where `expr`, as written, is defined over the reals; None when that is not computed.

    Read on the unevaluated tree: evaluating first cancels x/x to 1 and (√x)² to x, and the
    relation x/x > 0 would hold at 0, where it is undefined. Denominators are taken out (x ≠ 0),
    even roots need a non-negative radicand (positive when it divides), logarithms a positive
    argument; an odd root of a negative, tan, a power in x: not decided here."""
    domain: sp.Set = sp.S.Reals
    for node in sp.preorder_traversal(expr):
        if node.is_Atom or not node.free_symbols or isinstance(node, (sp.Add, sp.Mul)):
            continue
        if isinstance(node, sp.Pow):
            base, exponent = node.base, node.exp
            if not base.free_symbols:
                return None  # 2^x: an exponential, not a K12 inequality of this kind
            if exponent.is_Integer and exponent > 0:
                continue
            if exponent.is_Integer:
                allowed = sp.Complement(sp.S.Reals, sp.solveset(evaluate(base), x, sp.S.Reals))
            elif exponent.is_Rational and exponent.q % 2 == 0:
                radicand = evaluate(base)
                needed = radicand > 0 if exponent < 0 else radicand >= 0
                allowed = sp.solveset(needed, x, sp.S.Reals)
            else:
                return None
        elif isinstance(node, sp.log) and len(node.args) == 1:
            allowed = sp.solveset(evaluate(node.args[0]) > 0, x, sp.S.Reals)
        elif isinstance(node, _ENTIRE):
            continue
        else:
            return None
        if not isinstance(allowed, sp.Set) or isinstance(allowed, sp.ConditionSet):
            return None
        domain = sp.Intersection(domain, allowed)
    return domain


def _sign_test(diff: sp.Expr, op: str) -> bool | None:
    if not diff.is_number or diff.is_real is False:
        return None if diff.is_real is None else False
    if diff.is_zero:
        return op in ("<=", ">=")
    positive = diff.is_positive
    if positive is None:
        return None
    return positive if op in (">", ">=") else not positive


_RELATION_SPLIT = re.compile(r"(<=|>=|<|>)")


def read_relation(run: str, parse: Callable[[str], sp.Expr]) -> list[Condition]:
    """'x > 5' or '0 <= x < 2pi' → conditions; a relation between numbers is refused."""
    parts = _RELATION_SPLIT.split(run)
    if "=" in run.replace("<=", "").replace(">=", "") or len(parts) not in (3, 5):
        raise ParseError("unsupported relation")
    exprs = [parse(p.strip()) for p in parts[0::2]]
    ops = parts[1::2]
    if len(ops) == 2 and (ops[0][0] != ops[1][0]):
        raise ParseError("a chained relation must point one way")
    conditions = []
    for i, op in enumerate(ops):
        lhs, rhs = exprs[i], exprs[i + 1]
        if not (lhs.free_symbols | rhs.free_symbols):
            raise ParseError("a relation between numbers is a claim")
        conditions.append(Condition("relation", run, lhs=lhs, op=op, rhs=rhs))
    return conditions


_KIND_WORDS = (
    r"(?:an?\s+)?(positive|negative|non-?negative)?\s*"
    r"(integers?|whole\s+numbers?|real\s+numbers?|numbers?)?"
)
_WORD_CONDITION = re.compile(
    rf"\b([a-zA-Z])\s+(?:is|be|are)\s+{_KIND_WORDS}(?![a-zA-Z])", re.IGNORECASE
)
_CHINESE_CONDITION = re.compile(r"([a-zA-Z])\s*(?:为|是)\s*(正|负|非负)?(整数|实数|数)")
_INTERVAL = re.compile(
    r"\b(?:on|in|over|within)\s+(?:the\s+)?(?:interval\s+)?([\[(])([^,\[\]()]+),([^,\[\]()]+)([\])])",
    re.IGNORECASE,
)
_CHINESE_SIGNS = {"正": "positive", "负": "negative", "非负": "nonnegative"}
# "the positive solution", "its integer roots", "正整数解", "非零解": a condition on the unknown.
_SOLUTION_KIND = re.compile(
    r"\b(?:the\s+|its\s+|all\s+(?:the\s+)?)?(positive|negative|non-?negative|nonzero|non-?zero)?"
    r"\s*(integer|whole\s+number)?\s*(?:solution|root)s?\b",
    re.IGNORECASE,
)
_ONE_SOLUTION = re.compile(r"\b(?:solution|root)$", re.IGNORECASE)
_CHINESE_SOLUTION_KIND = re.compile(r"(正|负|非负|非零)?(整数|数)?(?:解|根)")
_PLACEHOLDER = sp.Symbol("_interval")


def _kind(sign: str | None, noun: str | None) -> str | None:
    sign = (sign or "").lower().replace("-", "")
    noun = (noun or "").lower()
    integer = noun.startswith("integer") or noun.startswith("whole") or noun == "整数"
    if noun.startswith("whole"):
        return "nonnegative_integer" if not sign else None
    if not sign:
        return "integer" if integer else None
    return f"{sign}_integer" if integer else sign


def word_conditions(text: str) -> tuple[list[Condition], str]:
    """'x is a positive integer', 'x为正整数', 'on [0, 2pi)' → conditions, blanked from text."""
    found: list[Condition] = []

    def blank(m: re.Match[str]) -> str:
        return " " * len(m.group(0))

    def english(m: re.Match[str]) -> str:
        if not (m.group(2) or m.group(3)):
            return m.group(0)
        kind = _kind(m.group(2), m.group(3))
        if kind is None and (m.group(3) or "").lower().startswith(("real", "number")):
            return blank(m)  # "x is a real number": the reader works over the reals anyway
        if kind is None:
            raise ParseError(f"unsupported condition {m.group(0)!r}")
        found.append(Condition(kind, m.group(0), symbol=sp.Symbol(m.group(1))))
        return blank(m)

    def chinese(m: re.Match[str]) -> str:
        sign = _CHINESE_SIGNS.get(m.group(2) or "")
        kind = _kind(sign, m.group(3))
        if kind is None:
            return blank(m)  # "x为实数"
        found.append(Condition(kind, m.group(0), symbol=sp.Symbol(m.group(1))))
        return blank(m)

    def interval(m: re.Match[str]) -> str:
        lo, hi = parse_expression(m.group(2)), parse_expression(m.group(3))
        if lo.free_symbols or hi.free_symbols:
            raise ParseError("an interval bound must be a number")
        x = _PLACEHOLDER  # bound to the problem's single variable later
        lo_op = ">=" if m.group(1) == "[" else ">"
        hi_op = "<=" if m.group(4) == "]" else "<"
        found.append(Condition("relation", m.group(0), lhs=x, op=lo_op, rhs=lo))
        found.append(Condition("relation", m.group(0), lhs=x, op=hi_op, rhs=hi))
        return blank(m)

    def solution_kind(sign: str | None, noun: str | None, whole: str) -> str:
        sign = (sign or "").lower().replace("-", "").replace("非零", "nonzero")
        if not sign and not noun:
            return whole  # "the solutions": no condition
        kind = "nonzero" if sign == "nonzero" and not noun else _kind(sign or None, noun)
        if kind is None:
            raise ParseError(f"unsupported kind of solution {whole!r}")
        found.append(Condition(kind, whole, symbol=_PLACEHOLDER))
        return " " * len(whole)

    def english_solution(m: re.Match[str]) -> str:
        return solution_kind(m.group(1), m.group(2), m.group(0))

    def chinese_solution(m: re.Match[str]) -> str:
        sign = {"非零": "nonzero"}.get(m.group(1) or "", _CHINESE_SIGNS.get(m.group(1) or ""))
        noun = "整数" if m.group(2) == "整数" else None
        if m.group(2) == "数" and not sign:
            return m.group(0)
        return solution_kind(sign, noun, m.group(0))

    text = _SOLUTION_KIND.sub(english_solution, text)
    text = _CHINESE_SOLUTION_KIND.sub(chinese_solution, text)
    text = _WORD_CONDITION.sub(english, text)
    text = _CHINESE_CONDITION.sub(chinese, text)
    text = _INTERVAL.sub(interval, text)
    return found, text


def bind_interval(conditions: list[Condition], variables: list[sp.Symbol]) -> list[Condition]:
    """An interval written without its variable ('on [0, 2pi)') belongs to the only variable."""
    placeholder = _PLACEHOLDER
    if not any(placeholder in (c.lhs, c.symbol) for c in conditions):
        return conditions
    if len(variables) != 1:
        raise ParseError("an interval or a kind of solution without a variable in a system")
    return [
        Condition(c.kind, c.text, lhs=variables[0], op=c.op, rhs=c.rhs)
        if c.lhs == placeholder
        else Condition(c.kind, c.text, symbol=variables[0])
        if c.symbol == placeholder
        else c
        for c in conditions
    ]
