"""Simplify, expand, factor: expressions with letters, judged by equivalence and by the form asked.

Only polynomials and quotients of polynomials with rational coefficients are read (no roots,
logs or trigonometry of a letter: their identities hold only on parts of the domain). The answer
to "expand" is the expanded polynomial, to "factor" the product of irreducible factors over the
rationals, to "simplify" the polynomial expanded (or the quotient cancelled). A checked answer
must equal it for every value of the letters, and be written in the form asked: the right
value in another form ("(x + 2)(x + 3)" asked to expand) is not judged.
"""

from __future__ import annotations

import re

import sympy as sp

from app.symbolic.evaluation import evaluate

MAX_DEGREE = 12  # (x + 1)^1000 expanded is no homework answer, and slow

TASKS = {
    "simplify": "simplify",
    "expand": "expand",
    "factor": "factor",
    "factorise": "factor",
    "factorize": "factor",
    "化简": "simplify",
    "展开": "expand",
    "因式分解": "factor",
    "分解因式": "factor",
}
ASK_TASK = re.compile(
    r"^\s*(?:please\s+)?(simplify|expand|factori[sz]e|factor|化简|展开|因式分解|分解因式)\s*[:：]?",
    re.IGNORECASE,
)


def is_rational_expression(expr: sp.Expr) -> bool:
    """A polynomial or a quotient of polynomials in its letters (with rational numbers)."""
    value = evaluate(expr)
    numerator, denominator = sp.fraction(sp.together(value))
    symbols = sorted(value.free_symbols, key=lambda s: s.name)
    if not symbols:
        return False
    try:
        polys = [sp.Poly(part, *symbols) for part in (numerator, denominator)]
    except sp.PolynomialError:
        return False
    return all(p.domain in (sp.ZZ, sp.QQ) and p.total_degree() <= MAX_DEGREE for p in polys)


def expected_form(expr: sp.Expr, task: str) -> sp.Expr | None:
    """The answer in the asked form, or None when that form says nothing (x + 1 factored)."""
    value = sp.cancel(evaluate(expr))
    if task == "expand":
        return sp.expand(value)
    if task == "factor":
        factored = sp.factor(value)
        return factored if isinstance(factored, (sp.Mul, sp.Pow)) else None
    return value if value.is_polynomial() else sp.cancel(value)


def equivalent(a: sp.Expr, b: sp.Expr) -> bool:
    return bool(sp.expand(sp.cancel(evaluate(a) - evaluate(b))) == 0)


def _written_terms(expr: sp.Expr) -> list[sp.Expr]:
    """The terms of a sum as written (the parser nests them unevaluated: 3x + x stays two)."""
    if isinstance(expr, sp.Add):
        return [term for arg in expr.args for term in _written_terms(arg)]
    return [expr]


def _like_terms(candidate: sp.Expr) -> bool:
    """'3x + x', 'x^2 + 2x + 3x + 6': terms with the same letters left uncombined."""
    seen: set[sp.Expr] = set()
    for term in _written_terms(candidate):
        monomial = evaluate(term).as_coeff_Mul()[1]
        if monomial in seen:
            return True
        seen.add(monomial)
    return False


def in_form(candidate: sp.Expr, task: str) -> bool:
    """Is the candidate (as written, evaluated without expanding) in the asked form?"""
    value = evaluate(candidate)
    if task in ("expand", "simplify") and _like_terms(candidate):
        return False
    if task == "expand":
        return bool(sp.expand(value) == value)
    if task == "factor":
        factors = sp.Mul.make_args(value)
        for factor in factors:
            base = factor.base if isinstance(factor, sp.Pow) and factor.exp.is_Integer else factor
            if not base.free_symbols:
                continue
            _, parts = sp.factor_list(base)
            if len(parts) != 1 or parts[0][1] != 1:
                return False  # x^2 - 9 inside is not factored
        return len([f for f in factors if f.free_symbols]) > 1 or isinstance(value, sp.Pow)
    simplest = sp.cancel(value)
    return bool(value == simplest or sp.expand(value) == value)


