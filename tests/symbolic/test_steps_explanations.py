"""What the student reads about each step: the method that decided it, and an explanation (in
English or Chinese) that points at the mistake without giving a right value or the final
answer away; and the goal checks: a step the checks proved right is never reported wrong,
and a false calculation after a step nothing could read is flagged but not claimed first."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.analysis.classifier import detect_language
from app.checks.steps import explain, shown
from app.symbolic.steps import StepFinding, check_step_list
from app.verification.step_critique import StepCritique
from app.verification.step_verdicts import combine, first_error, first_flagged

EN_PROBLEM = "Tom has {a} apples and buys {b} more bags of {c}. How many apples does he have?"
ZH_PROBLEM = "小明有{a}个苹果，又买了{b}袋，每袋{c}个。小明现在一共有多少个苹果？"


def digits_besides(text: str, quoted: str, step_number: int) -> list[str]:
    """The numbers an explanation states beyond the student's own quoted calculation and the
    step's number: a right value would show up here."""
    rest = text.replace(quoted, " ", 1)
    rest = re.sub(rf"(Step |第){step_number}(?!\d)", " ", rest, count=1)
    return re.findall(r"\d+", rest)


def outcomes_for(problem: str, steps: list[str], critique: StepCritique | None = None):
    return combine(check_step_list(problem, steps), critique)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    a=st.integers(2, 500),
    b=st.integers(2, 40),
    c=st.integers(2, 40),
    off=st.integers(1, 9),
    chinese=st.booleans(),
)
def test_an_arithmetic_explanation_quotes_the_student_and_states_no_right_value(
    a: int, b: int, c: int, off: int, chinese: bool
) -> None:
    """Right work, then a false product, then a sum built on it (the final answer)."""
    total = a + b * c
    wrong = b * c + off
    if chinese:
        problem = ZH_PROBLEM.format(a=a, b=b, c=c)
        steps = [f"{a}+0={a}（个）", f"{b}×{c}={wrong}（个）", f"{a}+{wrong}={a + wrong}（个）"]
    else:
        problem = EN_PROBLEM.format(a=a, b=b, c=c)
        steps = [
            f"So {a} + 0 = {a}.",  # nothing but a calculation: shown right when it checks
            f"{b} × {c} = {wrong}",
            f"{a} + {wrong} = {a + wrong}",
        ]
    outcomes = outcomes_for(problem, steps)
    assert [(o.verdict, o.method) for o in outcomes] == [
        ("ok", "arithmetic"),
        ("wrong", "arithmetic"),
        ("ok", "arithmetic"),
    ]
    assert first_error(outcomes) == first_flagged(outcomes) == 1
    language = detect_language(problem + "\n" + "\n".join(steps))
    assert language == ("zh" if chinese else "en")
    text = explain(1, outcomes[1], language)
    assert text.startswith("第2步" if chinese else "Step 2")
    quoted = shown(outcomes[1].finding.claim or "")
    assert quoted in text and str(wrong) in quoted
    assert digits_besides(text, quoted, 2) == []
    # Neither the right product nor the right final answer is given away (unless the
    # student wrote that number themselves, in the quoted calculation).
    for right in {b * c, total}:
        if str(right) not in quoted:
            assert str(right) not in text


