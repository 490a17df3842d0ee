"""Bounded exact evaluation and rendering of values.

Evaluation goes bottom-up so every power and factorial is checked *before* sympy computes it:
9^9^9 or 10000! raise ParseError instead of hanging a worker. Values too large to print in
full (10^999) are rendered in scientific notation.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction

import sympy as sp
from sympy.printing.latex import LatexPrinter

from app.symbolic.normalize import ParseError

MAX_EXPONENT = 1000
MAX_RESULT_DIGITS = 1000
MAX_FACTORIAL = 450  # 450! has about 1000 digits
MAX_PRINTED_DIGITS = 40


class UndefinedValue(ParseError):
    """The expression is read, and it has no value: a division by zero somewhere in it (12 ÷ 0,
    tan 90°, log 0). Which expression it is stays the reader's to say (both readings)."""


def meets_division_by_zero(read: Callable[[], object]) -> bool:
    """Does `read()` (an evaluation, a reading) meet a division by zero? Any other failure:
    False."""
    try:
        read()
    except UndefinedValue:
        return True
    except (ParseError, TypeError, ValueError, ZeroDivisionError):
        return False
    return False


def has_no_value(expr: sp.Expr) -> bool:
    """Does evaluating `expr` meet a division by zero?"""
    return meets_division_by_zero(lambda: evaluate(expr))


def _digits(value: sp.Rational) -> float:
    return max(math.log10(abs(int(value.p)) or 1), math.log10(int(value.q)))


def _check_power(base: sp.Expr, exponent: sp.Expr) -> None:
    if exponent.free_symbols:
        if base.free_symbols or not (base.is_number and base.is_positive):
            raise ParseError("only a positive number may be raised to an unknown power")
        return
    odd_root = exponent.is_Rational and exponent.q != 1 and int(exponent.q) % 2 == 1
    if base.free_symbols and odd_root:
        raise ParseError("x^(1/3): the real root or the principal one?")
    if base == 0 and exponent == 0:
        raise ParseError("0^0 is undefined")
    if not exponent.is_number or not exponent.is_real:
        raise ParseError("unsupported exponent")
    if abs(exponent) > MAX_EXPONENT:
        raise ParseError("exponent too large")
    if base.is_Rational and exponent.is_Rational:
        if base == 0 and exponent < 0:
            raise UndefinedValue("division by zero")
        if _digits(base) * abs(float(exponent)) > MAX_RESULT_DIGITS:
            raise ParseError("power too large")


def evaluate(expr: sp.Expr) -> sp.Expr:
    """Evaluate an unevaluated tree exactly (numbers are rationals, never floats), bounded."""
    if expr.is_Atom:
        return expr
    args = [evaluate(a) for a in expr.args]
    if isinstance(expr, sp.Pow):
        _check_power(args[0], args[1])
    elif isinstance(expr, sp.factorial):
        n = args[0]
        if isinstance(n, sp.Symbol):
            return sp.factorial(n, evaluate=False)  # x! = 24: solved over whole numbers
        if not (n.is_Integer and 0 <= n <= MAX_FACTORIAL):
            raise ParseError("factorial needs a whole number up to 450")
    result = expr.func(*args)
    if result is sp.nan or result.has(sp.zoo, sp.nan):
        raise UndefinedValue("undefined value (division by zero)")
    if result.has(sp.oo, -sp.oo):
        raise ParseError("an infinite value")
    if result.is_Rational and _digits(result) > MAX_RESULT_DIGITS * 2:
        raise ParseError("result too large")
    return result


def differ_numerically(value: sp.Expr) -> bool | None:
    """Is a number not zero beyond doubt? Evaluated to 30 digits with sympy's error control
    (`strict`): True, it is a real number that differs from zero; False, no digit of it is not
    zero (what a true zero gives); None, it is not a real number there or not evaluated."""
    try:
        difference = sp.N(value, 30, strict=True)
    except sp.core.evalf.PrecisionExhausted:
        return False
    except (TypeError, ValueError, ZeroDivisionError, RecursionError):
        return None
    if not difference.is_number or not difference.is_real:
        return None
    return bool(abs(difference) > sp.Float("1e-20"))


