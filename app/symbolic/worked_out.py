"""Is a numeric answer worked out, as written? '19/12' is; '3/4 + 5/6', '2^10', '√16', '5!' are not.

A question that asks for a value asks for the operations to be carried out: the problem copied
back ("7 × 8" for "7 × 8 = ?") has the right value and answers nothing. An answer is worked out
when every operation left in it is one that cannot be carried out further in exact numbers:
a fraction or mixed number, a minus sign, a root in simplest radical form (2√3, ∛4, not √12
or √16), a multiple of π, scientific notation (3 × 10^8), a sum whose terms do not combine
(1 + √2), a function whose value is irrational (log_2(3)). Two numbers multiplied or added
(7 × 8, 2 - 5/12, 15% × 80), a power or root of a number that has an exact value (2^10, √16),
a factorial: not worked out. A power of ten too long to write out (10^999) or negative
(10^{-3}) is a final form.

The check reads the parser's unevaluated tree, where "3/4" is already one number — and so is
"144/12": a whole number over a whole number is read from the text (one that divides out is a
division left to do). It never approves on its own, it only keeps an equal value from
being approved.
"""

from __future__ import annotations

import re

import sympy as sp

from app.symbolic.evaluation import evaluate
from app.symbolic.normalize import ParseError
from app.symbolic.parsing import parse_expression

# expand_mixed_numbers writes "1 7/12" as "(1+7/12)": one number, as the student wrote it.
_MIXED = re.compile(r"\((\d+)\+(\d+)/(\d+)\)")
_LETTER_E = sp.Symbol("e")
_CONSTANTS = (sp.pi, sp.E, _LETTER_E)
_WRITTEN_OUT_AT_MOST = 15  # digits: a larger power of ten may stay one


def worked_out(text: str) -> bool:
    """`text`: one value as the checker reads it (cleaned, unit and currency gone). False also
    when it cannot be read: the caller has read it already, so that does not happen."""
    plain = _MIXED.sub(lambda m: f"({int(m[1]) * int(m[3]) + int(m[2])}/{m[3]})", text)
    if any(
        _division_left(int(m[1] or m[2]), int(m[3] or m[4]))
        for m in _WHOLE_OVER_WHOLE.finditer(plain)
    ):
        return False  # the parser makes "144 / 12" the number 12 before the tree is read
    try:
        return _settled(parse_expression(plain, answer=True))
    except (ParseError, TypeError, ValueError, ZeroDivisionError, RecursionError):
        return False


# Brackets around either part too: \frac{144}{12} is cleaned to "((144)/(12))", and "(144)/(12)",
# "91/(7)" were approved as answers (an independent tester).
_WHOLE = r"(?:[({\[]\s*(\d+)\s*[)}\]]|(\d+))"  # 144, or one bracketed: (144), {144}
_WHOLE_OVER_WHOLE = re.compile(rf"(?<![\w.]){_WHOLE}\s*/\s*{_WHOLE}(?![\d.])")


def _division_left(numerator: int, denominator: int) -> bool:
    """144 / 12, 12 / 3, 5 / 1: a division still to carry out, as written, to a whole number
    (3/4 and 19/12 are final; 6/8 is a fraction, whether it must be simplest is the
    question's: "Simplify 6/8")."""
    return denominator <= 1 or numerator % denominator == 0


def _settled(expr: sp.Expr) -> bool:
    if expr.is_Atom:
        return True
    if isinstance(expr, sp.Mul):
        return _product_settled(_factors(expr))
    if isinstance(expr, sp.Add):
        return _sum_settled(list(expr.args))
    if isinstance(expr, sp.Pow):
        return _power_settled(expr)
    # log_2(3), sin(1): settled when irrational; 5!, log_2(8), |−3|: a value left to compute
    return not _rational(expr) and all(_settled(a) for a in expr.args)


def _factors(expr: sp.Expr) -> list[sp.Expr]:
    if isinstance(expr, sp.Mul):
        return [f for arg in expr.args for f in _factors(arg)]
    return [expr]


def _rational(expr: sp.Expr) -> bool:
    return bool(evaluate(expr).is_Rational)


