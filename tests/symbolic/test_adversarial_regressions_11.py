"""Independent tester's findings (round 11) on three changes: the percent step checker
(step_arithmetic._judge_percent), the drawing-code rule (combiner.only_a_proof), and the
'Find all the solutions …' reading (checker.check_answer).

Each failing test is one bug (input, expected, actual in its assertion message); the passing
ones are what was checked and held."""

from __future__ import annotations

import pytest

from app.pipeline.graph import run_pipeline
from app.pipeline.state import SolveState
from app.symbolic.checker import check_answer
from app.symbolic.step_arithmetic import claims_in
from app.symbolic.steps import check_step_list
from app.verification.combiner import FIGURE_AS_CODE, only_a_proof
from tests.fixtures.providers import solver, verdict_json, verifier


def _wrong(step: str, problem: str = "") -> list[str]:
    return [f"{c.text!r}: {c.why}" for c in claims_in(step, problem) if c.verdict == "wrong"]


# ------------------------------------------------------------ 1. percent claims: bugs


@pytest.mark.parametrize(
    "step",
    [
        # a repeating decimal's "..." before the % sign: the % is lost and the claim read
        # as 2/3 = 66.66 (the same claim without the % sign would be cut-off, unchecked)
        "2/3 = 66.66...%",
        "1/3 = 33.33...%",
        "The share is 1/3 = 33.33...% of the class",
    ],
)
def test_regression_percent_after_an_ellipsis_is_flagged_wrong(step: str) -> None:
    assert _wrong(step) == [], f"right step {step!r} flagged wrong"


@pytest.mark.parametrize(
    "step",
    [
        "1/8 = 12,5%",  # decimal comma: read as 1/8 = 12
        "1/3 = 33,3%",  # read as 1/3 = 33
        "1/3 = 33.(3)%",  # repeating-decimal brackets: read as 1/3 = 33
    ],
)
def test_regression_percent_with_decimal_comma_or_period_brackets_flagged_wrong(step: str) -> None:
    assert _wrong(step) == [], f"right step {step!r} flagged wrong"


@pytest.mark.parametrize(
    "step",
    [
        # calculator / shop notation: "price - 20%" for 20 % off, "+ 8%" for tax added.
        # Loose, but the result is right; new flags (before the change: unchecked)
        "200 - 10% = 180",
        "$50 - 20% = $40",
        "$20 + 8% = $21.60",
        "80 + 25% = 100",
    ],
)
def test_regression_percent_off_or_added_notation_flagged_wrong(step: str) -> None:
    assert _wrong(step) == [], f"right result {step!r} flagged wrong"


def test_regression_step_list_flags_a_right_discount_step() -> None:
    findings = check_step_list(
        "A $200 jacket is 10% off. What is the sale price?",
        ["200 - 10% = 180", "The sale price is $180."],
    )
    assert all(f.verdict != "wrong" for f in findings), findings


# ------------------------------------------------------------ 1. percent claims: held


@pytest.mark.parametrize(
    "step",
    [
        "2/3 = 66.7%",
        "1/3 ≈ 33%",
        "2/3 = 66.67%",
        "1/6 = 16.7%",
        "7/9 = 78%",
        "1/7 = 14%",
        "1/7 = 14.29%",
        "5/8 = 62.5% ≈ 63%",
        "45% - 30% = 15",
        "45% - 30% = 15%",
        "20% × 50% = 10%",
        "0.2 × 30% = 6%",
        "1 + 20% = 1.2",
        "100% + 20% = 120% = 1.2",
        "80 × 120% = 96",
        "$45.99 × 8% = $3.68",
        "$45.50 × 18% = $8.19",
        "(12 + 13)% = 25%",
        "0.2 = 20% = 1/5",
        "1000 × (1 + 5%)^2 = 1102.5",
        "1000(1 + 5%)^3 = 1157.63",
        "2000 × (1 + 3.5%)^5 = 2375.37",
        "1000 × (1 + 5%/12)^12 = 1051.16",
        "1/2% = 0.005",
        "1/4% = 0.0025",
        r"$25\% \times 80 = 20$",
        r"$\frac{1}{2}\% = 0.005$",
        r"\dfrac{2}{3} \approx 66.7\%",
        "100×80%=80（元）",
        "200×(1-20%)=160元",
        "1000×(1+5%)²=1102.5（元）",
        "(25% - 20%) / 20% × 100% = 25%",
        "3/4 × 100% = 75",
        "0.75 × 100 = 75%",
        "25% × 2 hours = 30 minutes",
        "15% × 2 kg = 300 g",
        "40 / 50 × 100 = 80%",
        "100 - 15 = 85%",
        "6 / 12 = 0.5%",
        "(3/5) × 100 = 60 %",
        "100% / 3 = 33.3%",
        "50% + 50% = 100",
        "1/3 × 100 ≈ 33%",
        "110% × 90% = 99%",
        "50 / 20% = 250",
        "10%^2 = 1%",
        "√25% = 50%",
        "1.2 × 0.8 - 1 = -4%",
        "96% - 100% = -4%",
        "2/3 ≈ 0.667 = 66.7%",
        "x% = 20",
        "百分之二十 = 0.2",
        "5‰ = 0.005",
        "1/4 = 0,25 = 25%",
        "1/3 ≈ 33,3%",
        "12,5% × 80 = 10",
    ],
)
def test_held_right_percent_steps_not_flagged(step: str) -> None:
    assert _wrong(step) == []


