"""Check a candidate answer against the problem: substitution, exact evaluation, equivalence.

Pure functions that run inside the sandbox processes (app.symbolic.sandbox). Every result is
"approve", "reject" or "abstain". The problem is read twice (two parsers that must agree); the
candidate is substituted into every equation and condition as written, and compared with the
answer to the question asked, computed from the verified solution set. It is never compared
with the solver's answer text. Approve and reject both need certainty: a candidate that cannot
be read, or a disagreement between the checks, is an abstention.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache

import sympy as sp

from app.symbolic.answers import Candidate, clean, parse_value, read_candidate
from app.symbolic.crosscheck import same_value
from app.symbolic.ellipsis import ellipsis_verdict
from app.symbolic.evaluation import evaluate, format_value, is_plain_number, terminating_decimal
from app.symbolic.normalize import ParseError
from app.symbolic.problem import MathProblem, extract_problem
from app.symbolic.solutionset import SolutionSet, satisfies, solve_problem_set, target_values
from app.symbolic.solver import solve_problem

# math-verify warns on every call that we disabled its signal-based timeout; we bound time with
# the sandbox instead, so the warning is noise.
logging.getLogger("math_verify").setLevel(logging.ERROR)

MIN_ROUNDED_DECIMALS = 2  # 0.67 for 2/3: two places, two significant digits
MIN_SIGNIFICANT_DIGITS = 3  # 333.3 for 1000/3: one place, but four significant digits
_DEGREES = re.compile(r"°|\\circ|\bdeg(?:rees?)?\b|度", re.IGNORECASE)
_ERRORS = (ParseError, TypeError, ValueError, ZeroDivisionError, RecursionError)


@dataclass(slots=True)
class CheckResult:
    verdict: str  # approve | reject | abstain
    method: str  # substitution | evaluation | equivalence | none
    detail: str
    expected: str | None = None

    @property
    def score(self) -> float | None:
        return {"approve": 1.0, "reject": 0.0}.get(self.verdict)


def close_enough(candidate: sp.Expr, exact: sp.Expr, candidate_text: str) -> bool:
    """Exact equality, or a decimal that is the exact value correctly rounded.

    1.58 for 19/12, 0.67 or .67 for 2/3 and 333.3 for 1000/3 pass; 1.59 does not, nor 1.6 or
    0.01 for 1/199 (too coarse: three significant digits, or two with two places); and a
    terminating value (4, 0.25) must be written exactly: 4.01 is wrong, not "close".
    """
    if same_value(candidate, exact):
        return True
    decimals = re.findall(r"(\d*)\.(\d+)", candidate_text)
    if not decimals or (exact.is_Rational and terminating_decimal(exact)):
        return False
    if not candidate.is_Rational or not exact.is_real:
        return False
    places = max(len(fraction) for _, fraction in decimals)
    digits = max(len((whole + fraction).lstrip("0")) for whole, fraction in decimals)
    enough = digits >= MIN_SIGNIFICANT_DIGITS or (
        places >= MIN_ROUNDED_DECIMALS and digits >= MIN_ROUNDED_DECIMALS
    )
    return enough and bool(sp.N(candidate, 50).round(places) == sp.N(exact, 50).round(places))


@lru_cache(maxsize=256)
def _read(problem_text: str) -> tuple[MathProblem | None, SolutionSet | None, str | None]:
    problem = extract_problem(problem_text)
    if problem is None:
        return None, None, None
    solution = solve_problem(problem)
    expected = solution.final_answer if solution else None
    truth = solve_problem_set(problem) if problem.kind == "equations" else None
    return problem, truth, expected


def check_answer(problem_text: str, candidate: str) -> CheckResult:
    problem, truth, expected = _read(problem_text)
    if problem is None:
        return CheckResult("abstain", "none", "the problem is not one the symbolic checker reads")
    if not candidate or not candidate.strip():
        return CheckResult("reject", "none", "empty answer", expected)
    if _DEGREES.search(candidate) and not _DEGREES.search(problem_text):
        return CheckResult("abstain", "none", "an angle given for a problem without one", expected)
    # A unit may follow a number only when the problem uses that word ("72 clips").
    units = _units(problem_text)
    try:
        if problem.kind == "arithmetic":
            assert problem.expression is not None
            exact = evaluate(problem.expression)
            if not is_plain_number(exact if exact.is_Rational else sp.simplify(exact)):
                return CheckResult("abstain", "none", "the value is not a plain number", expected)
            return _check_value(exact, candidate, expected, None, units)
        if truth is None:
            return CheckResult("abstain", "none", "the solution set is not certain", expected)
        if problem.target.kind != "solutions":
            values = target_values(problem, truth)
            if values is None:
                return CheckResult("abstain", "none", "the question has no single answer", expected)
            target = problem.target.expression
            return _check_value(values[0], candidate, expected, target, units)
        return _check_solutions(problem, truth, candidate, expected, units)
    except _ERRORS:
        pass
    # LaTeX our reader does not know (\dfrac{}, \tfrac{}...): math-verify may approve a single
    # value, never reject, and never judge lists, tuples or intervals, whose reading is open.
    single = expected is not None and not re.search(r",| or |=|no |all ", expected)
    if single and expected and "\\" in candidate and math_verify_equivalent(expected, candidate):
        return CheckResult("approve", "equivalence", "equal to the exact answer", expected)
    return CheckResult("abstain", "none", "the answer could not be read with certainty", expected)


def _check_value(
    exact: sp.Expr,
    candidate: str,
    expected: str | None,
    target: sp.Expr | None,
    units: frozenset[str],
) -> CheckResult:
    claim = ellipsis_verdict(exact, candidate)
    if claim is not None:
        verdict = "approve" if claim else "reject"
        return CheckResult(verdict, "evaluation", "the decimal expansion's digits", expected)
    cleaned = clean(candidate)
    if "=" in cleaned:
        left, _, right = cleaned.rpartition("=")
        left = left.split(",")[-1].strip()
        if left and target is None:
            raise ParseError("an assignment where a value is asked")
        if left and target is not None:
            from app.symbolic.crosscheck import second_reading

            if not same_value(second_reading(left), evaluate(target)):
                raise ParseError("the answer names a different expression")
        cleaned = right.strip()
    value = parse_value(cleaned, units)
    if close_enough(value, exact, cleaned):
        return CheckResult("approve", "evaluation", "the answer equals the exact value", expected)
    return CheckResult(
        "reject", "evaluation", f"the exact value is {format_value(exact)}", expected
    )


def _check_solutions(
    problem: MathProblem,
    truth: SolutionSet,
    candidate: str,
    expected: str | None,
    units: frozenset[str],
) -> CheckResult:
    names = [v.name for v in problem.variables]
    read = read_candidate(candidate, names, units)
    if read.kind == "all":
        verdict = "approve" if truth.kind == "all" else "reject"
        return CheckResult(
            verdict, "evaluation", "whether every real number is a solution", expected
        )
    if truth.kind == "all":
        if read.kind == "none":
            return CheckResult("reject", "evaluation", "every real number is a solution", expected)
        return CheckResult("reject", "evaluation", "infinitely many solutions", expected)
    if read.kind == "none":
        verdict = "approve" if not truth.assignments else "reject"
        return CheckResult(verdict, "evaluation", "whether any real solution exists", expected)
    proposals = _as_assignments(read, problem, candidate)
    if _has_duplicates(proposals):
        return CheckResult("abstain", "none", "a solution is listed twice", expected)
    for proposal in proposals:
        holds = _holds(problem, proposal, read.text)
        if holds is None:
            return CheckResult("abstain", "none", "substitution could not decide", expected)
        if holds is False:
            return CheckResult("reject", "substitution", _failure(problem, proposal), expected)
    if not truth.assignments:
        return CheckResult("abstain", "none", "the checks disagree", expected)
    for solution in truth.assignments:
        if not any(
            all(close_enough(p[v], solution[v], read.text) for v in problem.variables)
            for p in proposals
        ):
            return CheckResult("reject", "substitution", "a solution is missing", expected)
    return CheckResult("approve", "substitution", "every equation and condition holds", expected)


def _has_duplicates(proposals: list[dict[sp.Symbol, sp.Expr]]) -> bool:
    """'2, 2, 3' for x² - 5x + 6 = 0: a typo, or a claim about multiplicity? Do not judge."""
    return any(
        set(a) == set(b) and all(same_value(a[v], b[v]) for v in a)
        for i, a in enumerate(proposals)
        for b in proposals[i + 1 :]
    )


def _failure(problem: MathProblem, proposal: dict[sp.Symbol, sp.Expr]) -> str:
    """Which equation or condition the proposal breaks, for the caution message."""
    if set(proposal) != set(problem.variables):
        return "not every variable has a value"
    for eq in problem.equations:
        try:
            lhs = evaluate(eq.lhs.xreplace(proposal))
            rhs = evaluate(eq.rhs.xreplace(proposal))
        except _ERRORS:
            continue
        if not same_value(lhs, rhs):
            return f"substituting gives {sp.sstr(lhs)} ≠ {sp.sstr(rhs)}"
    return "a condition of the problem does not hold"


def _as_assignments(
    read: Candidate, problem: MathProblem, original: str
) -> list[dict[sp.Symbol, sp.Expr]]:
    variables = problem.variables
    if read.kind == "assignments":
        by_name = {v.name: v for v in variables}
        out = []
        for a in read.assignments:
            if set(a) != set(by_name):
                raise_incomplete = len(variables) > 1 and set(a) < set(by_name)
                if raise_incomplete:
                    return [{by_name[k]: v for k, v in a.items()}]  # rejected below
                raise ParseError("assignment does not match the variables")
            out.append({by_name[k]: v for k, v in a.items()})
        return out
    values = list(read.values)
    if len(variables) == 1:
        if read.tuple_form and "{" not in original:
            raise ParseError("(a, b) for one unknown: a list or an interval?")
        return [{variables[0]: v} for v in values]
    if len(values) != len(variables) or "{" in original:
        raise ParseError("cannot match the answer to the variables (a set has no order)")
    alphabetical = sorted(variables, key=lambda s: s.name)
    if alphabetical != variables:
        raise ParseError("a tuple whose order is ambiguous")
    return [dict(zip(variables, values, strict=True))]


def _holds(problem: MathProblem, proposal: dict[sp.Symbol, sp.Expr], text: str) -> bool | None:
    if set(proposal) != set(problem.variables):
        return False  # a variable has no value: incomplete
    exact = satisfies(problem, proposal)
    if exact is not False or len(problem.variables) != 1:
        return exact
    truth = solve_problem_set(problem)  # a rounded root (1.414 for √2) is the root, rounded
    if truth is None:
        return None
    (x,) = problem.variables
    return any(close_enough(proposal[x], s[x], text) for s in truth.assignments) or False


def answers_equivalent(a: str, b: str, problem: str | None = None) -> bool | None:
    """Are two final answers the same value? None when the strict reader cannot read both.

    The same reader as the checker: a currency sign, and a trailing unit the problem itself
    uses, may go; "990k", "990 thousand", "not 990", "990 per day" are not read. math-verify is
    asked only about plain LaTeX numbers (\\dfrac{1}{2}), never about words or suffixes."""
    units = _units(problem) if problem else frozenset()
    # "x = 4" and "4" are the same answer when one variable is named (on either side).
    names = sorted(set(re.findall(r"(?<![a-zA-Z])([a-zA-Z])\s*=", f"{a} ; {b}")))
    try:
        va = _values_of(read_candidate(a, names, units), names)
        vb = _values_of(read_candidate(b, names, units), names)
        if va is not None and vb is not None and len(va) == len(vb) == 1:
            return same_value(va[0], vb[0])
        if va is not None and vb is not None:
            return _same_set(va, vb)
    except _ERRORS:
        pass
    if _plain_latex(a) and _plain_latex(b):
        return math_verify_equivalent(a, b)
    return None


def _values_of(candidate: Candidate, names: list[str]) -> tuple[sp.Expr, ...] | None:
    """The values of a candidate: its plain values, or those of one named variable."""
    if candidate.kind == "values":
        return candidate.values
    if candidate.kind == "assignments" and len(names) == 1:
        return tuple(solution[names[0]] for solution in candidate.assignments)
    return None


def _units(problem_text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in re.findall(r"[^\W\d_]{2,}", problem_text))


def _plain_latex(text: str) -> bool:
    return not re.search(r"[^0-9{}()+\-*/^., $\\]", re.sub(r"\\[a-zA-Z]+", "", text))


def _same_set(a: tuple[sp.Expr, ...], b: tuple[sp.Expr, ...]) -> bool:
    return all(any(same_value(x, y) for y in b) for x in a) and all(
        any(same_value(x, y) for x in a) for y in b
    )


def math_verify_equivalent(gold: str, candidate: str) -> bool | None:
    from math_verify import parse, verify  # heavy import, only inside the sandbox

    try:
        gold_parsed = parse(gold, parsing_timeout=None)
        candidate_parsed = parse(candidate, parsing_timeout=None)
    except Exception:
        return None
    if not gold_parsed or not candidate_parsed:
        return None
    return bool(verify(gold_parsed, candidate_parsed, timeout_seconds=None))
