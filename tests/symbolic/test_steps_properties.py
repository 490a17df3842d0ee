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


PROBLEMS = [
    "",
    "A shirt is 20% off. Round your answer to the nearest cent.",
    "Estimate the total in thousands of dollars.",
    "Planets rotate around the sun every 360 days.",
]


@settings(max_examples=300, deadline=None)
@given(calculations, st.sampled_from(PROBLEMS))
def test_a_true_calculation_is_never_flagged_whatever_the_problem_says(
    case: tuple[int, str, int, str], problem: str
) -> None:
    a, op, b, template = case
    text = step(a, op, b, exact(a, op, b), template)
    assert [c.verdict for c in claims_in(text, problem)] == ["ok"], (text, problem)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(2, 12),
    st.integers(-30, 30),
    st.integers(-20, 20),
    st.integers(-1, 2),
    st.floats(0.0, 1.0),
)
def test_work_proved_right_line_by_line_gets_no_wrong_step(
    a: int, x: int, b: int, named: int, confidence: float
) -> None:
    """Every line keeps the equation's solutions: whatever a critique claims (any step, or
    none), no step is reported wrong and nothing is flagged."""
    from app.verification.step_critique import StepCritique
    from app.verification.step_verdicts import combine, first_error, first_flagged

    c = a * x + b
    problem = f"Solve {a}x + {b} = {c}".replace("+ -", "- ")
    steps = [f"{a}x + {b} = {c}".replace("+ -", "- "), f"{a}x = {c - b}", f"x = {x}"]
    findings = check_step_list(problem, steps)
    assert all(f.verdict == "ok" and f.shown_right for f in findings), (steps, findings)
    critique = StepCritique(named, confidence, "", "m:x:step_critique", claimed=named,
                            probability=confidence)  # fmt: skip
    for judged in (None, critique):
        outcomes = combine(findings, judged)
        assert all(o.verdict == "ok" for o in outcomes), (steps, named)
        assert first_flagged(outcomes) is None and first_error(outcomes) is None


LINES = [
    "18 - 6 = 12",
    "18 - 6 = 11",
    "He has 18 - 6 = 12 left.",
    "He has 18 - 6 = 11 left.",
    "He thinks about what is left.",
    "12 × 2 = 24",
    "12 × 2 = 22",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=6))
def test_a_claimed_first_error_follows_only_steps_shown_right(steps: list[str]) -> None:
    from app.verification.step_verdicts import combine, first_error, first_flagged

    findings = check_step_list("Tom has 18 apples and gives away 6.", steps)
    outcomes = combine(findings, None)
    claimed, flagged = first_error(outcomes), first_flagged(outcomes)
    if claimed is not None:
        assert claimed == flagged and all(f.shown_right for f in findings[:claimed])
    elif flagged is not None:
        assert not all(f.shown_right for f in findings[:flagged])