@pytest.mark.parametrize(
    "step",
    ["(168.96 / 384) × 100% = 43.96%", "1/3 = 30%", "20% × 50 = 12", "25% + 50% = 80%"],
)
def test_held_false_percent_steps_are_flagged(step: str) -> None:
    assert _wrong(step)


@pytest.mark.parametrize(
    ("step", "problem"),
    [
        ("1/16 = 6.2%", "Give the answer as a percent to 1 decimal place."),
        ("2/3 = 66.7%", "Give your answer as a percentage to 1 decimal place."),
        ("5/6 = 83%", "Round to 2 decimal places."),
        ("1/8 = 13%", "Round to the nearest whole percent."),
    ],
)
def test_held_rounding_stated_in_the_problem(step: str, problem: str) -> None:
    assert _wrong(step, problem) == []


# ------------------------------------------------------------ 2. drawing code: bugs

ASY_ENV = "Find the area.\n\\begin{asy}\ndraw((0,0)--(1,0)--(1,1)--cycle);\n\\end{asy}"
TIKZ_FILL = "Find the area of the shaded square. \\tikz{\\filldraw[gray] (0,0) rectangle (3,3);}"
TIKZ_SPACE = (
    "Find the area.\n\\begin {tikzpicture}\n\\fill (0,0) rectangle (3,3);\n\\end {tikzpicture}"
)
PSTRICKS = "Find the length AB. \\pspicture(0,0)(4,4)\\psline(0,0)(4,3)\\endpspicture"
BARE_ASY = (
    'In the figure, draw((0,0)--(10,0)--(3.6,4.8)--cycle); label("X",(10,0),E); '
    'label("10",(0,0)--(10,0),S); what is sin X?'
)
SVG = (
    "Find the area of the triangle. <svg width='100' height='100'>"
    "<polygon points='0,0 10,0 3.6,4.8'/></svg>"
)


@pytest.mark.parametrize(
    "problem",
    [ASY_ENV, TIKZ_FILL, TIKZ_SPACE, PSTRICKS, BARE_ASY, SVG],
    ids=["begin-asy", "tikz-filldraw", "begin-space", "pstricks-plain", "bare-asy", "svg"],
)
def test_regression_drawing_code_not_detected(problem: str) -> None:
    assert only_a_proof("5", problem) == FIGURE_AS_CODE, f"not detected: {problem!r}"


async def test_regression_begin_asy_figure_verified_on_model_word(graph, make_context) -> None:
    approve = verifier("check", verdict_json(True, 0.99, "1/2"))
    ctx = make_context(solver("model", "1/2"), approve, symbolic=False)
    state = await run_pipeline(graph, ctx, SolveState(problem_text=ASY_ENV))
    assert state.verification_status == "unverified", (
        f"{state.verification_status}: model evidence verified a figure given as \\begin{{asy}}"
    )


def test_backslash_draw_counts_as_drawing_code_even_in_prose() -> None:
    # \draw is TikZ's; in prose it costs only an unverified badge, never a wrong verified one
    assert only_a_proof("4", "Kim typed \\draw(1) in her notes. What is 2 + 2?") == FIGURE_AS_CODE


# ------------------------------------------------------------ 2. drawing code: held


@pytest.mark.parametrize(
    "problem",
    [
        "Draw a line from (0,0) to (3,4). How long is it?",
        "画一个边长为3厘米的正方形，它的面积是多少？",
        "A drawer has 5 red socks and 3 blue ones. How many socks?",
        "Find the asymptote of y = 1/x. [asymptote]",
        "Look at the picture below and count the apples.",
        "Draw (0,0) and (3,4) on the grid. How far apart are they?",
    ],
)
def test_held_prose_is_no_drawing_code(problem: str) -> None:
    assert only_a_proof("5", problem) is None


@pytest.mark.parametrize(
    "problem",
    [
        "Find x. [ASY]draw((0,0)--(1,1));[/ASY]",
        "Find x. \\draw\n(0,0) -- (1,1);",
        "Find x. \\begin{tikzpicture}[scale=2]\\node at (0,0) {A};\\end{tikzpicture}",
        "Find x. \\begin{picture}(10,10)\\put(0,0){\\line(1,1){10}}\\end{picture}",
    ],
)
def test_held_drawing_code_detected(problem: str) -> None:
    assert only_a_proof("5", problem) == FIGURE_AS_CODE


ARITH_BESIDE_ASY = "[asy]\ndraw((0,0)--(4,0)--(4,3)--cycle);\n[/asy]\nSolve 2x + 3 = 11"


