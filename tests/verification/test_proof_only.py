"""Answers only a proof may verify (combiner.only_a_proof): a figure given as drawing code
([asy], TikZ), which the models read as text, an answer that is not one plain value, and an
answer that leaves a computation to carry out ("2 + 2^{61}").

On the MAV run's MATH problems every verifier approved sin X = 4/5 for a right triangle drawn
in [asy] (the answer is 3/5): 20 % of the answers to such problems were right, 68 % of the
others. Model evidence never verifies them, and their outcomes do not certify the threshold."""

from __future__ import annotations

import uuid

import pytest

from app.pipeline.graph import run_pipeline
from app.pipeline.state import SolveState
from app.verification.calibration import Calibrator, fit_evidence_model, verdict_signals
from app.verification.combiner import (
    FIGURE_AS_CODE,
    NOT_PLAIN,
    WORK_LEFT,
    judge,
    judge_ledger,
    only_a_proof,
)
from app.verification.outcomes import VerdictRow, labelled_outcomes
from app.verification.verdict import Verdict
from tests.fixtures.providers import solver, verdict_json, verifier

TRIANGLE = """In right triangle $XYZ$, shown below, what is $\\sin{X}$?

[asy]
draw((0,0)--(10,0)--(3.6,4.8)--cycle,black+linewidth(1));
draw(rightanglemark((0,0),(3.6,4.8),(10,0),20),black+linewidth(1));
label("X",(10,0),E);
label("Y",(3.6,4.8),N);
label("Z",(0,0),W);
label("10",(0,0)--(10,0),S);
label("8",(10,0)--(3.6,4.8),NE);
[/asy]"""
TIKZ = (
    "What is the area of the square?\n"
    "\\begin{tikzpicture}\\draw (0,0) rectangle (3,3);\\end{tikzpicture}"
)
APPLES = "Tom has 5 apples and buys 7 more. How many apples does he have now?"


@pytest.mark.parametrize("problem", [TRIANGLE, TIKZ, "Find x. [ASY]draw((0,0)--(1,1));[/ASY]"])
def test_a_figure_given_as_drawing_code_needs_a_proof(problem: str) -> None:
    assert only_a_proof("3/5", problem) == FIGURE_AS_CODE


@pytest.mark.parametrize(
    "problem",
    [APPLES, "Draw a picture: 3 rows of 4 dots. How many dots?", "The graph of y = 2x + 1 ..."],
)
def test_words_about_a_picture_are_no_drawing_code(problem: str) -> None:
    assert only_a_proof("12", problem) is None


def test_an_answer_that_is_not_one_plain_value_needs_a_proof() -> None:
    assert only_a_proof("12 at minimum", APPLES) == NOT_PLAIN


CUBES = (
    "Hypatia and Euclid choose 1, Pythagoras chooses 2 and Ptolemy -2; each cubes the number"
    " 20 times. What is the sum of the numbers they wrote?"
)


@pytest.mark.parametrize(
    "answer",
    [
        "2 + 2^{61}",  # the MAV run's shared error, approved by all six verifiers
        "x = 2 + 2^{61}",
        "2 \\cdot 8^{20} + 2",
        "2(2^{60} + 1)",
        "\\frac{14}{2}",
        "12^{10}",
        "\\sqrt{16}",
        "5^{3/2}",
        "180° - 45°",  # an independent tester: a degree sign exempted any answer
        "\\sin 30^\\circ",
        "x_1 = 2^3",
        "\\frac{4\\sqrt{3}}{2}",
        "5 \\times 7 \\times 10^{2}",
    ],
)
def test_an_answer_that_leaves_a_computation_needs_a_proof(answer: str) -> None:
    assert only_a_proof(answer, CUBES) == WORK_LEFT


