"""Round 7 of the adversarial findings (an independent tester on the model path, 2026-11-28):
`verified` means right. Each case failed before its fix.

G1: a lead-in the reader did not know ("Homework:", "Help me with", "帮我算一下") left the
problem unread, so a wrong answer one model echoed was verified and a right one was caution.
G2: two points were compared as sets: "(3, 2)" matched a verifier's "(2, 3)".
"""

from __future__ import annotations

import pytest

from app.symbolic.checker import answers_equivalent, check_answer
from app.symbolic.steps import check_step_list


@pytest.mark.parametrize(
    ("problem", "right", "wrong"),
    [
        ("Homework: 7x - 4 = 24", "x = 4", "x = 5"),
        ("Homework: 7x - 4 = 24", "4", "5"),
        ("HW: 3/4 + 5/6", "19/12", "8/10"),
        ("Math homework: 12 * 13", "156", "146"),
        ("作业：3/4 + 5/6", "19/12", "8/10"),
        ("Help me with 12 * 13", "156", "146"),
        ("Help me solve 2x + 3 = 11", "x = 4", "x = 5"),
        ("Can you help me solve 2x + 3 = 11?", "4", "5"),
        ("Please help me with this problem: 2x + 3 = 11", "x = 4", "x = 5"),
        ("Help me expand (x+1)^2", "x^2 + 2x + 1", "x^2 + 1"),
        ("帮我算一下 12 × 13", "156", "146"),
        ("请帮我解方程 2x + 3 = 11", "x = 4", "x = 5"),
    ],
)
def test_a_lead_in_asking_for_help_leaves_the_problem_read(
    problem: str, right: str, wrong: str
) -> None:
    assert check_answer(problem, right).verdict == "approve"
    assert check_answer(problem, wrong).verdict == "reject"


@pytest.mark.parametrize(
    "problem",
    [
        "Help me with half of 12",  # "half" is mathematics the reader does not model
        "Homework: what is 12 more than 3 doubled?",
        "Help me check whether x = 5 solves 2x + 3 = 11",
    ],
)
def test_words_after_the_lead_in_are_still_read_strictly(problem: str) -> None:
    assert check_answer(problem, "6").verdict == "abstain"


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("(3, 2)", "(2, 3)", False),
        ("(3,2)", "(3, 2)", True),
        ("(1/2, 3)", "(0.5, 3)", True),
        ("(3, 2)", "2, 3", None),  # a point, or two roots listed: not told
        ("2, 3", "3, 2", None),  # roots in any order, or an ordered pair? not told
        ("4 and 7", "7 and 4", None),
        ("4 and 7", "4, 7", True),
        ("{2, 3}", "{3, 2}", True),  # a set
    ],
)
def test_points_are_compared_in_order(a: str, b: str, same: bool | None) -> None:
    assert answers_equivalent(a, b) is same


# ---------------------------------------- a second tester on the symbolic path (2026-11-29)
# G3: a function name in a step was dropped as prose: "cos(0) = 0" was read "(0) = 0", ok.
# G4: "the product of the roots of x³ - 8 = 0" was 2 (the real root), verified; Vieta says 8.
# G5: x² + 2x + 1 = -5 after x² + 2x + 5 = 0 kept the (empty) real solution set: "ok".
# G6: a stated equation refuted an answer to a changed one ("再把方程中的11换成13").


@pytest.mark.parametrize(
    "step",
    [
        "cos(0) = 0",
        "ln(1) = 1",
        "exp(0) = 0",
        "abs(-5) = -5",
        "cbrt(8) = 8",
        "sin(90) = 90",
        "lg(100) = 100",
        "reciprocal(2) = 2",
        "abs(-3) = 3",  # true ones are not called wrong either
        "log10(1000) = 3",
        "log2(8) = 3",
        "sin(30) = 0.5",
    ],
)
def test_a_step_through_a_function_is_never_judged_without_it(step: str) -> None:
    (finding,) = check_step_list("Calculate 1 + 1", [step])
    assert finding.verdict == "unchecked", finding


def test_sqrt_in_a_step_is_still_judged() -> None:
    ok, wrong = check_step_list("Calculate 1 + 1", ["sqrt(9) = 3", "sqrt(9) = 4"])
    assert (ok.verdict, wrong.verdict) == ("ok", "wrong")


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("Find the product of the roots of x^3 - 8 = 0", "2"),
        ("Find the product of the roots of x^3 - 8 = 0", "8"),
        ("Find the sum of all roots of x^3 - 1 = 0", "1"),
        ("What is the product of the roots of x^4 - 16 = 0", "-4"),
        ("Find the sum of the roots of x^2 - 4x + 4 = 0", "2"),  # a double root
    ],
)
def test_a_sum_or_product_of_roots_that_real_roots_do_not_settle_is_not_judged(
    problem: str, answer: str
) -> None:
    assert check_answer(problem, answer).verdict == "abstain"


