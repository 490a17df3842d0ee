"""Decimals written with an ellipsis: '0.666...', '0.1428…', '0.999...'.

'd.ddd...' claims that the value's decimal expansion starts with these digits (truncation, not
rounding), or, when the last digit is written twice or more, that it repeats (0.4999... = 1/2).
A claim with fewer than two significant digits ('0.3...') is too weak to approve, and digits
that are only the rounded value ('0.143...' for 1/7) are neither approved nor rejected.
"""

from __future__ import annotations

import re

import sympy as sp

from app.symbolic.normalize import normalize

ELLIPSIS = re.compile(r"\.{3,}|…")
_NUMBER = re.compile(r"(-?)(\d*)\.(\d+)(?:\.{3,}|…)")
MIN_SIGNIFICANT_DIGITS = 2


def ellipsis_verdict(exact: sp.Expr, candidate: str) -> bool | None:
    """True/False when the ellipsis decimal certainly is/is not `exact`; None otherwise."""
    m = _NUMBER.fullmatch(normalize(candidate).strip().rstrip("。").strip())
    if m is None or not (exact.is_number and exact.is_real):
        return None
    negative, whole, fraction = m.group(1) == "-", m.group(2) or "0", m.group(3)
    if exact.is_zero or bool(exact.is_negative) != negative:
        return False if not exact.is_zero else None
    size, places = abs(exact), len(fraction)
    written = int(whole + fraction)
    if places >= 2 and fraction[-1] == fraction[-2]:
        scale = 10 ** (places - 1)
        repeating = sp.Rational(int(whole + fraction[:-1]), scale) + sp.Rational(
            int(fraction[-1]), 9 * scale
        )
        if sp.simplify(repeating - size) == 0:
            return True
    if sp.floor(size * 10**places) == written:
        significant = len((whole + fraction).lstrip("0"))
        return True if significant >= MIN_SIGNIFICANT_DIGITS else None
    if sp.floor(size * 10**places + sp.Rational(1, 2)) == written:
        return None  # the rounded digits: a common way to write it, but not its expansion
    return False