async def test_a_problem_beside_a_figure_is_not_read_by_the_symbolic_checker(
    graph, make_context
) -> None:
    """By design: the figure may carry what the words do not (a side's length, a label), and a
    reading that does not account for it is not the problem. So the scan stays unverified,
    with the figure's reason, rather than verified on the words alone."""
    assert check_answer(ARITH_BESIDE_ASY, "x = 4").verdict == "abstain"
    ctx = make_context(solver("model", "x = 4"))
    state = await run_pipeline(graph, ctx, SolveState(problem_text=ARITH_BESIDE_ASY))
    assert state.solution is not None
    assert state.verification_status == "unverified"


async def test_held_evidence_against_still_caution_beside_a_figure(graph, make_context) -> None:
    reject = verifier("check", verdict_json(False, 0.95, "3/5"), verdict_json(False, 0.95, "3/5"))
    problem = (
        "In the triangle below, what is sin X?\n[asy]draw((0,0)--(10,0)--(3.6,4.8)--cycle);[/asy]"
    )
    ctx = make_context(solver("model", "4/5"), reject, symbolic=False)
    state = await run_pipeline(graph, ctx, SolveState(problem_text=problem))
    assert state.verification_status == "caution", (state.verification_status, state.caution_reason)


# ------------------------------------------------------------ 3. "Find all the solutions"

E = " Enter all the solutions, separated by commas."


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        # MATH's complex-variable problems (z): the answer key lists complex roots; the
        # checker solves over the reals and approves "no solutions" / the one real root
        (
            r"Find all the solutions to \[z^4 = -4.\]Enter the solutions, separated by commas.",
            "no solutions",
        ),
        ("Find all the solutions to z^2 = -4." + E, "no solutions"),
        ("Find all the solutions to z^2 + 4z + 13 = 0." + E, "no solutions"),
        ("Find all the solutions to z^3 = -8." + E, "-2"),
    ],
)
def test_regression_complex_problem_wrong_answer_approved(problem: str, answer: str) -> None:
    verdict = check_answer(problem, answer).verdict
    assert verdict != "approve", f"{problem!r} / {answer!r}: approved"


async def test_regression_complex_no_solutions_verified_in_a_scan(graph, make_context) -> None:
    problem = "Find all the solutions to z^2 + 4z + 13 = 0." + E
    ctx = make_context(solver("model", "no solutions"))
    state = await run_pipeline(graph, ctx, SolveState(problem_text=problem))
    assert state.verification_status != "verified", "wrong answer 'no solutions' verified"


@pytest.mark.parametrize(
    ("problem", "answer", "verdict"),
    [
        ("Find all the solutions to x^3 = x." + E, "-1, 0, 1", "approve"),
        ("Find all the solutions to x^3 = x." + E, "0, 1", "reject"),
        (r"Find all the solutions to \[\sqrt{x+2} = x.\]" + E, "-1, 2", "reject"),
        (r"Find all the solutions to \[\sqrt{x+2} = x.\]" + E, "2", "approve"),
        ("Find all the solutions to |x - 3| = 5." + E, "8, -2", "approve"),
        ("Find all the solutions to x^2 = |x|." + E, "0, 1", "reject"),
        ("Find all the solutions to (x^2-4)/(x-2) = 0." + E, "-2", "approve"),
        ("Find all the solutions to x^2 = 4x." + E, "4", "reject"),
        ("Find all the positive solutions to x^2 = 4.", "2, -2", "reject"),
        ("Find all the nonzero solutions to x^2 = 2x.", "0, 2", "reject"),
        ("Find all the solutions to x + y = 3, x - y = 1.", "1, 2", "reject"),
        ("Find all the solutions to sin(x) = 1/2 for 0 <= x < 2pi." + E, "pi/6", "reject"),
        ("Find all the solutions to sin(x) = 1/2 for 0 <= x < 2pi." + E, "pi/6, 5pi/6", "approve"),
        ("Find all the solutions to x^2 = 1000000." + E, "1000, -1000", "approve"),
    ],
)
def test_held_find_all_the_solutions(problem: str, answer: str, verdict: str) -> None:
    assert check_answer(problem, answer).verdict == verdict


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("Find all the solutions to x^2 - 5x + 6 = 0 and give their product.", "2, 3"),
        ("Find all the solutions to x^2 = 4. How many are there?", "2, -2"),
        ("Find all the solutions to x^2 = 4 other than x = 2.", "2, -2"),
        ("Find all the solutions to x^2 - 4 = 0 for all x.", "2, -2"),
        ("Find all the solutions to sin x = 0." + E, "0, pi"),
        ("Find all the solutions to x^2 = 4 (mod 5)." + E, "2, -2"),
        ("Find all the solutions to x^2 = 4. Enter the largest solution.", "2, -2"),
    ],
)
def test_held_find_all_does_not_approve_what_it_cannot_read(problem: str, answer: str) -> None:
    assert check_answer(problem, answer).verdict != "approve"