@pytest.mark.parametrize(
    ("problem", "right", "wrong"),
    [
        ("Find the sum of the roots of x^2 - 5x + 6 = 0", "5", "6"),
        ("Find the product of the real roots of x^3 - 8 = 0", "2", "8"),
        ("Find the sum of all solutions of x^2 = 9", "0", "3"),
    ],
)
def test_a_sum_or_product_of_roots_all_real_is_judged(problem: str, right: str, wrong: str) -> None:
    assert check_answer(problem, right).verdict == "approve"
    assert check_answer(problem, wrong).verdict == "reject"


def test_a_step_with_no_real_root_is_judged_by_its_complex_roots() -> None:
    slip = check_step_list("Solve x^2 + 2x + 5 = 0", ["x^2 + 2x + 1 = -5", "(x+1)^2 = -5"])
    assert slip[0].verdict == "wrong"
    right = check_step_list("Solve x^2 + 2x + 5 = 0", ["x^2 + 2x + 1 = -4", "(x+1)^2 = -4"])
    assert [f.verdict for f in right] == ["ok", "ok"]


@pytest.mark.parametrize(
    "problem",
    [
        "解方程 2x + 3 = 11，再把方程中的11换成13，求x",
        "Solve 2x + 3 = 11, x in km, answer in m",
        "Solve 2x + 3 = 11 with x in dozens; answer in units",
    ],
)
def test_a_stated_equation_refutes_nothing_once_the_words_change_it(problem: str) -> None:
    assert check_answer(problem, "x = 5").verdict == "abstain"
    assert check_answer("Solve for x in the equation 2x + 3 = 11", "x = 5").verdict == "reject"


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [("1.61 km", "abstain"), ("1.6", "abstain"), ("1.609344 km", "approve"), ("1.7 km", "reject")],
)
def test_a_conversion_rounded_as_it_is_written_is_not_wrong(answer: str, verdict: str) -> None:
    """1 mile is 1.609344 km exactly: "1.61 km" was called wrong (the second tester's M6)."""
    assert check_answer("Convert 1 mile to km", answer).verdict == verdict


@pytest.mark.parametrize("answer", ["e^0", "pi^0"])
def test_a_constant_to_the_power_zero_is_not_worked_out(answer: str) -> None:
    """ "e^0" for 3 - 2 was correct while 1^0 and 0! were not (the second tester's M1)."""
    assert check_answer("Calculate 3 - 2", answer).verdict == "abstain"
    assert check_answer("Calculate 3 - 2", "1").verdict == "approve"


# ---------------------------------------- the second tester on the model path (2026-11-29)
# G7: a stated equation behind "please!!", "Homework problem 3:" or before "What is n?" did not
# refute a model's x = 5 (verified when its verifier agreed).
# G8: "4 and 7" matched a verifier's "7 and 4" for an ordered pair; "$43" matched 43 marbles.


@pytest.mark.parametrize(
    ("problem", "wrong"),
    [
        ("Solve 7x - 4 = 24 please!!", "x = 5"),
        ("Homework problem 3: 7x - 4 = 24", "x = 5"),
        ("Sam's number n satisfies 7n - 4 = 24. What is n?", "n = 5"),
        ("2x + 3 = 11. What is x?", "x = 5"),
    ],
)
def test_a_stated_equation_refutes_behind_more_wordings(problem: str, wrong: str) -> None:
    assert check_answer(problem, wrong).verdict == "reject"
    assert check_answer(problem, wrong.replace("5", "4")).verdict in ("approve", "abstain")


def test_an_exclamation_after_an_equation_is_not_read_as_a_factorial() -> None:
    """'Solve 7x - 4 = 24!' rejected the right x = 4 (7x - 4 = 24! was solved)."""
    assert check_answer("Solve 7x - 4 = 24!", "x = 4").verdict == "abstain"
    assert check_answer("Solve x! = 24", "x = 4").verdict == "approve"
    assert check_answer("What is 5!", "120").verdict == "approve"


def test_a_sum_of_money_is_no_count_of_marbles() -> None:
    marbles = "Mia has 17 marbles and buys 26 more at the fair. How many marbles does she have?"
    assert answers_equivalent("$43", "43", marbles) is None
    assert answers_equivalent("43", "43", marbles) is True
    assert answers_equivalent("$43", "43", "Tom buys 3 pens. How much does he spend?") is True