@pytest.mark.parametrize(
    "answer",
    [
        "2",
        "19/12",
        "\\frac{3}{4}",
        "-5",
        "1 + \\sqrt{2}",
        "2\\sqrt{3}",
        "3\\frac{1}{2}",
        "3 \\times 10^{8}",  # scientific notation is a final form, however written
        "3 × 10⁸",
        "1.5 × 10^{−3}",
        "\\boxed{3 \\times 10^8}",
        "3 ⋅ 10^8.",
        "10^{-3}",
        "10^{-1}",
        "2^{50/1000003}",  # a root index of a million is never tried (it stalled)
        "\\cos 13^\\circ",
        "45°",
        "360^\\circ",
        "33\\frac{1}{3}\\%",
        "$12.50",
        "\\frac{2\\sqrt{2}}{4}",  # not in lowest terms, as 6/8: a fraction, nothing left to do
        "\\frac{6\\pi}{8}",
        "\\sqrt{1+\\sqrt{2}}",
        "\\sqrt{\\pi}",
        "2^{2/3}",
        "2^{\\sqrt{2}}",
        # a 39-digit semiprime under a root: never factored in the request (took seconds)
        "\\sqrt{700000000000000003700000000000000000663}",
    ],
)
def test_finished_answers_need_no_proof(answer: str) -> None:
    assert only_a_proof(answer, CUBES) is None


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("What is the prime factorization of 24?", "2^{3} \\cdot 3"),
        ("把24分解质因数。", "2^{3} \\times 3"),
        ("Write 8^{20} as a power of 2.", "2^{60}"),
        ("Express 64 as a power of 2, and do not evaluate.", "2^{6}"),
        ("Write 345 in expanded form.", "300 + 40 + 5"),
        ("Write 3 × 3 × 3 × 3 using an exponent.", "3^4"),
        ("Write an expression for the cost of 3 pens at $2 each.", "3 \\times 2"),
    ],
)
def test_a_form_the_problem_asks_for_is_not_work_left(problem: str, answer: str) -> None:
    assert only_a_proof(answer, problem) is None


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("What is the sum of the first 10 powers of 2, starting from 2^1?", "2^{11} - 2"),
        ("An engine has a power of 12 kW. Half of it is lost. How much is left?", "\\frac{12}{2}"),
        ("A number was factored out. What is 7 times 8?", "7 \\times 8"),
        # tester round 14: each was verified, every verifier approving
        ("60的最大质因数与最小质因数的乘积是多少？", "2 × 2 × 3"),
        ("What is the units digit in the product 7 × 13 × 17?", "7 × 13 × 17"),
        ("(x+1)^5的展开式中x^2的系数是多少？", "5 × 4 ÷ 2"),
        ("Evaluate the expression for x = 4.", "3 + 4"),
        ("Give the larger product without multiplying.", "7 \\times 8"),
        ("列算式计算：5+7=?", "5 + 7"),
        ("What is 3 × 10^8 ÷ 2?", "\\frac{3 \\times 10^{8}}{2}"),
    ],
)
def test_a_form_mentioned_in_passing_is_not_asked(problem: str, answer: str) -> None:
    assert only_a_proof(answer, problem) == WORK_LEFT


def test_the_judge_verifies_only_a_proof_of_such_an_answer() -> None:
    fitted = Calibrator(feature_set="evidence", threshold=0.9, target_precision=0.97)
    common = {"calibrated": True, "calibrator": fitted, "raw_verified": 0.9}
    by_model = judge(proof=None, probability=0.999, proof_only=FIGURE_AS_CODE, **common)
    assert (by_model.badge, by_model.reason) == ("unverified", FIGURE_AS_CODE)
    proven = judge(proof="for", probability=1.0, proof_only=FIGURE_AS_CODE, **common)
    assert proven.badge == "verified"
    against = judge(proof=None, probability=0.01, proof_only=FIGURE_AS_CODE, **common)
    assert against.badge == "caution"  # evidence against still says so


async def test_a_figure_problem_the_verifiers_approve_is_not_verified(graph, make_context) -> None:
    approve = verifier("check", verdict_json(True, 0.99, "4/5"))
    ctx = make_context(solver("model", "4/5"), approve, symbolic=False)
    state = await run_pipeline(graph, ctx, SolveState(problem_text=TRIANGLE))
    assert state.solution is not None and state.solution.final_answer == "4/5"
    assert state.verification_status == "unverified"
    assert state.caution_reason == FIGURE_AS_CODE
    # the same evidence on a problem stated in words verifies
    approve = verifier("check", verdict_json(True, 0.99, "12"))
    ctx = make_context(solver("model", "12"), approve, symbolic=False)
    state = await run_pipeline(graph, ctx, SolveState(problem_text=APPLES))
    assert state.verification_status == "verified"


async def test_work_left_that_every_verifier_approves_is_not_verified(graph, make_context) -> None:
    approve = verifier("check", verdict_json(True, 0.99, "2 + 2^{61}"))
    ctx = make_context(solver("model", "2 + 2^{61}"), approve, symbolic=False)
    state = await run_pipeline(graph, ctx, SolveState(problem_text=CUBES))
    assert state.solution is not None and state.solution.final_answer == "2 + 2^{61}"
    assert (state.verification_status, state.caution_reason) == ("unverified", WORK_LEFT)


