"""Properties of the step arithmetic: a true calculation is never flagged, a false one with
nothing to excuse it always is, and no text makes the checker fail."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from app.symbolic.step_arithmetic import claims_in
from app.symbolic.steps import check_step_list

OPERATORS = {"+": "+", "-": "-", "×": "*", "\\times": "*", "*": "*", "÷": "/", "/": "/"}
TEMPLATES = [
    "{claim}",
    "First, she has {claim} apples.",
    "So the total is \\({claim}\\) dollars.",
    "Total cost = {claim}.",
    "他一共有{claim}（个）。",
]

calculations = st.tuples(
    st.integers(0, 10_000),
    st.sampled_from(sorted(OPERATORS)),
    st.integers(1, 500),
    st.sampled_from(TEMPLATES),
)


def written(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def exact(a: int, op: str, b: int) -> Fraction:
    return {"+": Fraction(a + b), "-": Fraction(a - b), "*": Fraction(a * b)}.get(
        OPERATORS[op], Fraction(a, b)
    )


def step(a: int, op: str, b: int, result: Fraction, template: str) -> str:
    claim = f"{a} {op} {b} = {written(result)}"
    if template.startswith("Total cost"):
        claim = "= ".join(claim.rsplit("= ", 1))
    return template.format(claim=claim)


@settings(max_examples=300, deadline=None)
@given(calculations)
def test_a_true_calculation_is_never_flagged(case: tuple[int, str, int, str]) -> None:
    a, op, b, template = case
    text = step(a, op, b, exact(a, op, b), template)
    assert [c.verdict for c in claims_in(text)] == ["ok"], (text, claims_in(text))


@settings(max_examples=300, deadline=None)
@given(calculations, st.integers(-50, 50).filter(bool))
def test_a_plainly_false_calculation_is_flagged(
    case: tuple[int, str, int, str], delta: int
) -> None:
    a, op, b, template = case
    text = step(a, op, b, exact(a, op, b) + delta, template)
    assert [c.verdict for c in claims_in(text)] == ["wrong"], (text, claims_in(text))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(codec="utf-8"), max_size=200), max_size=4))
def test_any_text_gives_one_finding_per_step(steps: list[str]) -> None:
    findings = check_step_list("Solve 2x + 3 = 11", steps)
    assert len(findings) == len(steps)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from([*"0123456789+-*/^()=.,%$ x\\{}", "\\frac", "\\times", "\\text"]),
        max_size=60,
    )
)
def test_math_shaped_noise_never_breaks_the_reader(parts: list[str]) -> None:
    claims_in("".join(parts))
