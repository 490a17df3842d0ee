"""The complete real solution set of a problem, every member verified by substitution.

sympy proposes (polynomial roots, linsolve, solveset over the reals); each proposed solution is
then substituted back into every equation *as written* and into every condition, and kept only
if all hold exactly with every sub-expression real (√ of a negative, log of 0: extraneous).
Whatever cannot be made certain — an infinite set, a ConditionSet, a check sympy cannot decide —
is None, and the caller abstains.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import sympy as sp

from app.symbolic.evaluation import MAX_FACTORIAL, evaluate
from app.symbolic.normalize import ParseError
from app.symbolic.problem import MathProblem

MAX_POLY_DEGREE = 4
Assignment = dict[sp.Symbol, sp.Expr]


@dataclass(frozen=True, slots=True)
class SolutionSet:
    kind: str  # finite | all
    assignments: tuple[Assignment, ...] = ()
    complex_only: bool = False  # no real solution, though complex ones exist (x^2 + 1 = 0)
    repeated_root: bool = False  # (x - 2)^2 = 0: "sum of the roots" is ambiguous


def _is_zero(value: sp.Expr) -> bool | None:
    if value == 0:
        return True
    if value.is_number and value.is_zero is False:
        return False
    simplified = sp.simplify(value)
    if simplified == 0:
        return True
    return False if simplified.is_zero is False else None


class _NotReal(Exception):
    pass


def _real_value(expr: sp.Expr, assignment: Assignment) -> sp.Expr:
    """Evaluate the tree as written, bottom-up; every sub-expression must be real.

    Substituting first would let sympy simplify (√x)² to x before -9 is put in: √-9 is
    never seen. Raises _NotReal, or returns a value whose realness is undecided (None)."""
    if expr.is_Atom:
        value = assignment.get(expr, expr)
    else:
        args = [_real_value(a, assignment) for a in expr.args]
        value = evaluate(expr.func(*args, evaluate=False))
    if value.is_real is False:
        raise _NotReal
    return value


def _all_real(expr: sp.Expr, assignment: Assignment) -> bool | None:
    """Every sub-expression of `expr` with `assignment` is real (√ of a negative, log of -1)."""
    try:
        for node in sp.preorder_traversal(expr):
            if _real_value(node, assignment).is_real is None:
                return None
    except _NotReal:
        return False
    return True


def _restricted_domain(expr: sp.Expr) -> bool:
    """Is some sub-expression undefined for some real x (√x, log x, 1/x, x^0, tan x)?"""
    for node in sp.preorder_traversal(expr):
        if not node.free_symbols:
            continue
        partial_power = isinstance(node, sp.Pow) and node.base.free_symbols
        if partial_power and not (node.exp.is_Integer and node.exp > 0):
            return True
        if isinstance(node, (sp.log, sp.tan)):
            return True
    return False


def satisfies(problem: MathProblem, assignment: Assignment) -> bool | None:
    """Does the assignment satisfy every equation and condition, within the real numbers?"""
    for eq in problem.equations:
        for side in (eq.lhs, eq.rhs):
            real = _all_real(side, assignment)
            if real is not True:
                return real
        verdict = _is_zero(
            evaluate(eq.lhs.xreplace(assignment)) - evaluate(eq.rhs.xreplace(assignment))
        )
        if verdict is not True:
            return verdict
    for condition in problem.conditions:
        holds = condition.holds(assignment)
        if holds is not True:
            return holds
    return True


Proposal = tuple[str, list[sp.Expr], bool, bool]


def _factorial_roots(residual: sp.Expr, x: sp.Symbol) -> Proposal | None:
    """x! = 24, 2·x! = 48: linear in x! alone, x a whole number (x! has no other meaning in
    school). No whole number (x! = 25) is left to a model rather than called no solution."""
    value = sp.Dummy("factorial")
    replaced = sp.expand(residual.xreplace({sp.factorial(x): value}))
    if x in replaced.free_symbols or replaced.has(sp.factorial):
        return None
    try:
        poly = sp.Poly(replaced, value)
    except sp.PolynomialError:
        return None
    if poly.degree() != 1 or poly.free_symbols - {value}:
        return None
    a, b = poly.all_coeffs()
    target = -b / a
    if not (target.is_Integer and target > 1):
        return None  # x! = 1: is 0! = 1 taught (x = 0 or 1), or x = 1 alone?
    whole = [n for n in range(MAX_FACTORIAL + 1) if math.factorial(n) == int(target)]
    if not whole:
        return None
    return "finite", [sp.Integer(n) for n in whole], False, False


def _propose_single(problem: MathProblem, residual: sp.Expr, x: sp.Symbol) -> Proposal | None:
    """(kind, candidates, complex_only, repeated) for one equation in one unknown."""
    if residual.has(sp.factorial):
        return _factorial_roots(residual, x)
    try:
        poly = sp.Poly(residual, x)
        polynomial = not poly.free_symbols - {x}
    except sp.PolynomialError:
        polynomial = False
    if polynomial:
        degree = poly.degree()
        if degree <= 0:
            return ("all" if poly.is_zero else "finite"), [], False, False
        if degree > MAX_POLY_DEGREE:
            return None
        roots = sp.roots(poly, x)
        if sum(roots.values()) != degree:
            return None
        real = [r for r in roots if r.is_real]
        if any(r.is_real is None for r in roots):
            return None
        return "finite", real, not real, any(m > 1 for r, m in roots.items() if r.is_real)
    if sp.expand(sp.fraction(sp.together(residual))[0]) == 0:
        return "all", [], False, False  # -(x-1)/(x-1) = -1: solveset may call this empty
    domain: sp.Set = sp.S.Reals
    for condition in problem.conditions:
        subset = condition.as_set()
        if subset is not None:
            domain = sp.Intersection(domain, subset)
    found = sp.solveset(residual, x, domain)
    if found == domain and domain == sp.S.Reals:
        return "all", [], False, False
    if isinstance(found, sp.FiniteSet):
        return "finite", [_rational_if_it_is(v) for v in found], False, False
    if found is sp.S.EmptySet:
        return "finite", [], False, False
    return None  # ImageSet, ConditionSet, intervals: not a set we can verify point by point


def _rational_if_it_is(value: sp.Expr) -> sp.Expr:
    """log(2)/log(4) (solveset's root of 4^x = 2) is 1/2: an answer a student can check. Each
    value is verified by substitution after this, as every proposal is."""
    if not value.has(sp.log):
        return value
    tidy = sp.simplify(sp.expand_log(value, force=True))
    return tidy if tidy.is_Rational else value


def solve_problem_set(problem: MathProblem) -> SolutionSet | None:
    """The verified real solution set, or None when it cannot be known for certain."""
    try:
        return _solve(problem)
    except (ParseError, TypeError, ValueError, ZeroDivisionError, NotImplementedError):
        return None
    except AttributeError:  # solveset on asin(3/5) + asin(4/5) > pi/2 (sympy's own error)
        return None


def _solve(problem: MathProblem) -> SolutionSet | None:
    variables = problem.variables
    residuals = [evaluate(eq.lhs) - evaluate(eq.rhs) for eq in problem.equations]
    complex_only = repeated = False
    if len(variables) == 1:
        proposal = _propose_single(problem, residuals[0], variables[0])
        if proposal is None:
            return None
        kind, values, complex_only, repeated = proposal
        if kind == "all":
            # x/x = 1 or (√x)² = x hold only where defined: "all real numbers" would be wrong.
            restricted = any(
                _restricted_domain(side) for eq in problem.equations for side in eq.args
            )
            return None if problem.conditions or restricted else SolutionSet("all")
        candidates: list[Assignment] = [{variables[0]: v} for v in values]
    else:
        found_candidates = _propose_system(problem, residuals)
        if found_candidates is None:
            return None
        candidates = found_candidates
    verified = []
    for assignment in candidates:
        ok = satisfies(problem, assignment)
        if ok is None:
            return None
        if ok:
            verified.append(assignment)
    if len(verified) > 1 and any(c.asks_one for c in problem.conditions):
        return None  # "the positive solution" of x² - 5x + 6 = 0: 2 or 3?
    return SolutionSet("finite", tuple(verified), complex_only and not verified, repeated)


def _given_values(problem: MathProblem) -> Assignment:
    """'u = 3', 'a = 2': the values a formula problem gives outright."""
    given: Assignment = {}
    for eq in problem.equations:
        for side, other in ((eq.lhs, eq.rhs), (eq.rhs, eq.lhs)):
            if isinstance(side, sp.Symbol) and not other.free_symbols:
                given[side] = evaluate(other)
    return given


def _propose_system(problem: MathProblem, residuals: list[sp.Expr]) -> list[Assignment] | None:
    """A system's candidate solutions: the given values put into the other equations first
    (v = u + at with u, a, t given is linear in v), the rest solved exactly when linear."""
    given = _given_values(problem)
    unknown = [v for v in problem.variables if v not in given]
    rest = [r for r in (sp.expand(r.xreplace(given)) for r in residuals) if r != 0]
    if not unknown:
        return [dict(given)] if not rest else []
    if any(r.is_number for r in rest):
        return []  # two given values contradict each other, or an equation fails outright
    for residual in rest:
        try:
            if sp.Poly(residual, *unknown).total_degree() > 1:
                return None  # non-linear systems are left to a model
        except sp.PolynomialError:
            return None
    found = sp.linsolve(rest, unknown)
    if not isinstance(found, sp.FiniteSet):
        return None
    candidates = []
    for values in found:
        if any(v.free_symbols for v in values):
            return None  # infinitely many solutions
        candidates.append({**given, **dict(zip(unknown, values, strict=True))})
    return candidates


def _roots_all_counted(problem: MathProblem) -> bool:
    """Are the real solutions all of a polynomial's roots, each once? "The product of the
    roots of x³ - 8 = 0" is 8 by Vieta, 2 over the reals; x² - 4x + 4 = 0 has 2 twice. Where
    the question says "real roots", only repeated ones are in doubt."""
    if len(problem.equations) != 1 or len(problem.variables) != 1:
        return True  # not one polynomial: the solutions are what is summed
    (x,) = problem.variables
    (equation,) = problem.equations
    try:
        poly = sp.Poly(sp.together(equation.lhs - equation.rhs).as_numer_denom()[0], x)
    except sp.PolynomialError:
        return True
    if poly.degree() < 2:
        return True
    if poly.free_symbols - {x}:
        return False
    roots = sp.roots(poly)
    if sum(roots.values()) != poly.degree() or any(m > 1 for m in roots.values()):
        return False
    return problem.target.real or all(r.is_real for r in roots)


def target_values(problem: MathProblem, solutions: SolutionSet) -> list[sp.Expr] | None:
    """The answer to a non-default question as exact values, or None (then abstain)."""
    target = problem.target
    if solutions.kind != "finite":
        return None
    if target.kind == "count":
        if solutions.repeated_root:
            return None  # x² - 4x + 4 = 0: one root, or "two equal roots" (两个相等的实数根)?
        return [sp.Integer(len(solutions.assignments))]
    if not solutions.assignments:
        return None
    if target.kind in ("sum", "product"):
        if solutions.repeated_root or not _roots_all_counted(problem):
            return None  # with or without multiplicity? the non-real roots too (Vieta)?
        (x,) = problem.variables
        values = [a[x] for a in solutions.assignments]
        total = sp.Add(*values) if target.kind == "sum" else sp.Mul(*values)
        return [sp.simplify(total)]
    assert target.expression is not None
    distinct: list[sp.Expr] = []
    for assignment in solutions.assignments:
        if _all_real(target.expression, assignment) is not True:
            return None
        value = sp.simplify(evaluate(target.expression.xreplace(assignment)))
        if not any(_is_zero(value - d) for d in distinct):
            distinct.append(value)
    if target.kind == "value":
        return distinct if len(distinct) == 1 else None
    best = distinct[0]
    for value in distinct[1:]:
        bigger = (value - best).is_positive
        if bigger is None:
            return None
        if bigger == (target.kind == "max"):
            best = value
    return [best]