@pytest.mark.parametrize(
    ("problem", "steps", "wrong_at", "solution", "opening"),
    [
        ("Solve 2x + 3 = 11", ["2x = 11 - 3", "2x = 8", "x = 5"], 2, "4", "Step 3"),
        ("解方程 2x + 3 = 11", ["2x = 11 + 3", "2x = 14", "x = 7"], 0, "4", "第1步"),
        ("If 7 - 4x = 15, what is 8x + 2?", ["7 - 4x = 15", "-4x = 22", "x = -5.5"], 1, "-2",
         "Step 2"),
        ("解方程：3(x - 1) = 12", ["3x - 3 = 12", "3x = 9", "x = 3"], 1, "5", "第2步"),
    ],
)  # fmt: skip
def test_an_equation_explanation_never_gives_the_solution(
    problem: str, steps: list[str], wrong_at: int, solution: str, opening: str
) -> None:
    outcomes = outcomes_for(problem, steps)
    assert outcomes[wrong_at].verdict == "wrong" and outcomes[wrong_at].method == "equation"
    assert all(o.method == "equation" for o in outcomes if o.verdict != "unchecked")
    language = detect_language(problem + "\n" + "\n".join(steps))
    text = explain(wrong_at, outcomes[wrong_at], language)
    assert text.startswith(opening)
    quoted = shown(outcomes[wrong_at].finding.claim or "")
    assert quoted in text and digits_besides(text, quoted, wrong_at + 1) == []
    assert not re.search(rf"(?<![\d.]){re.escape(solution)}(?![\d.])", text.replace(quoted, ""))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_model_flag_explains_in_our_words_not_the_models(language: str) -> None:
    """The model's own explanation may hold the answer: it is never shown; the student reads
    a fixed sentence naming the step."""
    problem = (
        "A baker fills 7 trays with 13 muffins each and sells all but 5. How many are sold?"
        if language == "en"
        else "面包师装了7盘松饼，每盘13个，除了5个都卖掉了。卖了多少个？"
    )
    steps = ["7 × 13 = 91", "91 - 7 = 84"]
    critique = StepCritique(1, 0.95, "It should subtract 5: the answer is 86.", "m:x:step_critique",
                            claimed=1, probability=0.95)  # fmt: skip
    outcomes = outcomes_for(problem, steps, critique)
    assert [(o.verdict, o.method) for o in outcomes] == [("ok", "arithmetic"), ("wrong", "llm")]
    text = explain(1, outcomes[1], detect_language(problem + "\n".join(steps)))
    assert text.startswith("Step 2" if language == "en" else "第2步")
    assert "86" not in text and "subtract 5" not in text
    assert digits_besides(text, "", 2) == []


def test_each_step_reports_the_method_that_decided_it() -> None:
    """Equation-proved, arithmetic-checked and unread steps keep their own method; steps the
    model vouched for before its flag are `ok` by `llm` only where no check decided them."""
    problem = "Solve 2x + 3 = 11, then find 3x."
    steps = ["2x = 8", "Now divide both sides by two.", "x = 4", "3 × 4 = 12", "So 3x is 13."]
    alone = outcomes_for(problem, steps)
    assert [(o.verdict, o.method) for o in alone] == [
        ("ok", "equation"),
        ("unchecked", None),
        ("ok", "equation"),
        ("ok", "arithmetic"),
        ("unchecked", None),
    ]
    critique = StepCritique(4, 0.9, "", "m:x:step_critique", claimed=4, probability=0.9)
    judged = outcomes_for(problem, steps, critique)
    assert [(o.verdict, o.method) for o in judged] == [
        ("ok", "equation"),
        ("ok", "llm"),
        ("ok", "equation"),
        ("ok", "arithmetic"),
        ("wrong", "llm"),
    ]
    assert first_error(judged) == first_flagged(judged) == 4


def test_a_step_proved_right_is_never_reported_wrong() -> None:
    """Work whose every line the derivation check proves: no model claim can make a step of
    it wrong (the critique is set aside whole), so no wrong step is reported."""
    problem = "Solve 2x + 3 = 11"
    steps = ["2x + 3 = 11", "2x = 8", "x = 4"]
    findings = check_step_list(problem, steps)
    assert [(f.verdict, f.method) for f in findings] == [("ok", "equation")] * 3
    for named in range(len(steps)):
        critique = StepCritique(named, 0.99, "", "m:x:step_critique", claimed=named,
                                probability=0.99)  # fmt: skip
        outcomes = combine(findings, critique)
        assert [o.verdict for o in outcomes] == ["ok"] * 3
        assert first_flagged(outcomes) is None


@pytest.mark.parametrize(
    "steps",
    [
        ["He thinks about how many are left.", "18 - 6 = 11", "11 × 2 = 22"],
        ["先算出剩下的苹果。", "18-6=11（个）", "11×2=22（个）"],
    ],
)
def test_a_false_calculation_after_an_unread_step_is_flagged_not_claimed_first(
    steps: list[str],
) -> None:
    problem = "Tom has 18 apples and gives away 6. Then he buys twice as many as he has left."
    outcomes = outcomes_for(problem, steps)
    assert [o.verdict for o in outcomes] == ["unchecked", "wrong", "ok"]
    assert first_flagged(outcomes) == 1 and first_error(outcomes) is None


def test_right_k12_work_is_never_flagged() -> None:
    """Exact calculations in the notations a student writes: every step checks, none wrong."""
    problem = "小明有18个苹果，送给同学6个，又买了剩下的2倍。现在有多少个？"
    cases = [
        ["18-6=12（个）", "12×2=24（个）", "12+24=36（个）"],
        ["18 − 6 = 12", "12 \\times 2 = 24", "12 + 24 = 36"],
        ["\\(18 - 6 = 12\\)", "\\(\\frac{1}{2} \\times 48 = 24\\)", "$12 + 24 = 36$"],
        ["剩下 18-6=12 个", "买了 12×2=24 个", "一共 12+24=36 个"],
    ]
    for steps in cases:
        outcomes = outcomes_for(problem, steps)
        assert first_flagged(outcomes) is None, steps
        assert all(o.verdict == "ok" for o in outcomes), (steps, outcomes)