def _product_settled(factors: list[sp.Expr]) -> bool:
    """At most a whole number over a whole number (in lowest terms), a sign, and factors that
    do not combine: 3π/2, -5/12, √2/2, (2 + √3)/2; not 7 × 8, 50% (50 × 1/100), √2 × √3."""
    numbers = [f for f in factors if f.is_Rational and f != -1]
    below = [f for f in factors if isinstance(f, sp.Pow) and f.base.is_Integer and f.exp == -1]
    others = [f for f in factors if f not in numbers and f not in below and f != -1]
    if len(numbers) > 1 or len(below) > 1:
        return False
    if below and numbers and not (numbers[0].is_Integer and numbers[0] % below[0].base != 0):
        return False  # 4√3/2 is 2√3: a division left (2√2/4 is a fraction, as 6/8 is)
    if not below and _scientific(numbers, others):
        return True  # (3 × 10^8)/2 is a division left
    radicals = [f for f in others if isinstance(f, sp.Pow) and not f.exp.is_Integer]
    if len(radicals) > 1 or len(set(others)) != len(others):
        return False  # √2·√3, π·π: one radical, each factor once
    return all(_settled(f) for f in others)


def _scientific(numbers: list[sp.Expr], others: list[sp.Expr]) -> bool:
    """3 × 10^8, 1.5 × 10^{-3}: a coefficient from 1 to 10 times a power of ten, a final form
    (5 × 7 × 10^2 is not)."""
    if len(numbers) != 1 or len(others) != 1 or not 1 <= abs(numbers[0]) < 10:
        return False
    power = others[0]
    return isinstance(power, sp.Pow) and power.base == 10 and bool(_signed(power.exp).is_Integer)


def _signed(exponent: sp.Expr) -> sp.Expr:
    """10^{-3} reads as 10^(-1·3), unevaluated: its exponent is the number -3."""
    if isinstance(exponent, sp.Mul) and len(exponent.args) == 2 and exponent.args[0] == -1:
        number = exponent.args[1]
        if number.is_Rational:
            return -number
    return exponent


def _sum_settled(terms: list[sp.Expr]) -> bool:
    """Terms that do not combine: 1 + √2, 2 - π; not 2 - 5/12 nor √2 + 3√2."""
    parts = [evaluate(t).as_coeff_Mul()[1] for t in terms]
    return len(set(parts)) == len(parts) and all(_settled(t) for t in terms)


def _power_settled(expr: sp.Pow) -> bool:
    base, exponent = expr.base, _signed(expr.exp)
    if base == 10 and exponent.is_Integer and exponent < 0:
        return True  # 10^{-1}, 10^{-3}: a power of ten is a final form
    if exponent == -1:  # 1/√2, 1/π: a reciprocal that has no simpler exact form
        return not _rational(base) and _settled(base)
    if base in _CONSTANTS:  # π², √π, e^{1/3}; e^0 and π^1 have simpler values
        return exponent not in (0, 1) and _settled(exponent)
    if not exponent.is_Rational:  # 2^{√2}
        return not _rational(expr) and _settled(base) and _settled(exponent)
    if exponent.q > 1 and base.is_Integer:
        # √12 is 2√3, √16 is 4 and 5^{3/2} is 5√5; ∛4 = 2^{2/3} is final
        radicand, p, q = int(base), int(exponent.p), int(exponent.q)
        if radicand <= 1 or not 0 < p < q:
            return False
        return not _power_divides(radicand, p, q)
    if exponent.q > 1:  # √(1 + √2); √(3/2) is √6/2
        return not base.is_Rational and not _rational(expr) and _settled(base)
    # 10^999: nobody writes the digits out; 2^10 and (√2)³ have simpler values
    return bool(base == 10 and exponent >= _WRITTEN_OUT_AT_MOST)


_FACTORED_FULLY_BELOW = 10**15  # sympy factors these at once
_SMALL_PRIMES = tuple(sp.primerange(2, 1000))  # a larger number: these, and a perfect power
_POWER_BITS_AT_MOST = 4096
_ROOT_INDEX_AT_MOST = 64


def _power_divides(radicand: int, p: int, q: int) -> bool:
    """Does a q-th power (> 1) divide radicand^p? A radicand too large to factor at once is
    tried for small primes and for being a perfect power: a big one is never factored in the
    request (a 40-digit semiprime took sympy seconds)."""
    if radicand.bit_length() * p > _POWER_BITS_AT_MOST or q > _ROOT_INDEX_AT_MOST:
        return False  # too large to tell cheaply: read as final (its value is still checked)
    number = radicand**p
    if number < _FACTORED_FULLY_BELOW:
        return any(k >= q for k in sp.factorint(number).values())
    if any(number % prime**q == 0 for prime in _SMALL_PRIMES):
        return True
    return any(sp.integer_nthroot(number, k)[1] for k in range(2, q + 1) if q % k == 0)