def numbers_uncombined(expr: sp.Expr) -> bool:
    """Arithmetic left undone in the answer as written: x(2 + 3), (2*3)x, x^(1+1), 6/8 x."""
    if expr.is_Atom:
        return False
    if not expr.free_symbols:
        return not _plain_number(expr)
    return any(numbers_uncombined(arg) for arg in expr.args)


def _plain_number(expr: sp.Expr) -> bool:
    """One number as written: 8, 3/4, -8 (the parser's -1*8), a denominator 4^-1."""
    if expr.is_Atom:
        return True
    if isinstance(expr, sp.Pow):
        return bool(expr.base.is_Integer and expr.exp == -1)
    if isinstance(expr, sp.Mul) and len(expr.args) == 2:
        first, second = expr.args
        if first == -1 or second == -1:
            return _plain_number(second if first == -1 else first)
        whole = next((a for a in expr.args if a.is_Integer), None)
        below = next((a for a in expr.args if isinstance(a, sp.Pow)), None)
        if whole is not None and below is not None and _plain_number(below):
            return bool(sp.gcd(whole, below.base) == 1)
    return False


def factor_left_to_cancel(candidate: sp.Expr) -> bool:
    """'(x - 1)(x + 1)/(x - 1)', 'x(x + 1)/x': a factor with letters written both above and
    below the line (sympy cancels identical factors as it reads, so the value looks simplest)."""
    for term in _written_terms(candidate):
        factors = _top_factors(term)
        below = [
            evaluate(f.base)
            for f in factors
            if isinstance(f, sp.Pow) and f.exp.is_Integer and f.exp.is_negative
        ]
        above = [
            evaluate(f)
            for f in factors
            if not (isinstance(f, sp.Pow) and f.exp.is_Integer and f.exp.is_negative)
        ]
        if below and above:
            common = sp.gcd(sp.Mul(*above), sp.Mul(*below))
            if common.free_symbols:
                return True
    return False


def _written_factors(expr: sp.Expr) -> list[sp.Expr]:
    """The factors of a product as written: 2x(x + 2) is 2, x and x + 2; (2x)^2 is 2 and x."""
    if isinstance(expr, sp.Mul):
        return [factor for arg in expr.args for factor in _written_factors(arg)]
    if isinstance(expr, sp.Pow) and evaluate(expr.exp).is_Integer:
        return _written_factors(expr.base)
    return [expr]


def fully_factored(candidate: sp.Expr) -> bool | None:
    """Is the candidate, as written, factored over the integers? False when a factor still
    factors: a common whole factor left inside (x(2x + 4), (2x - 4)(2x + 4)) or a factor that
    splits further (4(x^2 - 4)), or no factor was taken out at all (2x + 4). None when the
    form says nothing certain (x^2 + 4, a factor with fractions such as x/2 - 1)."""
    factors = _written_factors(candidate)
    letters = [evaluate(f) for f in factors if evaluate(f).free_symbols]
    constants = [evaluate(f) for f in factors if not evaluate(f).free_symbols]
    for factor in letters:
        try:
            coefficient, parts = sp.factor_list(factor)
        except (sp.PolynomialError, NotImplementedError):
            return None
        if len(parts) != 1 or parts[0][1] != 1:
            return False
        if coefficient.is_Integer and abs(coefficient) > 1:
            return False
        if coefficient not in (1, -1):
            return None
    if len(letters) >= 2:
        return True
    if len(letters) == 1 and any(c not in (1, -1) for c in constants):
        return True
    powered = any(
        isinstance(top, sp.Pow) and evaluate(top.base).free_symbols and evaluate(top.exp) > 1
        for top in _top_factors(candidate)
    )
    return True if len(letters) == 1 and powered else None


def _top_factors(expr: sp.Expr) -> list[sp.Expr]:
    if isinstance(expr, sp.Mul):
        return [factor for arg in expr.args for factor in _top_factors(arg)]
    return [expr]


def show(expr: sp.Expr) -> str:
    return str(sp.sstr(expr)).replace("**", "^")
