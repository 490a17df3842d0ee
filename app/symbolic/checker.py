"""Check a candidate answer against the problem: substitution, exact evaluation, equivalence.

Pure functions that run inside the sandbox processes (app.symbolic.sandbox). Every result is
"approve", "reject" or "abstain": abstain means the check could not run (the problem or the
answer is not something we can read), never a silent pass.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import sympy as sp

from app.symbolic.parsing import (
    ParseError,
    expand_mixed_numbers,
    normalize,
    parse_expression,
    terminating_decimal,
)
from app.symbolic.problem import MathProblem, extract_problem
from app.symbolic.solver import format_value, solve_problem

# math-verify warns on every call that we disabled its signal-based timeout; we bound time with
# the sandbox instead, so the warning is noise.
logging.getLogger("math_verify").setLevel(logging.ERROR)

MIN_ROUNDED_DECIMALS = 2


@dataclass(slots=True)
class CheckResult:
    verdict: str  # approve | reject | abstain
    method: str  # substitution | evaluation | equivalence | none
    detail: str
    expected: str | None = None

    @property
    def score(self) -> float | None:
        return {"approve": 1.0, "reject": 0.0}.get(self.verdict)


_ANSWER_PREFIX = re.compile(
    r"^(?:the\s+)?(?:final\s+)?(?:answer|result|solution)s?\s*(?:is|:|=)?\s*|^答案?[:：是为]?\s*",
    re.IGNORECASE,
)
_LIST_SPLIT = re.compile(r"\s*(?:,|;|\bor\b|\band\b|或|和|、)\s*", re.IGNORECASE)
_ASSIGNMENT = re.compile(r"([a-zA-Z])\s*=\s*([^,;=]+?)(?=\s*(?:,|;|\bor\b|\band\b|或|和|$))")
_UNITS = re.compile(r"(?<=\d)\s*[a-zA-Z\u4e00-\u9fff]{2,}\.?$|^\s*(?:\$|¥|￥|€|£)")


_SUBSCRIPT_INDEX = re.compile(r"([a-zA-Z])[₀-₉]+")  # x₁ = 2, x₂ = 3 name roots of one x
_PLUS_MINUS = re.compile(r"(?:([a-zA-Z])\s*=\s*)?±\s*([^,;]+)")


def _expand_plus_minus(match: re.Match[str]) -> str:
    name, value = match.group(1), match.group(2).strip()
    prefix = f"{name} = " if name else ""
    return f"{prefix}{value} or {prefix}-({value})"


def _clean_candidate(text: str) -> str:
    text = _SUBSCRIPT_INDEX.sub(r"\1", text.replace("\\pm", "±"))
    text = _PLUS_MINUS.sub(_expand_plus_minus, normalize(text).strip())
    text = _ANSWER_PREFIX.sub("", text).strip().rstrip(".。")
    text = text.strip("() ") if text.count("(") == 1 and text.startswith("(") else text
    return expand_mixed_numbers(text)


def _parse_value(text: str) -> sp.Expr:
    text = _UNITS.sub("", text.strip()).strip()
    percent = text.endswith("%")
    value = parse_expression(text.rstrip("%").strip()).doit()
    if value.free_symbols:
        raise ParseError("an answer value must be a number")
    return value / 100 if percent else value


def _candidate_solutions(text: str, variables: list[sp.Symbol]) -> list[dict[sp.Symbol, sp.Expr]]:
    """'x = 2 or x = 3', '2, 3', 'x=4, y=3', '(4, 3)' → a list of assignments."""
    cleaned = _clean_candidate(text)
    by_name = {v.name: v for v in variables}
    assignments = _ASSIGNMENT.findall(cleaned)
    if assignments:
        solutions: list[dict[sp.Symbol, sp.Expr]] = [{}]
        for name, value in assignments:
            if name not in by_name:
                raise ParseError(f"unknown variable {name}")
            symbol = by_name[name]
            if symbol in solutions[-1]:
                solutions.append({})
            solutions[-1][symbol] = _parse_value(value)
        return solutions
    values = [_parse_value(v) for v in _LIST_SPLIT.split(cleaned.strip("{}[]")) if v.strip()]
    if len(variables) == 1:
        return [{variables[0]: v} for v in values]
    if len(values) == len(variables):
        return [dict(zip(variables, values, strict=True))]
    raise ParseError("cannot match the answer to the variables")


def _close_enough(candidate: sp.Expr, exact: sp.Expr, candidate_text: str) -> bool:
    """Exact equality, or a decimal that is the exact value correctly rounded.

    1.58 for 19/12 passes (two decimals, correctly rounded), 1.59 and 1.5 do not, and a
    terminating value (4, 0.25) must be written exactly: 4.01 is wrong, not "close".
    """
    if sp.simplify(candidate - exact) == 0:
        return True
    decimals = re.findall(r"\d\.(\d+)", candidate_text)
    if not decimals or (exact.is_Rational and terminating_decimal(exact)):
        return False
    places = max(len(d) for d in decimals)
    if places < MIN_ROUNDED_DECIMALS:
        return False
    return sp.N(candidate, 30).round(places) == sp.N(exact, 30).round(places)


def check_answer(problem_text: str, candidate: str) -> CheckResult:
    problem = extract_problem(problem_text)
    if problem is None:
        return CheckResult("abstain", "none", "the problem is not one the symbolic checker reads")
    solution = solve_problem(problem)
    expected = solution.final_answer if solution else None
    if not candidate or not candidate.strip():
        return CheckResult("reject", "none", "empty answer", expected)
    try:
        if problem.kind == "arithmetic":
            return _check_arithmetic(problem, candidate, expected)
        return _check_equations(problem, candidate, expected)
    except (ParseError, TypeError, ValueError, ZeroDivisionError):
        pass
    if expected is not None:  # the answer is written in a way our parser does not read
        same = math_verify_equivalent(expected, candidate)
        if same is not None:
            verdict = "approve" if same else "reject"
            return CheckResult(verdict, "equivalence", "compared with math-verify", expected)
    return CheckResult("abstain", "none", "the answer could not be read", expected)


def _check_arithmetic(problem: MathProblem, candidate: str, expected: str | None) -> CheckResult:
    assert problem.expression is not None
    exact = problem.expression.doit()
    cleaned = _clean_candidate(candidate)
    value = _parse_value(cleaned.split("=")[-1])
    if _close_enough(value, exact, cleaned):
        return CheckResult("approve", "evaluation", "the answer equals the exact value", expected)
    return CheckResult(
        "reject", "evaluation", f"the expression evaluates to {format_value(exact)}", expected
    )


def _check_equations(problem: MathProblem, candidate: str, expected: str | None) -> CheckResult:
    if expected == "no real solution":
        says_none = re.search(r"no\s+(real\s+)?solution|无(实数)?解|∅|empty", candidate, re.I)
        verdict = "approve" if says_none else "reject"
        return CheckResult(verdict, "evaluation", "the equation has no real solution", expected)
    proposed = _candidate_solutions(candidate, problem.variables)
    cleaned = _clean_candidate(candidate)
    for assignment in proposed:
        if set(assignment) != set(problem.variables):
            return CheckResult("reject", "substitution", "not every variable has a value", expected)
        for eq in problem.equations:
            residual = (eq.lhs - eq.rhs).doit().subs(assignment)
            if sp.simplify(residual) != 0 and not _satisfies_rounded(eq, assignment, cleaned):
                return CheckResult(
                    "reject",
                    "substitution",
                    f"substituting gives {sp.sstr(eq.lhs.doit().subs(assignment))} ≠ "
                    f"{sp.sstr(eq.rhs.doit().subs(assignment))}",
                    expected,
                )
    true_count = len(
        sp.solve([eq.lhs - eq.rhs for eq in problem.equations], problem.variables, dict=True)
    )
    distinct = {tuple(sorted((k.name, sp.nsimplify(v)) for k, v in a.items())) for a in proposed}
    if len(distinct) < true_count:
        return CheckResult("reject", "substitution", "a solution is missing", expected)
    return CheckResult("approve", "substitution", "every equation holds", expected)


def _satisfies_rounded(eq: sp.Eq, assignment: dict, candidate_text: str) -> bool:
    """A rounded decimal root (1.414 for √2) is accepted when it is the true root rounded."""
    (x,) = assignment if len(assignment) == 1 else (None,)
    if x is None:
        return False
    roots = sp.solve(eq.lhs.doit() - eq.rhs.doit(), x)
    return any(_close_enough(assignment[x], r, candidate_text) for r in roots if r.is_real)


def answers_equivalent(a: str, b: str) -> bool | None:
    """Are two final answers the same value? None when neither parser can read them."""
    try:
        va = _parse_value(_clean_candidate(a).split("=")[-1])
        vb = _parse_value(_clean_candidate(b).split("=")[-1])
        return bool(sp.simplify(va - vb) == 0)
    except (ParseError, TypeError, ValueError, ZeroDivisionError):
        return math_verify_equivalent(a, b)


def math_verify_equivalent(gold: str, candidate: str) -> bool | None:
    from math_verify import parse, verify  # heavy import, only inside the sandbox

    gold_parsed = parse(gold, parsing_timeout=None)
    candidate_parsed = parse(candidate, parsing_timeout=None)
    if not gold_parsed or not candidate_parsed:
        return None
    return bool(verify(gold_parsed, candidate_parsed, timeout_seconds=None))
