"""What the question asks for."""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp


@dataclass(frozen=True, slots=True)
class Target:
    """`solutions` (the default) means the variables' values; the others ask for one number."""

    kind: str  # solutions | value | max | min | sum | product | count
    expression: sp.Expr | None = None
    real: bool = False  # "the sum of the real roots": the non-real ones are not asked
