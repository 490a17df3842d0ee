"""Exact answers with student-readable steps for the problems `extract_problem` reads.

The answer is the answer to the question asked (8x + 2, the greatest y³, the number of
solutions), computed from the verified solution set; when the set or the question leaves any
doubt the solver returns None and a model takes over.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache, reduce

import sympy as sp

from app.symbolic.evaluation import (
    decimal_string,
    evaluate,
    format_value,
    is_plain_number,
    repeating_decimal_text,
    terminating_decimal,
    to_latex,
)
from app.symbolic.expressions import expected_form
from app.symbolic.expressions import show as show_expression
from app.symbolic.inequality import format_set, solution_set
from app.symbolic.normalize import ParseError, read_repeating
from app.symbolic.problem import MathProblem, extract_problem
from app.symbolic.rounding import rounded_text, significant_text
from app.symbolic.solutionset import SolutionSet, satisfies, solve_problem_set, target_values

__all__ = ["Step", "SymbolicSolution", "format_value", "solve_problem", "solve_text"]

NO_SOLUTION = "no solution"
UNDEFINED = "undefined"  # 12 ÷ 0
NO_REAL_SOLUTION = "no real solution"
ALL_REALS = "all real numbers"


@dataclass(slots=True)
class Step:
    description: str
    latex: str | None = None


@dataclass(slots=True)
class SymbolicSolution:
    kind: str
    steps: list[Step]
    final_answer: str
    # Each solution is a mapping variable name → exact value (string), a single value uses "value".
    solutions: list[dict[str, str]] = field(default_factory=list)


def solve_text(text: str) -> SymbolicSolution | None:
    return read_and_solve(text)[1]


def solve_reading(text: str) -> tuple[bool, SymbolicSolution | None]:
    """Whether the reader understood `text` at all, and its solution (the sandbox's call: a
    problem not read need not be read again to check an answer to it)."""
    problem, solution = read_and_solve(text)
    return problem is not None, solution


@lru_cache(maxsize=256)
def read_and_solve(text: str) -> tuple[MathProblem | None, SymbolicSolution | None]:
    """The problem `text` states and its solution, remembered: the sandbox's worker solves a
    problem and then checks an answer to it, and both start from this reading (shared: callers
    must not change what it returns)."""
    problem = extract_problem(text)
    return problem, solve_problem(problem) if problem is not None else None


def solve_problem(problem: MathProblem) -> SymbolicSolution | None:
    try:
        if problem.kind == "arithmetic":
            return _solve_arithmetic(problem)
        if problem.kind == "inequality":
            return _solve_inequality(problem)
        if problem.kind == "expression":
            return _solve_expression(problem)
        if problem.kind == "membership":
            return _solve_membership(problem)
        if problem.kind == "claim":
            return _solve_claim(problem)
        if problem.kind == "remainder":
            return _solve_remainder(problem)
        if problem.kind == "congruence":
            return _solve_congruence(problem)
        if problem.kind == "property":
            return _solve_property(problem)
        if problem.kind == "comparison":
            return _solve_comparison(problem)
        return _solve_equations(problem)
    except (ParseError, TypeError, ValueError, ZeroDivisionError):
        return None


def _solve_arithmetic(problem: MathProblem) -> SymbolicSolution | None:
    expr = problem.expression
    assert expr is not None
    if problem.undefined:
        steps = [
            Step("Write the expression", to_latex(expr, problem.uses_decimals)),
            Step("It divides by zero, and division by zero is undefined", r"\text{undefined}"),
        ]
        return SymbolicSolution("arithmetic", steps, UNDEFINED)
    value = sp.simplify(evaluate(expr)) if not evaluate(expr).is_Rational else evaluate(expr)
    if not value.is_real or not is_plain_number(value):
        return None  # an echo of sin(30) is no answer
    dec = problem.uses_decimals
    steps = [Step("Write the expression", to_latex(expr, dec))]
    fractions = _fraction_terms(expr)
    if fractions and not problem.uses_decimals:
        denominator = reduce(sp.ilcm, (f.q for f in fractions), 1)
        rewritten = " + ".join(
            rf"\frac{{{f.p * (denominator // f.q)}}}{{{denominator}}}" for f in fractions
        ).replace("+ \\frac{-", "- \\frac{")
        steps.append(Step(f"Use the common denominator {denominator}", rewritten))
    answer = format_value(value, problem.uses_decimals)
    shown = to_latex(value, dec) if len(answer) < 60 else answer
    steps.append(Step("Evaluate", f"{to_latex(expr, dec)} = {shown}"))
    if problem.rounding is not None:
        return _rounded(problem.rounding, value, steps, "arithmetic")
    if problem.significant is not None:
        digits, at_most = problem.significant
        try:
            answer = significant_text(value, digits, at_most)
        except ParseError:
            return None
        limit = "at most " if at_most else ""
        steps.append(Step(f"Round to {limit}{digits} significant figures", answer))
        return SymbolicSolution("arithmetic", steps, answer, [{"value": answer}])
    if problem.unit is not None:
        answer = f"{format_value(value, True)} {problem.unit}"
        steps.append(Step(f"Convert to {problem.unit}", answer))
        return SymbolicSolution("arithmetic", steps, answer, [{"value": answer}])
    if problem.form == "simplest":  # "Simplify 6/8": 3/4; "Simplify \\sqrt{18}": 3*sqrt(2)
        steps.append(Step("Write it in simplest form", to_latex(value, dec)))
    elif problem.form is not None:
        formed = in_form(value, problem.form)
        if formed is None:
            return None  # 1/3 as a decimal: 0.333… has no exact decimal
        answer = formed
        steps.append(Step(f"Write it as {_FORM_NAMES[problem.form]}", answer))
    if value.is_Rational and not value.is_Integer and abs(value) > 1 and not problem.uses_decimals:
        whole = int(value.p / value.q)
        rest = abs(value - whole)
        if len(str(rest.q)) < 40:
            steps.append(Step("As a mixed number", rf"{whole}\tfrac{{{rest.p}}}{{{rest.q}}}"))
    return SymbolicSolution("arithmetic", steps, answer, [{"value": answer}])


_FORM_NAMES = {
    "prime_factors": "a product of primes",
    "percent_number": "a percent",
    "percent": "a percent",
    "decimal": "a decimal",
    "fraction": "a fraction in lowest terms",
}


def in_form(value: sp.Expr, form: str) -> str | None:
    """The exact value written in the asked form, or None when that form cannot hold it."""
    if not value.is_Rational:
        return None
    if form == "prime_factors":  # 12: 2 × 2 × 3; a prime is its own factorization
        if not (value.is_Integer and value >= 2):
            return None
        factors = sp.factorint(int(value))
        return " × ".join(str(p) for p in sorted(factors) for _ in range(factors[p]))
    if form == "fraction":
        return format_value(value)
    shown = value * 100 if form == "percent" else value
    if not terminating_decimal(shown):
        # 1/3 as a decimal: 0.333..., read back exactly as the same fraction, or no answer
        written = repeating_decimal_text(value) if form == "decimal" else None
        read_back = read_repeating(written) if written is not None else None
        if read_back is None or sp.Rational(read_back.numerator, read_back.denominator) != value:
            return None
        return written
    text = decimal_string(shown) if not shown.is_Integer else str(int(shown))
    return f"{text}%" if form in ("percent", "percent_number") else text


def _solve_membership(problem: MathProblem) -> SymbolicSolution | None:
    assert problem.expression is not None
    (x,) = problem.variables
    holds = satisfies(problem, {x: evaluate(problem.expression)})
    if holds is None:
        return None
    (equation,) = problem.equations if len(problem.equations) == 1 else (None,)
    if equation is None:
        return None
    steps = [
        Step("Substitute", f"{x} = {sp.latex(problem.expression)}"),
        Step("Both sides are equal" if holds else "The two sides differ", to_latex(equation)),
    ]
    answer = "yes" if holds else "no"
    return SymbolicSolution("membership", steps, answer, [{"value": answer}])


def _solve_claim(problem: MathProblem) -> SymbolicSolution:
    claim = problem.claim
    assert claim is not None
    shown = f"{to_latex(claim.left)} {_RELATION_LATEX[claim.relation]} {to_latex(claim.right)}"
    steps = [
        Step("Work out both sides", shown),
        Step("The claim holds" if claim.holds else "The claim does not hold", None),
    ]
    return SymbolicSolution("claim", steps, claim.answer, [{"value": claim.answer}])


def _solve_remainder(problem: MathProblem) -> SymbolicSolution:
    division = problem.division
    assert division is not None
    (quotient, remainder), divisor = division.answer, division.divisor
    left = division.dividend - divisor * quotient
    steps = [
        Step(
            f"{divisor} goes into {division.dividend} {quotient} times",
            rf"{divisor} \times {quotient} = {divisor * quotient}",
        ),
        Step(
            "What is left is the remainder", f"{division.dividend} - {divisor * quotient} = {left}"
        ),
    ]
    if not division.both:
        answer = str(remainder)
    elif re.search(r"[\u4e00-\u9fff…]|\.\.\.", problem.source):  # 17÷5=□……□: Chinese style
        answer = f"{quotient} 余 {remainder}"
    else:
        answer = f"{quotient} R {remainder}"
    return SymbolicSolution("remainder", steps, answer, [{"value": answer}])


def _solve_congruence(problem: MathProblem) -> SymbolicSolution:
    c = problem.congruence
    assert c is not None
    g = math.gcd(c.a, c.m)
    a, b, m = c.a // g, c.b // g, c.m // g
    steps = []
    if c.shift:
        steps.append(
            Step(f"Subtract {c.shift} from both sides", rf"{c.a}x \equiv {c.b} \pmod{{{c.m}}}")
        )
    if g > 1:
        steps.append(Step(f"Divide through by {g}", rf"{a}x \equiv {b} \pmod{{{m}}}"))
    if m > 1:
        inverse = pow(a, -1, m)
        product = a * inverse
        steps.append(
            Step(
                f"The inverse of {a} modulo {m} is {inverse}",
                rf"{a} \times {inverse} = {product} = {product // m} \times {m} + 1",
            )
        )
        if not c.inverse:
            steps.append(
                Step(
                    f"Multiply both sides by {inverse}",
                    rf"x \equiv {b} \times {inverse} = {b * inverse} \equiv {b * inverse % m}"
                    rf" \pmod{{{m}}}",
                )
            )
    asked = "the smallest positive one" if c.smallest_positive else f"the one from 0 to {c.m - 1}"
    steps.append(Step(f"The solution asked: {asked}", str(c.answer)))
    answer = str(c.answer)
    return SymbolicSolution("congruence", steps, answer, [{"value": answer}])


_RELATION_LATEX = {"=": "=", "≠": r"\ne", "<": "<", ">": ">", "≤": r"\le", "≥": r"\ge"}

_PROPERTY_STEPS = {
    "digits": "Count its digits",
    "digit_sum": "Add its digits",
    "units_digit": "Read its units digit",
    "factor_count": "Count its positive factors (from its prime factorization)",
    "decimal_places": "Count the decimal places: the factors' places add up to the product's",
}


def _solve_property(problem: MathProblem) -> SymbolicSolution | None:
    """How many digits, the digit sum, how many decimal places: counted when read."""
    assert problem.expression is not None and problem.asked is not None
    if problem.count is None:
        return None
    dec = problem.uses_decimals
    value = evaluate(problem.expression)
    steps = [
        Step("Evaluate", f"{to_latex(problem.expression, dec)} = {to_latex(value, dec)}"),
        Step(_PROPERTY_STEPS[problem.asked], str(problem.count)),
    ]
    answer = str(problem.count)
    return SymbolicSolution("property", steps, answer, [{"value": answer}])


def comparison_answer(problem: MathProblem) -> tuple[str, str]:
    """(the operand asked for as written, the two written in order with < or >)."""
    (first, a), (second, b) = problem.operands
    larger_first = bool((a - b).is_positive)
    bigger, smaller = (first, second) if larger_first else (second, first)
    chosen = bigger if problem.target.kind == "max" else smaller
    return chosen, f"{first} {'>' if larger_first else '<'} {second}"


def _solve_comparison(problem: MathProblem) -> SymbolicSolution | None:
    chosen, relation = comparison_answer(problem)
    steps = [
        Step(
            "Compare the values",
            ", ".join(f"{w} = {to_latex(v, '.' in w)}" for w, v in problem.operands),
        ),
        Step("Order them", relation),
    ]
    answer = relation if problem.form == "relation" else chosen
    return SymbolicSolution("comparison", steps, answer, [{"value": answer}])


def _solve_expression(problem: MathProblem) -> SymbolicSolution | None:
    assert problem.expression is not None and problem.form is not None
    answer = expected_form(problem.expression, problem.form)
    if answer is None:
        return None
    steps = [
        Step("Write the expression", to_latex(problem.expression)),
        Step(problem.form.capitalize(), sp.latex(answer)),
    ]
    text = show_expression(answer)
    return SymbolicSolution("expression", steps, text, [{"value": text}])


def _solve_inequality(problem: MathProblem) -> SymbolicSolution | None:
    (x,) = problem.variables
    found = solution_set(problem.conditions, x)
    if found is None:
        return None
    answer = format_set(found, x)
    steps = [
        Step("Write the inequality", "; ".join(c.text.strip() for c in problem.conditions)),
        Step("Solve for the set of real values", sp.latex(found)),
        Step("Answer", answer),
    ]
    return SymbolicSolution("inequality", steps, answer, [{"value": answer}])


def _fraction_terms(expr: sp.Expr) -> list[sp.Rational] | None:
    """The terms of a sum of plain fractions (3/4 + 5/6), else None."""
    if not isinstance(expr, sp.Add):
        return None
    terms = [evaluate(t) for t in sp.Add.make_args(expr)]
    if not all(t.is_Rational for t in terms) or all(t.is_Integer for t in terms):
        return None
    return terms


def _solve_equations(problem: MathProblem) -> SymbolicSolution | None:
    solutions = solve_problem_set(problem)
    if solutions is None:
        return None
    dec = problem.uses_decimals
    steps = [
        Step(
            "Write the equation" + ("s" if len(problem.equations) > 1 else ""),
            r" \\ ".join(to_latex(eq, dec) for eq in problem.equations),
        )
    ]
    if problem.conditions:
        steps.append(Step("Conditions: " + "; ".join(c.text.strip() for c in problem.conditions)))
    if problem.target.kind != "solutions":
        return _answer_target(problem, solutions, steps)
    variables = problem.variables
    if solutions.kind == "all":
        steps.append(Step("Both sides are equal for every x: infinitely many solutions"))
        return SymbolicSolution("equations", steps, ALL_REALS, [])
    steps += _method_steps(problem)
    if not solutions.assignments:
        answer = NO_REAL_SOLUTION if solutions.complex_only else NO_SOLUTION
        steps.append(Step(f"There is {answer}"))
        return SymbolicSolution("equations", steps, answer, [])
    ordered = sorted(solutions.assignments, key=lambda s: [sp.N(s[v]) for v in variables])
    places = problem.rounding

    def shown(value: sp.Expr) -> str:
        return format_value(value, dec) if places is None else rounded_text(value, places)

    formatted = [{v.name: shown(s[v]) for v in variables} for s in ordered]
    steps.append(Step("Answer", _answer_latex(ordered, variables)))
    return SymbolicSolution("equations", steps, _answer_text(formatted, variables), formatted)


def _answer_target(
    problem: MathProblem, solutions: SolutionSet, steps: list[Step]
) -> SymbolicSolution | None:
    values = target_values(problem, solutions)
    if values is None:
        return None
    (value,) = values
    target = problem.target
    if solutions.assignments:
        steps.append(Step("Solve", _answer_latex(list(solutions.assignments), problem.variables)))
    asked = {
        "value": "Evaluate",
        "max": "Take the greatest value",
        "min": "Take the least value",
        "sum": "Add the solutions",
        "product": "Multiply the solutions",
        "count": "Count the solutions",
    }[target.kind]
    shown = f"{sp.latex(target.expression)} = " if target.expression is not None else ""
    steps.append(Step(asked, f"{shown}{sp.latex(value)}"))
    if problem.rounding is not None:
        return _rounded(problem.rounding, value, steps, "equations")
    answer = format_value(value, problem.uses_decimals)
    return SymbolicSolution("equations", steps, answer, [{"value": answer}])


def _rounded(places: int, value: sp.Expr, steps: list[Step], kind: str) -> SymbolicSolution:
    answer = rounded_text(value, places)
    to = {-1: "the nearest ten", -2: "the nearest hundred", -3: "the nearest thousand"}.get(
        places, f"{places} decimal place{'s' if places != 1 else ''}"
    )
    steps.append(Step(f"Round to {to}", answer))
    return SymbolicSolution(kind, steps, answer, [{"value": answer}])


def _method_steps(problem: MathProblem) -> list[Step]:
    if len(problem.equations) > 1:
        return [Step("Solve the system by elimination")]
    x = problem.variables[0]
    expr = sp.expand(evaluate(problem.equations[0].lhs) - evaluate(problem.equations[0].rhs))
    if expr.has(sp.factorial):
        return [
            Step(
                f"{x}! is defined for whole numbers: try {x} = 0, 1, 2, …", f"{sp.latex(expr)} = 0"
            )
        ]
    try:
        poly = sp.Poly(expr, x)
    except sp.PolynomialError:
        return [Step("Solve over the real numbers", f"{sp.latex(expr)} = 0")]
    if poly.degree() == 1:
        a, b = poly.all_coeffs()
        return [
            Step("Move every term to one side", f"{sp.latex(expr)} = 0"),
            Step(f"Isolate {x}", f"{sp.latex(a * x)} = {sp.latex(-b)}"),
            Step(f"Divide both sides by {sp.latex(a)}", f"{x} = {sp.latex(-b / a)}"),
        ]
    if poly.degree() != 2:
        return [Step("Write it in standard form", f"{sp.latex(expr)} = 0")]
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


def _answer_latex(solutions: list[dict[sp.Symbol, sp.Expr]], variables: list[sp.Symbol]) -> str:
    return r" \text{ or } ".join(
        ", ".join(f"{v.name} = {sp.latex(s[v])}" for v in variables) for s in solutions
    )


def _answer_text(solutions: list[dict[str, str]], variables: list[sp.Symbol]) -> str:
    if len(variables) == 1:
        name = variables[0].name
        return " or ".join(f"{name} = {s[name]}" for s in solutions)
    return " or ".join(", ".join(f"{k} = {v}" for k, v in s.items()) for s in solutions)