def _labelled(problem: str, proof: bool) -> list[VerdictRow]:
    sid = uuid.uuid4()
    common = {"solution_id": sid, "final_answer": "4/5", "attempt": 1, "answer": "4/5"}
    quick = VerdictRow(
        **common,
        tier="quick",
        method="programmatic" if proof else "llm",
        verifier_id="symbolic:substitution" if proof else "m:quick_verify",
        verdict="approve",
        score=0.95,
        problem_text=problem,
    )
    agreed = VerdictRow(
        **common,
        tier="consensus",
        method="llm",
        verifier_id="consensus:exact_match",
        verdict="reject",
        score=None,
        problem_text=problem,
    )
    return [quick, agreed]


def test_outcomes_model_evidence_cannot_verify_do_not_certify_the_threshold() -> None:
    outcomes = labelled_outcomes(
        [
            *_labelled(TRIANGLE, proof=False),
            *_labelled(TRIANGLE, proof=True),
            *_labelled(APPLES, proof=False),
        ]
    )
    # the figure problem's model-only outcome is flagged; its proven one and the words' are not
    assert sorted((o.proven_at_response, o.proof_only) for o in outcomes) == [
        (False, False),
        (False, True),
        (True, False),
    ]
    assert {o.problem for o in outcomes if not o.proven_at_response and not o.proof_only} == {
        "tom has 5 apples and buys 7 more how many apples does he have now"
    }


def test_the_confidence_shown_for_proof_only_answers_is_their_rate_of_being_right() -> None:
    """Every verifier approves the figure problems' answers as they approve the others; the
    others are right 95 % of the time, the figures' 20 %. Those figure outcomes neither
    certify the threshold nor move the model, and the confidence shown for such an answer
    is the rate at which they were right, not the others' 0.95."""
    approving = verdict_signals([Verdict("approve", "llm", f"v{i}:aspect", 1.0) for i in range(4)])
    rejecting = verdict_signals([Verdict("reject", "llm", f"v{i}:aspect", 0.0) for i in range(4)])
    rows = [approving] * 400 + [rejecting] * 200 + [approving] * 100
    labels = [i % 20 != 0 for i in range(400)] + [i % 10 == 0 for i in range(200)]
    labels += [i % 5 == 0 for i in range(100)]
    flags = [False] * 600 + [True] * 100
    problems = list(range(700))
    model = fit_evidence_model(
        rows, labels, target=0.9, delta=0.05, problems=problems, proof_only=flags
    )
    alone = fit_evidence_model(rows[:600], labels[:600], target=0.9, delta=0.05)
    assert model.n_samples == 600 and model.threshold == alone.threshold
    assert model.predict(approving) == alone.predict(approving) == pytest.approx(0.95, abs=0.01)
    assert model.predict(approving, proof_only=True) == pytest.approx(0.2, abs=0.01)
    # the judge: unverified at that P (the kind of answer, not evidence against this one)
    shown = model.predict(approving, proof_only=True)
    common = {"calibrated": True, "calibrator": model, "raw_verified": 0.9}
    judged = judge(proof=None, probability=shown, proof_only=FIGURE_AS_CODE, **common)
    assert (judged.badge, judged.probability) == ("unverified", shown)
    # a credible rejection still says caution
    rejected = judge(
        proof=None,
        probability=shown,
        proof_only=FIGURE_AS_CODE,
        credible_rejection="a credible panel rejected it",
        **common,
    )
    assert rejected.badge == "caution"
    # a later panel's verdicts (MARS, consensus, a spot check) are read the same way
    ledger = [Verdict("approve", "llm", f"v{i}:aspect", 1.0) for i in range(4)]
    assert judge_ledger(model, ledger) == ("verified", model.predict(approving), True)
    later = judge_ledger(model, ledger, proof_only=FIGURE_AS_CODE)
    assert later[:2] == ("unverified", shown)
    # … but a proof in the ledger still decides
    proven = [*ledger, Verdict("reject", "programmatic", "sympy", 0.0)]
    assert judge_ledger(model, proven, proof_only=FIGURE_AS_CODE)[:2] == ("caution", 0.0)
    # too few such outcomes: P as the model gives it
    few = fit_evidence_model(
        rows[:605], labels[:605], target=0.9, delta=0.05, proof_only=flags[:605]
    )
    assert few.predict(approving, proof_only=True) == few.predict(approving)
