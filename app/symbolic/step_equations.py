"""Lines of an algebraic derivation must keep the solutions of the equation being solved.

A step that is one equation in one unknown (`2x + 3 = 11`, `2x = 8`, `x = 4`) is solved
exactly (polynomials with rational coefficients, real roots). Sound first, so a line is
`wrong` only when none of its solutions is a solution of the problem's equation (or of the
derivation's first line) nor of the line before it: `2x = 8` then `x = 5`. A line that keeps
some roots and drops others may be a case split ((x-2)(x-3) = 0, then x - 2 = 0), and one
that gains roots may be a squaring the student checks later: neither is flagged. A line
with decimals may hold a rounded root (x = 3.33 for 10/3): within its last place of a
solution it is never wrong. After a solved line (x = 4) an equation sharing none of its
solutions starts something new (part (b), or x reused for another quantity: x = 2 × 8), so
it is not judged against the old derivation; after one with an operation left (x = 8/2),
the next line is its result and is judged (x = 3 is wrong). Pure functions (sandboxed).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

import sympy as sp

from app.symbolic.normalize import READ_ERRORS as VALUE_READ_ERRORS
from app.symbolic.normalize import ParseError
from app.symbolic.parsing import parse_expression
from app.symbolic.problem import extract_problem
from app.symbolic.step_text import to_plain

MAX_DEGREE = 4
# Words that open a derivation line: "so", "then", "Step 2:", 所以, 移项得 (moving terms),
# 合并同类项得 (collecting like terms), 系数化为1得 (dividing by the coefficient), 第二步,
# 两边同时除以3，得 (dividing both sides by 3).
_LEAD = re.compile(
    r"^\s*(?:(?:so|then|thus|hence|therefore|now|and|we get|gives|solve|solving)\b[:,]?|"
    r"step\s*\d+\s*[:.)]|第[一二三四五六七八九十\d]+步[:：]?|"
    r"(?:移项|合并同类项|合并|系数化为1|去括号|去分母|化简|整理)得?[:：]?|"
    r"两边同?时?(?:除以|乘以?|加上?|减去?)[^，,得=]{1,8}[，,]?\s*得?[:：]?|"
    r"[⇒;:]|所以|因此|得|解[:：]?|即)\s*",
    re.IGNORECASE,
)
_EQUATION = re.compile(r"^[0-9a-z+\-*/^(). ]+(?:=[0-9a-z+\-*/^(). ]+)+$")
_SQRT = "sqrt"
_DECIMAL = re.compile(r"\d\.(\d+)")
_REPEATING = re.compile(r"\d\.{2,}|…|⋯|⟂")  # 0.333..., 0.3̅ (\overline)
LOST_ROOT = "it loses a solution"
# What reading a line may raise: the line is then not read.
READ_ERRORS = (*VALUE_READ_ERRORS, sp.PolynomialError)


@dataclass(frozen=True, slots=True)
class Equation:
    text: str
    variable: sp.Symbol
    roots: frozenset[sp.Expr]  # distinct real roots
    factored: bool = False  # a product = 0: the next lines may take one factor at a time
    all_solutions: bool = False  # the problem asks for every solution (no max, no condition)
    solved: bool = False  # the unknown alone on one side, a number on the other: x = 4
    pending: bool = False  # solved, with an operation left to carry out: x = 8/2, x = 15 ÷ 3
    places: int | None = None  # the most decimal places of a number in it (None: no decimal)
    residual: sp.Expr | None = None  # lhs - rhs, for its non-real roots where they are asked

    def nonreal(self) -> frozenset[sp.Expr] | None:
        """Its distinct non-real roots (None: not had): x² + 2x + 5 = 0 and (x + 1)² = -5 have
        the same (empty) set of real solutions, not the same equation ((x + 1)² = -4 is).
        Computed only for a line without real roots, and its neighbours."""
        return None if self.residual is None else _nonreal_roots(self.residual, self.variable)

    def same_solutions(self, other: Equation) -> bool:
        if self.roots != other.roots:
            return False
        if self.roots:
            return True
        mine = self.nonreal()
        return mine is not None and mine == other.nonreal()

    def shares_no_root(self, others: list[Equation]) -> bool:
        """No root, real or not, in common with any of `others`: a line with real roots is
        judged by those; one without, by its complex ones."""
        if self.roots:
            return all(not (self.roots & e.roots) for e in others)
        mine = self.nonreal()
        if not mine:
            return False
        theirs = [e.nonreal() for e in others]
        return all(t is not None and not (mine & t) for t in theirs)

    def rounds_to(self, roots: frozenset[sp.Expr]) -> bool:
        """Could every root of this line be one of `roots` rounded or cut to its places?"""
        if self.places is None or not self.roots or not roots:
            return False
        slack = sp.Rational(1, 10**self.places)
        return all(any(abs(sp.N(r - s, 30)) <= slack for s in roots) for r in self.roots)


def _is_factored(left: sp.Expr, right: sp.Expr) -> bool:
    return (isinstance(left, sp.Mul) and right == 0) or (isinstance(right, sp.Mul) and left == 0)


@dataclass(frozen=True, slots=True)
class LineVerdict:
    verdict: str  # ok | wrong | unchecked
    equation: str
    why: str


def _polynomial_roots(residual: sp.Expr, x: sp.Symbol) -> frozenset[sp.Expr] | None:
    # (x + 1)^1000 is refused before it is expanded
    if any(p.exp.is_Number and abs(p.exp) > MAX_DEGREE for p in residual.atoms(sp.Pow)):
        return None
    poly = sp.Poly(sp.expand(residual), x)
    if poly.is_zero or poly.degree() < 1 or poly.degree() > MAX_DEGREE:
        return None  # an identity, a contradiction or too high a degree: not judged
    if poly.get_domain() not in (sp.ZZ, sp.QQ):
        return None
    return frozenset(sp.Poly(poly, x).real_roots())


def polynomial_unknown(residual: sp.Expr) -> sp.Symbol | None:
    """The one unknown `residual` (a line's lhs − rhs) is a polynomial in, else None."""
    symbols = residual.free_symbols
    if len(symbols) != 1:
        return None
    (x,) = symbols
    return x if isinstance(x, sp.Symbol) and residual.is_polynomial(x) else None


def strip_lead(plain: str) -> str:
    """The line without the words that open it ("so", "Step 2:", 移项得, 两边同时除以3，得)."""
    while True:
        stripped = _LEAD.sub("", plain, count=1)
        if stripped == plain:
            return plain
        plain = stripped


# An equation's number written after it: "2x = 8 (2)", "3x = −12（2）", "x = 4 ③".
_LABEL_AFTER = re.compile(r"(\s+\(\s*\d{1,2}\s*\)|\s*（\s*\d{1,2}\s*）|\s*[①-⑳])\s*[.。]?\s*$")
# A closing bracket that may be a note or a factor: "x = 3(2)", "2x = 8 (+3)", "x = 4 (÷2)".
_NOTE_OR_FACTOR = re.compile(r"(?:[\w)]\(\s*\d{1,2}\s*\)|\s\([^()]*\)|（[^（）]*）)\s*[.。]?\s*$")


def without_label(text: str) -> str | None:
    """The line without the equation number written after it; None when what closes it is
    a bracket that may be a note on the step or a factor ("2x = 8 (+3)", "x = 3(2)")."""
    unlabelled = _LABEL_AFTER.sub("", text)
    if _NOTE_OR_FACTOR.search(unlabelled):
        return None
    return unlabelled


def read_equation(text: str) -> Equation | None:
    """The step as one polynomial equation in one unknown, or None."""
    unlabelled = without_label(text)
    if unlabelled is None:
        return None
    plain = to_plain(unlabelled).strip()
    if _REPEATING.search(plain):
        return None  # 0.333... is 1/3, not 0.333: x = 0.333..., 10x = 3.333..., 9x = 3
    plain = strip_lead(plain.rstrip(" .,;"))
    if not _EQUATION.match(plain) or _SQRT in plain:
        return None
    try:
        sides = [parse_expression(side) for side in plain.split("=")]
        lhs, rhs = _chain_ends(sides)
        residual = lhs - rhs
        x = polynomial_unknown(residual)
        if x is None:
            return None
        roots = _polynomial_roots(residual, x)
    except READ_ERRORS:
        return None
    if roots is None:
        return None
    solved = (lhs == x and not rhs.free_symbols) or (rhs == x and not lhs.free_symbols)
    parts = plain.split("=")
    value = parts[-1] if lhs == x else parts[0]
    pending = solved and _operation_left(value)
    places = max((len(d) for d in _DECIMAL.findall(plain)), default=None)
    factored = _is_factored(lhs, rhs)
    return Equation(
        plain, x, roots, factored, solved=solved, pending=pending, places=places, residual=residual
    )


@lru_cache(maxsize=256)
def _nonreal_roots(residual: sp.Expr, x: sp.Symbol) -> frozenset[sp.Expr] | None:
    """The distinct non-real roots, exact (None where they cannot be had)."""
    try:
        every = sp.Poly(sp.expand(residual), x).all_roots()
        return frozenset(sp.simplify(r) for r in every if r.is_real is False)
    except (*READ_ERRORS, NotImplementedError):
        return None


_OPERATION = re.compile(r"(?<=[\d).\s])\s*[-+*×÷/^]\s*(?=[\d(.])")
_FRACTION = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


def _operation_left(value: str) -> bool:
    """'8/2', '15 ÷ 3', '2 × 8', '11 - 3': an operation to carry out; '10/3' is a fraction
    in lowest terms (a value), '-4' a negative number."""
    text = value.strip().lstrip("-+").strip()
    fraction = _FRACTION.fullmatch(text)
    if fraction is not None:
        numerator, denominator = int(fraction[1]), int(fraction[2])
        return denominator == 0 or math.gcd(numerator, denominator) != 1
    return _OPERATION.search(text) is not None


def _chain_ends(sides: list[sp.Expr]) -> tuple[sp.Expr, sp.Expr]:
    """The equation a step states: its two sides, or the two ends of a chain whose unknown is
    at one end only ("2x = 11 + 3 = 14" states 2x = 14; its arithmetic link 11 + 3 = 14 is
    the arithmetic check's). Any other chain is not read."""
    if len(sides) == 2:
        return sides[0], sides[1]
    unknown = [i for i, side in enumerate(sides) if side.free_symbols]
    if unknown not in ([0], [len(sides) - 1]):
        raise ParseError("a chain with the unknown in its middle, or on both ends")
    return sides[0], sides[-1]


def problem_equation(problem: str) -> Equation | None:
    """The problem's own equation, when it states exactly one in one unknown, unconditioned."""
    try:
        read = extract_problem(problem)
        if read is None or read.kind != "equations" or read.conditions:
            return None
        if len(read.equations) != 1 or len(read.variables) != 1:
            return None
        (equation,), (x,) = read.equations, read.variables
        # evaluated: Poly refuses the reader's unevaluated (x**2 + 2*x) + 5
        residual = (equation.lhs - equation.rhs).doit()
        if not residual.is_polynomial(x):
            return None
        roots = _polynomial_roots(residual, x)
    except READ_ERRORS:
        return None
    if roots is None:
        return None
    factored = _is_factored(equation.lhs, equation.rhs)
    every = read.target.kind == "solutions"
    return Equation(str(equation), x, roots, factored, every, residual=residual)


def _later_roots(
    lines: list[Equation | None], texts: list[str], x: sp.Symbol
) -> frozenset[sp.Expr]:
    """Every root the lines from here on state: x = 4, then x = -4 lists both solutions, as
    does "also x = 0" or "x = 0 or x = 4" written in words."""
    found: set[sp.Expr] = set()
    for e in lines:
        if e is not None and e.variable == x:
            found |= e.roots
    stated = re.compile(rf"(?<![a-z]){x}\s*=\s*(-?\d+(?:/\d+)?)(?![\d.]*(?:[a-z(]|\s*[-+*/^(]))")
    for text in texts:
        found.update(sp.Rational(n) for n in stated.findall(to_plain(text)))
    return frozenset(found)


def derivation_verdicts(problem: str, steps: list[str]) -> dict[int, LineVerdict]:
    """Verdicts for the steps that are equations in the problem's unknown.

    Without the problem's own equation the first line stands in for it, but it is the
    student's and may be the wrong one (14 - 2k = 64, then a fix, then 2k = 78): a line is
    then flagged only against the step right before it."""
    reference = problem_equation(problem)
    trusted = reference is not None
    previous: Equation | None = None
    previous_index = stand_in = -1
    verdicts: dict[int, LineVerdict] = {}
    lines = [read_equation(step) for step in steps]
    for index, line in enumerate(lines):
        if line is None:
            continue
        if reference is None:
            reference = line  # the derivation's first line stands in for the problem
            previous, previous_index, stand_in = line, index, index
            continue
        if line.variable != reference.variable:
            continue
        same_as = [e for e in (reference, previous) if e is not None]
        before = previous or reference
        adjacent = previous is not None and previous_index == index - 1
        disjoint = line.shares_no_root(same_as)
        if any(line.same_solutions(e) for e in same_as):
            verdicts[index] = LineVerdict("ok", line.text, "same solutions")
        elif disjoint and previous is not None and previous.solved and not previous.pending:
            # x = 4, then 3x - 1 = 5 (part b) or x = 2 × 8 (x reused): a new start, judged
            # from here on only against itself
            verdicts[index] = LineVerdict("unchecked", line.text, "a new equation after a solution")
            reference, trusted = line, False
        elif any(line.rounds_to(e.roots) for e in same_as):
            verdicts[index] = LineVerdict("unchecked", line.text, "a rounded solution")
        elif disjoint and not trusted and previous_index == stand_in and not line.solved:
            # Right after the student's own first line, another equation: a slip, or the fix
            # of a first line that misread the problem (14 - 2k = 64, then 2k = 64 + 14 =
            # 78)? A solution read off it (3x = 12, then x = 3) is a slip.
            verdicts[index] = LineVerdict("unchecked", line.text, "a fix of the first line?")
        elif disjoint and (trusted or adjacent):
            verdicts[index] = LineVerdict(
                "wrong", line.text, "none of its solutions solves the equation before it"
            )
        elif (
            reference.all_solutions
            and before.roots == reference.roots
            and not before.factored
            and line.roots < before.roots
            and not before.roots <= _later_roots(lines[index:], steps[index:], line.variable)
        ):
            # x^2 = 4x, then x = 4: a root lost (divided by x). After a product = 0 the
            # same line is one case of several, so a factored line is never followed here.
            verdicts[index] = LineVerdict("wrong", line.text, LOST_ROOT)
        else:
            verdicts[index] = LineVerdict("unchecked", line.text, "solutions kept only in part")
        previous, previous_index = line, index
    return verdicts
