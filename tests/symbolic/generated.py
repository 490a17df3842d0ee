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
    abstain: bool = False  # the reader must abstain: the set or the convention is ambiguous
    wrong: tuple[str, ...] = ()  # plausible wrong answers that must never be approved


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


@st.composite
def product_target(draw: st.DrawFn) -> Case:
    """'what is 3xy?': letters run together are a product, never a dropped word."""
    a, b, k = draw(nonzero), draw(nonzero), draw(st.integers(1, 9))
    x, y = draw(st.sampled_from([("x", "y"), ("a", "b"), ("m", "n")]))
    asked = f"{k if k > 1 else ''}{x}{y}"
    problem = draw(
        st.sampled_from(
            [
                f"If {x} = {a} and {y} = {b}, what is {asked}?",
                f"If {x} + {y} = {a + b} and {x} - {y} = {a - b}, what is {asked}?",
                f"已知 {x} = {a}，{y} = {b}，求 {asked} + 1 的值",
            ]
        )
    )
    value = Fraction(k * a * b + (1 if "的值" in problem else 0))
    wrong = tuple(w for w in (_fmt(Fraction(k)), f"{x} = {a}, {y} = {b}") if w != _fmt(value))
    return Case(problem, frozenset({value}), None, (_fmt(value),), wrong=wrong)


@st.composite
def fraction_division(draw: st.DrawFn) -> Case:
    """'3/4 ÷ 1/2' divides by the fraction; '3/4 / 1/2' and '8 / 2(2+2)' are ambiguous."""
    p, q, r, t = (draw(st.integers(1, 9)) for _ in range(4))
    whole = draw(st.sampled_from([0, 0, 1, 2]))
    left = Fraction(p, q) + whole
    written = f"{whole} {p}/{q}" if whole and p < q else f"{p}/{q}"
    if whole and p >= q:
        left = Fraction(p, q)
    value = left / Fraction(r, t)
    style = draw(st.sampled_from(["÷", "÷", "/", "latex", "implicit"]))
    if style == "latex":
        problem = f"What is \\frac{{{p}}}{{{q}}} \\div \\frac{{{r}}}{{{t}}}?"
        value = Fraction(p, q) / Fraction(r, t)
    elif style == "implicit":
        problem, value = f"What is {p} / {q}({r}+{t})?", Fraction(p, q) * (r + t)
    else:
        problem = f"What is {written} {style} {r}/{t}?"
    left_to_right = left / r / t if style != "implicit" else Fraction(p, q * (r + t))
    wrong = (_fmt(left_to_right),) if left_to_right != value else ()
    abstain = style in ("/", "implicit")
    return Case(problem, frozenset({value}), None, (_fmt(value),), abstain=abstain, wrong=wrong)


@st.composite
def mixed_numbers(draw: st.DrawFn) -> Case:
    """'3 1/2 % of 200' and '1 1/2 x = 3': the mixed number is one number."""
    w, p, q = draw(st.integers(1, 9)), draw(st.integers(1, 7)), draw(st.integers(8, 12))
    mixed = w + Fraction(p, q)
    if draw(st.booleans()):
        n = draw(st.integers(1, 500))
        value = mixed * n / 100
        problem = f"What is {w} {p}/{q} % of {n}?"
        wrong = (_fmt(w * Fraction(p, q) * 100 * n),)
        return Case(problem, frozenset({value}), None, (_fmt(value),), wrong=wrong)
    c = draw(st.integers(1, 30))
    root = c / mixed
    problem = draw(st.sampled_from([f"{w} {p}/{q} x = {c}", f"{w} {p}/{q}x = {c}"]))
    wrong = (f"x = {_fmt(c / (w * Fraction(p, q)))}",)
    return Case(problem, frozenset({root}), "x", _solution_answers("x", [root]), wrong=wrong)