@pytest.mark.parametrize(
    ("problem", "wrong", "right"),
    [
        (
            "Solve x + y = 10 and x - y = 4 for the club. Find x and y.",
            "x = 3, y = 7",
            "x = 7, y = 3",
        ),
        ("Solve x + y = 10, x - y = 4 with care", "x = 3, y = 8", "x = 7, y = 3"),
    ],
)
def test_a_stated_system_refutes_values_that_break_it(problem: str, wrong: str, right: str) -> None:
    assert check_answer(problem, wrong).verdict == "reject"
    assert check_answer(problem, right).verdict in ("approve", "abstain")
    assert check_answer(problem, "x = 7").verdict == "abstain"  # y has no value: not judged


@pytest.mark.parametrize("problem", ["-50 increased by 10%", "-50增加10%"])
def test_a_percent_change_of_a_negative_number_is_not_read(problem: str) -> None:
    """ "-50 increased by 10%" was verified as -55: the value went down (the second tester)."""
    assert check_answer(problem, "-55").verdict == "abstain"
    assert check_answer("50 increased by 10%", "55").verdict == "approve"


@pytest.mark.parametrize(
    ("problem", "answer", "verdict"),
    [
        ("Round 2.345 to the nearest tenth", "2.30", "abstain"),  # a hundredths place shown
        ("Round 2.345 to the nearest tenth", "2.3", "approve"),
        ("Solve 3x = 10 to the nearest tenth", "x = 3.30", "abstain"),
        ("Round 1234 to the nearest ten", "1230", "approve"),
        ("将 3.996 保留两位小数", "4.00", "approve"),
    ],
)
def test_a_rounded_answer_shows_the_places_asked(problem: str, answer: str, verdict: str) -> None:
    assert check_answer(problem, answer).verdict == verdict


@pytest.mark.parametrize(
    ("step", "verdict"),
    [
        ("√16+9 = 5", "unchecked"),
        ("√16×4 = 8", "unchecked"),
        ("√16+9 = 13", "ok"),
        ("√16+9 = 14", "wrong"),
        ("√(16+9) = 5", "ok"),
    ],
)
def test_a_typed_radical_is_read_with_either_reach(step: str, verdict: str) -> None:
    """√16+9 = 5 was wrong in a step, though typed radical scope is ambiguous (the tester)."""
    (finding,) = check_step_list("Calculate 1 + 1", [step])
    assert finding.verdict == verdict


def test_an_equation_someone_wrote_is_stated_unless_it_was_a_mistake() -> None:
    told = "Mia wrote 2x + 3 = 11 on the board. What is x?"
    assert check_answer(told, "x = 5").verdict == "reject"
    assert check_answer(told, "x = 4").verdict in ("approve", "abstain")
    for slip in ("Mia wrote 2x + 3 = 11 incorrectly. Find x.", "Mia mistakenly wrote 2x + 3 = 11."):
        assert check_answer(slip, "x = 5").verdict == "abstain"


# ---------------------------------------- a third tester on the model path (2026-11-29)
# G9: "Please help!!", "please!!" after the equation, "x 是多少？", a comma before "what is n?",
# "Solve the system …" and answers "6" or "(5, 5)" to the unknowns asked left a wrong model
# answer unrefuted (verified when its verifier agreed; `correct` in /v1/checks).


@pytest.mark.parametrize(
    ("problem", "wrong", "right"),
    [
        ("Please help!! 4(n - 2) = 20, what is n?", "6", "7"),
        ("Please help!! 4(n - 2) = 20, what is n?", "n = 6", "n = 7"),
        ("Help me with 2x + 3 = 11 please!!", "5", "4"),
        ("帮我算一下 2(x + 1) = 10，x 是多少？", "x = 5", "4"),
        ("Solve the system x + y = 10, x - y = 2 please!!", "x = 5, y = 5", "x = 6, y = 4"),
        ("Homework: x + y = 10 and x - y = 2. Find x and y please!!", "(4, 6)", "(6, 4)"),
        ("Help me: 3x + 2y = 12 and x - y = -1, find x and y", "(3, 2)", "(2, 3)"),
    ],
)
def test_a_stated_equation_refutes_under_more_wordings(
    problem: str, wrong: str, right: str
) -> None:
    assert check_answer(problem, wrong).verdict == "reject"
    assert check_answer(problem, right).verdict in ("approve", "abstain")


def test_a_bare_number_is_no_value_of_x_where_a_follow_up_is_asked() -> None:
    assert check_answer("Solve 2x + 3 = 11, then double it", "8").verdict == "abstain"
