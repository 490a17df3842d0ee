"""Exact solutions with student-readable steps for the problems `extract_problem` accepts."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce

import sympy as sp

from app.symbolic.parsing import decimal_string, evaluate, to_latex
from app.symbolic.problem import MathProblem, extract_problem

MAX_DEGREE = 2


@dataclass(slots=True)
class Step:
    description: str
    latex: str | None = None


@dataclass(slots=True)
class SymbolicSolution:
    kind: str
    steps: list[Step]
    final_answer: str
    # Each solution is a mapping variable name → exact value (string), arithmetic uses "value".
    solutions: list[dict[str, str]] = field(default_factory=list)


def format_value(value: sp.Expr, decimals: bool = False) -> str:
    """19/12 stays a fraction unless the problem itself used decimals."""
    value = sp.nsimplify(value) if value.is_Float else value
    if value.is_Integer:
        return str(int(value))
    if value.is_Rational:
        if decimals:
            return decimal_string(value)
        return f"{value.p}/{value.q}"
    return sp.sstr(value).replace("**", "^")


def solve_text(text: str) -> SymbolicSolution | None:
    problem = extract_problem(text)
    if problem is None:
        return None
    return solve_problem(problem)


def solve_problem(problem: MathProblem) -> SymbolicSolution | None:
    if problem.kind == "arithmetic":
        return _solve_arithmetic(problem)
    return _solve_equations(problem)


def _solve_arithmetic(problem: MathProblem) -> SymbolicSolution:
    expr = problem.expression
    assert expr is not None
    value = evaluate(expr)
    dec = problem.uses_decimals
    steps = [Step("Write the expression", to_latex(expr, dec))]
    fractions = _fraction_terms(expr)
    if fractions and not problem.uses_decimals:
        denominator = reduce(sp.ilcm, (f.q for f in fractions), 1)
        rewritten = " + ".join(
            rf"\frac{{{f.p * (denominator // f.q)}}}{{{denominator}}}" for f in fractions
        ).replace("+ \\frac{-", "- \\frac{")
        steps.append(Step(f"Use the common denominator {denominator}", rewritten))
    steps.append(Step("Evaluate", f"{to_latex(expr, dec)} = {to_latex(value, dec)}"))
    if value.is_Rational and not value.is_Integer and abs(value) > 1 and not problem.uses_decimals:
        whole = int(value.p / value.q)
        rest = abs(value - whole)
        steps.append(Step("As a mixed number", rf"{whole}\tfrac{{{rest.p}}}{{{rest.q}}}"))
    answer = format_value(value, problem.uses_decimals)
    return SymbolicSolution("arithmetic", steps, answer, [{"value": answer}])


def _fraction_terms(expr: sp.Expr) -> list[sp.Rational] | None:
    """The terms of a sum of plain fractions (3/4 + 5/6), else None."""
    if not isinstance(expr, sp.Add):
        return None
    terms = [evaluate(t) for t in sp.Add.make_args(expr)]
    if not all(t.is_Rational for t in terms) or all(t.is_Integer for t in terms):
        return None
    return terms  # type: ignore[return-value]


def _solve_equations(problem: MathProblem) -> SymbolicSolution | None:
    variables = problem.variables
    if len(problem.equations) < len(variables):
        return None  # under-determined: infinitely many solutions, nothing to check against
    standard = [sp.expand(evaluate(eq.lhs) - evaluate(eq.rhs)) for eq in problem.equations]
    for expr in standard:
        try:
            degree = sp.Poly(expr, *variables).total_degree()
        except sp.PolynomialError:
            return None  # not polynomial (x in a denominator, sqrt(x), ...)
        if degree > MAX_DEGREE or (degree > 1 and len(standard) > 1):
            return None
    raw = sp.solve(standard, variables, dict=True)
    solutions = [s for s in raw if all(v.is_real for v in s.values()) and len(s) == len(variables)]
    steps = [
        Step(
            "Write the equation" + ("s" if len(standard) > 1 else ""),
            r" \\ ".join(to_latex(eq, problem.uses_decimals) for eq in problem.equations),
        )
    ]
    if len(standard) == 1 and len(variables) == 1:
        steps += _single_variable_steps(standard[0], variables[0], solutions)
    else:
        steps.append(Step("Solve the system by elimination"))
    decimals = problem.uses_decimals
    if not solutions:
        steps.append(Step("There is no real solution"))
        return SymbolicSolution("equations", steps, "no real solution", [])
    formatted = [
        {v.name: format_value(s[v], decimals) for v in variables}
        for s in sorted(solutions, key=lambda s: [sp.N(s[v]) for v in variables])
    ]
    answer = _answer_text(formatted, variables)
    steps.append(Step("Answer", _answer_latex(solutions, variables)))
    return SymbolicSolution("equations", steps, answer, formatted)


def _single_variable_steps(expr: sp.Expr, x: sp.Symbol, solutions: list[dict]) -> list[Step]:
    poly = sp.Poly(expr, x)
    if poly.degree() == 1:
        a, b = poly.all_coeffs()
        return [
            Step("Move every term to one side", f"{sp.latex(expr)} = 0"),
            Step(f"Isolate {x}", f"{sp.latex(a * x)} = {sp.latex(-b)}"),
            Step(f"Divide both sides by {sp.latex(a)}", f"{x} = {sp.latex(-b / a)}"),
        ]
    a, b, c = poly.all_coeffs()
    steps = [Step("Write it in standard form", f"{sp.latex(expr)} = 0")]
    factored = sp.factor(expr)
    if isinstance(factored, sp.Mul) or (isinstance(factored, sp.Pow) and factored.exp == 2):
        steps.append(Step("Factor", f"{sp.latex(factored)} = 0"))
        steps.append(Step("Set each factor to zero"))
    else:
        disc = b**2 - 4 * a * c
        steps.append(Step("Compute the discriminant", rf"\Delta = b^2 - 4ac = {sp.latex(disc)}"))
        if disc >= 0:
            steps.append(
                Step("Apply the quadratic formula", rf"{x} = \frac{{-b \pm \sqrt{{\Delta}}}}{{2a}}")
            )
    return steps


def _answer_latex(solutions: list[dict], variables: list[sp.Symbol]) -> str:
    return r" \text{ or } ".join(
        ", ".join(f"{v.name} = {sp.latex(s[v])}" for v in variables) for s in solutions
    )


def _answer_text(solutions: list[dict[str, str]], variables: list[sp.Symbol]) -> str:
    if len(variables) == 1:
        name = variables[0].name
        return " or ".join(f"{name} = {s[name]}" for s in solutions)
    return " or ".join(", ".join(f"{k} = {v}" for k, v in s.items()) for s in solutions)