@st.composite
def negated_condition(draw: st.DrawFn) -> Case:
    """'x > 0 is false', 'x > 0 or x < -5': never read as a plain 'and'."""
    k, x = draw(st.integers(1, 12)), draw(names)
    cond, keep = draw(
        st.sampled_from(
            [
                (f"where {x} > 0 is false", -1),
                (f"where {x} > 0 is wrong", -1),
                (f"where {x} > 0 fails", -1),
                (f"where {x} < 0 is impossible", 1),
                (f"where {x} > 0 or {x} < -{k + 1}", 1),
                (f"where {x} < 0 or {x} > {k + 1}", -1),
                (f"，其中 {x} > 0 或 {x} < -{k + 1}", 1),
            ]
        )
    )
    problem = f"{x}^2 = {k * k} {cond}"
    root = Fraction(keep * k)
    wrong = (f"{x} = {-root}", "no solution")
    return Case(problem, frozenset({root}), x, _solution_answers(x, [root]), wrong=wrong)


@st.composite
def sqrt_under_power(draw: st.DrawFn) -> Case:
    """(√x)² = c is x = c only for c ≥ 0: √ of a negative is undefined before squaring."""
    c, x = draw(st.integers(-12, 12)), draw(names)
    form = draw(
        st.sampled_from(["(sqrt({x}))^2", "sqrt({x})^2", "sqrt({x})*sqrt({x})", "({x}^(1/2))^2"])
    )
    if draw(st.booleans()):
        problem, roots = f"{form.format(x=x)} = {c}", [Fraction(c)] if c >= 0 else []
        wrong = (f"{x} = {c}",) if c < 0 else ("no solution",)
    else:
        k = abs(c) or 1
        problem, roots = f"sqrt({x})^4 = {k**4}", [Fraction(k * k)]
        wrong = (f"{x} = {-k * k} or {x} = {k * k}",)
    right = _solution_answers(x, roots) if roots else ("no solution", "no real solution")
    return Case(problem, frozenset(roots), x, right, wrong=wrong)


@st.composite
def excluded_identity(draw: st.DrawFn) -> Case:
    """x/x = 1 holds for every real except 0: 'all real numbers' is wrong."""
    a, k, x = draw(st.integers(-9, 9)), draw(nonzero), draw(names)
    shifted = f"({x} {_const(-a)})" if a else x
    problem = draw(
        st.sampled_from(
            [
                f"{shifted}/{shifted} = 1",
                f"{k}{shifted}/{shifted} = {k}" if k != 1 else f"{shifted}/{shifted} = 1",
                f"{x}^2/{x} = {x}",
                f"1/{shifted} - 1/{shifted} = 0",
                f"{x}^0 = 1",
                f"(sqrt({x}))^2 = {x}",
            ]
        )
    )
    wrong = ("all real numbers", "no solution", f"{x} = {a + 1}")
    return Case(problem, None, x, (), abstain=True, wrong=wrong)


@st.composite
def root_qualifier(draw: st.DrawFn) -> Case:
    """'the smaller solution' asks for one root; 'one solution' is answered by either."""
    r1, r2 = draw(st.integers(-9, 9)), draw(st.integers(-9, 9))
    if r1 == r2:
        r2 = r1 + draw(st.integers(1, 5))
    x = draw(names)
    eq = f"{x}^2 {_const(-(r1 + r2))}{x} {_const(r1 * r2)} = 0"
    small, large = sorted((Fraction(r1), Fraction(r2)))
    word, value = draw(
        st.sampled_from(
            [
                ("Find the smaller solution.", small),
                ("Find the larger solution.", large),
                ("Find the lesser root.", small),
                ("Find the bigger solution.", large),
                (f"Give the larger value of {x}.", large),
                (f"What is the smallest value of {x}?", small),
            ]
        )
    )
    other = large if value == small else small
    right = (_fmt(value), f"{x} = {_fmt(value)}")
    both = " or ".join(f"{x} = {_fmt(v)}" for v in (small, large))
    return Case(f"{eq}. {word}", frozenset({value}), None, right, wrong=(_fmt(other), both))


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
    "product_target": product_target(),
    "fraction_division": fraction_division(),
    "mixed_numbers": mixed_numbers(),
    "negated_condition": negated_condition(),
    "sqrt_under_power": sqrt_under_power(),
    "excluded_identity": excluded_identity(),
    "root_qualifier": root_qualifier(),
}