def real_throughout(expr: sp.Expr) -> bool:
    """Is every numeric sub-expression real? (√-4)² = -4 only over ℂ; the reader works over ℝ,
    so arithmetic through a non-real intermediate is not read (ln(-1)·0, √-2·√-8)."""
    if expr.is_Atom:
        return expr.is_real is not False or bool(expr.free_symbols)
    if not all(real_throughout(a) for a in expr.args):
        return False
    return bool(expr.free_symbols) or evaluate(expr).is_real is True


def is_plain_number(value: sp.Expr) -> bool:
    """A number written without unevaluated functions: sin(30) or log(5) is not an answer."""
    return bool(value.is_number) and not value.atoms(sp.Function)


def terminating_decimal(value: sp.Rational | Fraction) -> bool:
    """Does the value have a finite decimal expansion (1/8 = 0.125; not 1/3)?"""
    q = int(value.denominator)
    for prime in (2, 5):
        while q % prime == 0:
            q //= prime
    return q == 1


def decimal_string(value: sp.Rational) -> str:
    if terminating_decimal(value):
        return format(sp.Float(value, 40), "f").rstrip("0").rstrip(".")
    return str(sp.Float(value, 10)).rstrip("0")


MAX_PERIOD = 6


def repeating_decimal_text(value: sp.Rational) -> str | None:
    """1/3 → '0.333...', 1/6 → '0.1666...', 1/7 → '0.142857142857...': the repeating block
    written three times (one digit) or twice (longer), as `normalize.ellipsis_decimals` reads
    it back. None for a terminating value or a block longer than six digits."""
    if terminating_decimal(value):
        return None
    sign = "-" if value < 0 else ""
    numerator, denominator = abs(int(value.p)), int(value.q)
    whole, remainder = divmod(numerator, denominator)
    digits: list[str] = []
    seen: dict[int, int] = {}
    while remainder not in seen:
        if len(digits) > 64:
            return None
        seen[remainder] = len(digits)
        digit, remainder = divmod(remainder * 10, denominator)
        digits.append(str(digit))
    start = seen[remainder]
    fixed, block = "".join(digits[:start]), "".join(digits[start:])
    if len(block) > MAX_PERIOD:
        return None
    return f"{sign}{whole}.{fixed}{block * (3 if len(block) == 1 else 2)}..."


def _scientific(value: sp.Integer) -> str:
    digits = str(abs(int(value)))
    sign = "-" if value < 0 else ""
    stripped = digits.rstrip("0")
    exponent = len(digits) - 1
    if len(stripped) == 1:
        return f"{sign}{stripped} × 10^{exponent}" if stripped != "1" else f"{sign}10^{exponent}"
    mantissa = f"{stripped[0]}.{stripped[1:16]}"
    exact = len(stripped) <= 16
    return f"{'' if exact else '≈ '}{sign}{mantissa} × 10^{exponent}"


def format_value(value: sp.Expr, decimals: bool = False) -> str:
    """19/12 stays a fraction unless the problem itself used decimals; huge numbers shrink."""
    value = sp.nsimplify(value) if value.is_Float else value
    if value.is_Integer:
        written = str(abs(int(value)))
        # A long power of ten is written as one (exactly); any other exact value stays exact:
        # an answer rounded for display would be refused by the check of the same answer.
        if len(written) > MAX_PRINTED_DIGITS and len(written.rstrip("0")) <= 16:
            return _scientific(value)
        return str(int(value))
    if value.is_Rational:
        if decimals and terminating_decimal(value):
            return decimal_string(value)
        return f"{value.p}/{value.q}"
    if value.has(sp.exp):  # exp(2) is written e^2
        value = value.replace(sp.exp, lambda power: sp.Pow(sp.E, power, evaluate=False))
    text = str(sp.sstr(value)).replace("**", "^")
    return re.sub(r"(?<![A-Za-z_])E(?![A-Za-z_])", "e", text) if value.has(sp.E) else text


class _DecimalLatexPrinter(LatexPrinter):  # type: ignore[misc]  # sympy is untyped
    """Prints terminating rationals as decimals, for problems written with decimals."""

    def _print_Rational(self, expr: sp.Rational) -> str:
        if terminating_decimal(expr):
            return decimal_string(expr)
        return str(super()._print_Rational(expr))


def to_latex(expr: sp.Expr, decimals: bool = False) -> str:
    """LaTeX in the order the student wrote it, decimals kept as decimals."""
    if decimals:
        return str(_DecimalLatexPrinter({"order": "none"}).doprint(expr))
    return str(sp.latex(expr, order="none"))
