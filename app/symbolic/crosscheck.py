"""The second reading: sympy's own parser on the same text must agree with ours.

Our Pratt parser decides precedence, implicit products, |...| and function application one
way; sympy's `parse_expr` (standard transformations, implicit multiplication/application, ^ as
power, decimals as rationals) decides them another. A proof counts only when both readings are
the same expression: where they differ ("sin 2x"?), the reader abstains.

parse_expr compiles the text, so it only ever sees text our whitelist tokenizer has already
accepted (digits, single letters, known function names, operators), with a namespace that holds
nothing but sympy constructors: no builtins, no attribute access.
"""

from __future__ import annotations

import re
from typing import Any

import sympy as sp
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication_application,
    parse_expr,
    rationalize,
    standard_transformations,
)

from app.symbolic.evaluation import evaluate, has_no_value, meets_division_by_zero
from app.symbolic.normalize import ParseError
from app.symbolic.parsing import tokenize

_TRANSFORMATIONS = (
    *standard_transformations,
    implicit_multiplication_application,
    convert_xor,
    rationalize,
)


def _root(arg: sp.Expr, n: sp.Expr) -> sp.Expr:
    if int(n) % 2 == 1:
        if arg.free_symbols:
            raise ParseError("odd root of an unknown")
        return sp.real_root(arg, n)
    return sp.root(arg, n)


_NAMESPACE: dict[str, Any] = {
    "__builtins__": {},
    "Integer": sp.Integer,
    "Float": sp.Float,
    "Rational": sp.Rational,
    "Symbol": sp.Symbol,
    "Add": sp.Add,
    "Mul": sp.Mul,
    "Pow": sp.Pow,
    "factorial": sp.factorial,
    "sqrt": sp.sqrt,
    "sin": sp.sin,
    "cos": sp.cos,
    "tan": sp.tan,
    "arcsin": sp.asin,
    "arccos": sp.acos,
    "arctan": sp.atan,
    "exp": sp.exp,
    "Abs": sp.Abs,
    "ln": sp.log,
    "lg": lambda a: sp.log(a) / sp.log(10),
    "LOG": lambda a, b: sp.log(a) / sp.log(b),
    "ROOT": _root,
    "pi": sp.pi,
}


def _balanced(text: str, start: int) -> int:
    """Index just past the parenthesis group that opens at `start`."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i + 1
    raise ParseError("unbalanced parentheses")


def _rewrite_based(text: str) -> str:
    """log_(b)(a) → LOG((a), (b)); root_(n) a → ROOT((a), (n)): explicit calls for parse_expr."""
    m = re.search(r"\b(log|root)_\s*(\(|\d+(?:\.\d+)?|[a-zA-Z])", text)
    if not m:
        return text
    name = "LOG" if m.group(1) == "log" else "ROOT"
    if m.group(2) == "(":
        base_end = _balanced(text, m.start(2))
        base = text[m.start(2) : base_end]
    else:
        base, base_end = m.group(2), m.end(2)
    rest = text[base_end:].lstrip()
    offset = len(text) - len(rest)
    if rest.startswith("("):
        arg_end = _balanced(text, offset)
    else:
        a = re.match(r"\d+(?:\.\d+)?|pi\b|[a-zA-Z]", rest)
        if not a:
            raise ParseError("missing argument")
        arg_end = offset + a.end()
    arg = text[offset:arg_end]
    return _rewrite_based(f"{text[: m.start()]}{name}(({arg}), ({base})){text[arg_end:]}")


def _bars_to_abs(text: str) -> str:
    """|a| → Abs(a): a bar opens after an operator or at the start, and closes otherwise."""
    out: list[str] = []
    stack = 0
    prev = ""
    for ch in text:
        if ch == "|":
            if stack == 0 or prev in ("", "(", "+", "-", "*", "/", "^", "|o"):
                out.append("*Abs(" if prev and prev[-1] not in "(+-*/^o" else "Abs(")
                stack += 1
                prev = "|o"
            else:
                out.append(")")
                stack -= 1
                prev = ")"
            continue
        out.append(ch)
        if not ch.isspace():
            prev = ch
    if stack:
        raise ParseError("unbalanced |")
    return "".join(out)


_LETTERS = {c: sp.Symbol(c) for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"}


def second_reading(text: str) -> sp.Expr:
    """sympy's reading of `text` (already accepted by our tokenizer), evaluated and bounded."""
    tokenize(text)  # the whitelist gate: parse_expr never sees anything else
    code = _rewrite_based(text)
    # Anchored at a number's start: a 4,000-digit run is tried once, not from each digit.
    code = re.sub(r"(?<![\d.])(\d+(?:\.\d+)?|pi)\s*°", r"(\1*pi/180)", code)
    code = re.sub(r"(?<![\d.])(\d+(?:\.\d+)?)\s*%", r"(\1/100)", code)
    code = re.sub(r"\babs\b", "Abs", _bars_to_abs(code))
    local = dict(_LETTERS)  # a copy: parse_expr may add to the dictionary it is given
    try:
        parsed = parse_expr(
            code,
            local_dict=local,
            global_dict=dict(_NAMESPACE),
            transformations=_TRANSFORMATIONS,
            evaluate=False,
        )
    except ParseError:
        raise
    except Exception as exc:
        raise ParseError(f"the second reading failed: {type(exc).__name__}") from exc
    if not isinstance(parsed, sp.Expr):
        raise ParseError("the second reading is not an expression")
    return evaluate(parsed)


# Where `differs_at_a_point` evaluates a difference: values no K12 expression is singular at
# (not 0, ±1 or a small integer), one per letter.
_PROBE = [sp.Rational(1000 + 37 * i, 1313 + 11 * i) for i in range(52)]


def differs_at_a_point(diff: sp.Expr) -> bool:
    """The difference is clearly non-zero at one point, so it is not identically zero.

    A difference that simplifies to 0 is 0 wherever it is defined, so a value well away from 0
    at one point (30 digits, far above rounding) proves the two sides differ, for the cost of
    one evaluation instead of `simplify` (tens of milliseconds on `cos(t)` against
    `c*o*s*t`). Anything else — near 0, undefined there, not a number — says nothing."""
    symbols = sorted(diff.free_symbols, key=str)
    if len(symbols) > len(_PROBE):
        return False
    try:
        value = diff.evalf(30, subs=dict(zip(symbols, _PROBE, strict=False)))
        if not value.is_number or value.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            return False
        return bool(abs(complex(value)) > 1e-9)
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return False


def same_value(a: sp.Expr, b: sp.Expr) -> bool:
    """Exactly the same expression (identical, or a difference that simplifies to 0)."""
    if a == b:
        return True
    diff = sp.expand(a - b)
    if diff == 0:
        return True
    if differs_at_a_point(diff):
        return False
    return bool(sp.simplify(diff) == 0)


def readings_agree(text: str, first: sp.Expr) -> bool:
    """Does sympy's parser read `text` as the same expression as our parser did?"""
    try:
        return same_value(evaluate(first), second_reading(text))
    except (ParseError, TypeError, ValueError, ZeroDivisionError):
        return False


def both_undefined(text: str, first: sp.Expr) -> bool:
    """Do both readings of `text`, ours (`first`) and sympy's, find a number divided by zero?
    Then the expression is read, and it has no value (12 ÷ 0 = ?)."""
    if first.free_symbols or not has_no_value(first):
        return False
    return meets_division_by_zero(lambda: second_reading(text))
