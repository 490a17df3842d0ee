"""Problem families with known answers, rendered plain, LaTeX, full-width and Chinese."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st


@dataclass(frozen=True)
class Case:
    problem: str
    truth: frozenset[Fraction] | None  # the solution values / the asked value; None: none
    variable: str | None  # None for a single asked value
    right: tuple[str, ...]  # right answers, written differently


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _render(equation: str, style: str, latex: str | None = None) -> str:
    if style == "latex":
        return f"Solve ${latex or equation}$"
    if style == "fullwidth":
        return _fullwidth(equation)
    if style == "chinese":
        return f"解方程 {equation}"
    return f"Solve {equation}"


def _term(coefficient: int, name: str) -> str:
    if coefficient == 1:
        return name
    if coefficient == -1:
        return f"-{name}"
    return f"{coefficient}{name}"


def _const(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"


def _fmt(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def _solution_answers(name: str, values: list[Fraction]) -> tuple[str, ...]:
    ordered = sorted(values)
    plain = [_fmt(v) for v in ordered]
    return (
        " or ".join(f"{name} = {p}" for p in plain),
        ", ".join(plain),
        ", ".join(f"{name}={p}" for p in reversed(plain)),
        "\\{" + ", ".join(plain) + "\\}",
        " or ".join(f"{name} = \\frac{{{v.numerator}}}{{{v.denominator}}}" for v in ordered),
    )


names = st.sampled_from("xyzatn")
nonzero = st.integers(-12, 12).filter(bool)
styles = st.sampled_from(["plain", "latex", "fullwidth", "chinese"])


@st.composite
def linear(draw: st.DrawFn) -> Case:
    x, a, b, style = draw(names), draw(nonzero), draw(st.integers(-30, 30)), draw(styles)
    root = Fraction(draw(st.integers(-20, 20)), draw(st.sampled_from([1, 1, 2, 3])))
    c = a * root + b
    if c.denominator != 1:
        root, c = Fraction(int(c) - b, a), Fraction(int(c))
    eq = f"{_term(a, x)} {_const(b)} = {int(c)}"
    return Case(_render(eq, style), frozenset({root}), x, _solution_answers(x, [root]))


@st.composite
def quadratic(draw: st.DrawFn) -> Case:
    x, r1, r2, style = draw(names), draw(st.integers(-9, 9)), draw(st.integers(-9, 9)), draw(styles)
    s, p = r1 + r2, r1 * r2
    eq = f"{x}^2 {_const(-s).replace('+ 0', '+ 0')}{x} {_const(p)} = 0"
    latex = f"{x}^{{2}} {_const(-s)}{x} {_const(p)} = 0"
    roots = sorted({Fraction(r1), Fraction(r2)})
    return Case(_render(eq, style, latex), frozenset(roots), x, _solution_answers(x, roots))


@st.composite
def system(draw: st.DrawFn) -> Case:
    x0, y0 = draw(st.integers(-9, 9)), draw(st.integers(-9, 9))
    a, b, c, d = (draw(nonzero) for _ in range(4))
    if a * d - b * c == 0:
        d += 1 if d != -1 else 2
    eq1 = f"{_term(a, 'x')} {_const(b)}y".replace("+ -", "- ")
    eq1 = f"{a}x + {b}y = {a * x0 + b * y0}"
    eq2 = f"{c}x + {d}y = {c * x0 + d * y0}"
    problem = f"Solve the system: {eq1}, {eq2}" if draw(st.booleans()) else f"{eq1}; {eq2}"
    answers = (f"x = {x0}, y = {y0}", f"({x0}, {y0})", f"y = {y0}, x = {x0}")
    return Case(problem, frozenset({Fraction(x0), Fraction(y0)}), "x,y", answers)


@st.composite
def radical(draw: st.DrawFn) -> Case:
    x, b, c, style = draw(names), draw(st.integers(-20, 20)), draw(st.integers(-3, 9)), draw(styles)
    eq, latex = f"sqrt({x} {_const(b)}) = {c}", f"\\sqrt{{{x} {_const(b)}}} = {c}"
    roots = [Fraction(c * c - b)] if c >= 0 else []
    right = _solution_answers(x, roots) if roots else ("no solution", "no real solution")
    return Case(_render(eq, style, latex), frozenset(roots), x, right)


@st.composite
def logarithm(draw: st.DrawFn) -> Case:
    x, base, k, style = draw(names), draw(st.integers(2, 5)), draw(st.integers(0, 4)), draw(styles)
    eq, latex = f"log_{base}({x}) = {k}", f"\\log_{{{base}}} {x} = {k}"
    root = Fraction(base**k)
    return Case(_render(eq, style, latex), frozenset({root}), x, _solution_answers(x, [root]))


@st.composite
def absolute(draw: st.DrawFn) -> Case:
    x, a, c, style = draw(names), draw(st.integers(-9, 9)), draw(st.integers(-2, 9)), draw(styles)
    eq = f"|{x} {_const(-a)}| = {c}"
    latex = f"\\left|{x} {_const(-a)}\\right| = {c}"
    roots = sorted({Fraction(a - c), Fraction(a + c)}) if c >= 0 else []
    right = _solution_answers(x, roots) if roots else ("no solution",)
    return Case(_render(eq, style, latex), frozenset(roots), x, right)


@st.composite
def arithmetic(draw: st.DrawFn) -> Case:
    kind = draw(st.sampled_from(["fraction", "percent", "factorial", "mixed", "vulgar"]))
    if kind == "fraction":
        p, q, r, s = (draw(st.integers(1, 12)) for _ in range(4))
        value = Fraction(p, q) + Fraction(r, s)
        problem = draw(st.sampled_from([f"{p}/{q} + {r}/{s} = ?", f"What is {p}/{q} + {r}/{s}?"]))
        if draw(st.booleans()):
            problem = f"$\\frac{{{p}}}{{{q}}} + \\frac{{{r}}}{{{s}}} = ?$"
    elif kind == "percent":
        p, n = draw(st.integers(1, 200)), draw(st.integers(1, 500))
        value, problem = Fraction(p * n, 100), f"What is {p}% of {n}?"
    elif kind == "factorial":
        n, m = draw(st.integers(0, 10)), draw(st.integers(-50, 50))
        fact = 1
        for i in range(2, n + 1):
            fact *= i
        value, problem = Fraction(fact + m), f"What is {n}! {_const(m)}?"
    elif kind == "mixed":
        w, p, q = draw(st.integers(1, 9)), draw(st.integers(1, 7)), draw(st.integers(8, 12))
        value, problem = w + Fraction(p, q) + 1, f"What is {w} {p}/{q} + 1?"
    else:
        w = draw(st.integers(0, 9))
        value, problem = w + Fraction(1, 2) + Fraction(1, 4), f"What is {w or ''}½ + ¼?"
    mixed = (
        f"{int(value)} {value - int(value)}" if value > 1 and value.denominator > 1 else _fmt(value)
    )
    right = (_fmt(value), f"\\frac{{{value.numerator}}}{{{value.denominator}}}", mixed)
    return Case(problem, frozenset({value}), None, right)


@st.composite
def expression_value(draw: st.DrawFn) -> Case:
    a, b, d, e = (
        draw(nonzero),
        draw(st.integers(-20, 20)),
        draw(nonzero),
        draw(st.integers(-20, 20)),
    )
    root = draw(st.integers(-10, 10))
    c = a * root + b
    problem = (
        f"If {_term(a, 'x')} {_const(b)} = {c}, what is the value of {_term(d, 'x')} {_const(e)}?"
    )
    if draw(st.booleans()):
        problem = f"已知 {_term(a, 'x')} {_const(b)} = {c}，求 {_term(d, 'x')} {_const(e)} 的值"
    value = Fraction(d * root + e)
    return Case(problem, frozenset({value}), None, (_fmt(value), f"\\boxed{{{_fmt(value)}}}"))


@st.composite
def side_condition(draw: st.DrawFn) -> Case:
    k, x = draw(st.integers(1, 12)), draw(names)
    cond, keep = draw(
        st.sampled_from(
            [
                (f"{x} > 0", 1),
                (f"{x} < 0", -1),
                (f"{x} >= 0", 1),
                (f"where {x} is a positive integer", 1),
                (f"where {x} is a negative integer", -1),
            ]
        )
    )
    separator = ", " if not cond.startswith("where") else " "
    problem = f"{x}^2 = {k * k}{separator}{cond}"
    root = Fraction(keep * k)
    return Case(problem, frozenset({root}), x, _solution_answers(x, [root]))


FAMILIES = {
    "linear": linear(),
    "quadratic": quadratic(),
    "system": system(),
    "radical": radical(),
    "logarithm": logarithm(),
    "absolute": absolute(),
    "arithmetic": arithmetic(),
    "expression_value": expression_value(),
    "side_condition": side_condition(),
}