def test_fraction_values_are_not_stated_either() -> None:
    """A false fraction calculation: the explanation quotes it; its exact value (5/6) is not
    stated anywhere else."""
    problem = "Add the fractions."
    steps = ["1/2 + 1/3 = 2/5"]
    outcomes = outcomes_for(problem, steps)
    assert outcomes[0].verdict == "wrong"
    text = explain(0, outcomes[0], "en")
    assert "5/6" not in text and Fraction(1, 2) + Fraction(1, 3) == Fraction(5, 6)
    quoted = shown(outcomes[0].finding.claim or "")
    assert quoted == "1/2 + 1/3 = 2/5" and digits_besides(text, quoted, 1) == []


def test_an_unchecked_finding_has_no_explanation_text_to_leak() -> None:
    finding = StepFinding("unchecked", None, None, "")
    assert [o.verdict for o in combine([finding], None)] == ["unchecked"]


@pytest.mark.parametrize(
    ("language", "opening"),
    [("en", "Step 2: going to x = 4 loses"), ("zh", "第2步：变到「x = 4」时丢掉")],
)
def test_a_lost_root_is_explained_as_a_loss(language: str, opening: str) -> None:
    outcomes = outcomes_for("Solve x^2 - 4x = 0", ["x^2 = 4x", "x = 4"])
    text = explain(1, outcomes[1], language)
    assert text.startswith(opening) and "0" not in text  # the lost root is not named


@pytest.mark.parametrize(
    ("language", "opening"),
    [("en", "Step 1: 2x = 10 does not have the same solution as the equation in the problem"),
     ("zh", "第1步：「2x = 10」和题目中方程的解不一样")],
)  # fmt: skip
def test_a_wrong_first_line_is_explained_against_the_problem(language: str, opening: str) -> None:
    """There is no line before step 1: the equation it departs from is the problem's."""
    outcomes = outcomes_for("Solve 2x + 3 = 11", ["2x = 10", "x = 5"])
    assert outcomes[0].verdict == "wrong"
    assert explain(0, outcomes[0], language).startswith(opening)


@pytest.mark.parametrize(
    ("problem", "steps", "wrong"),
    [
        # The sign not turned around when dividing by -2 (was never judged).
        ("Solve -2x + 4 > 10", ["-2x > 6", "x > -3"], 1),
        ("解不等式 -2x + 4 ≥ 10", ["-2x ≥ 6", "x ≥ -3"], 1),
        ("Solve 3x + 1 ≤ 7 for x", ["3x ≤ 8", "x ≤ 8/3"], 0),  # copied wrong: 7 - 1 is 6
        ("Solve -2x + 4 > 10", ["-2x > 6", "x < -3"], None),
        ("Solve 5 - x < 2", ["-x < -3", "x > 3"], None),
        ("Solve 3x > 10", ["x > 3.33"], None),  # a rounded bound: not judged
        ("Solve x^2 > 4", ["x > 2"], None),  # one case of two: not judged
        # No inequality in the problem: the classic slip is still judged against the line
        # before it; a list of separate conditions is not a derivation (was flagged wrong on
        # a right MATH solution: a triangle's three inequalities).
        ("How many whole numbers x work?", ["-2x + 4 > 10", "-2x > 6", "x > -3"], 2),
        (
            "Two sides of a triangle are 2 and 4. How long can the third side be?",
            ["2 + 4 > x", "2 + x > 4", "4 + x > 2", "x < 6", "x > 2", "x > -2"],
            None,
        ),
    ],
)
def test_a_linear_inequality_keeps_its_solution_set(
    problem: str, steps: list[str], wrong: int | None
) -> None:
    findings = check_step_list(problem, steps)
    flagged = [i for i, f in enumerate(findings) if f.verdict == "wrong"]
    assert flagged == ([] if wrong is None else [wrong])
    if wrong is not None:
        outcome = combine(findings, None)[wrong]
        text = explain(wrong, outcome, detect_language(problem))
        assert "inequality" in text or "不等式" in text
        assert ("turns the inequality sign around" in text or "不等号要改变方向" in text) == (
            wrong > 0
        )
