"""The symbolic step checks: arithmetic claims and derivation lines, sound first.

A flag must land only on a truly wrong step: every case the reader cannot read beyond doubt
(a unit not read, a ratio, a rounded value, a running total, a value word) is unchecked."""

from __future__ import annotations

import pytest

from app.symbolic.step_arithmetic import claims_in, read_step
from app.symbolic.step_equations import derivation_verdicts, read_equation
from app.symbolic.steps import check_step_list


def verdicts(step: str) -> list[str]:
    return [c.verdict for c in claims_in(step)]


@pytest.mark.parametrize(
    "step",
    [
        "18 - 6 = 12",
        "1/3 × 18 = 6",
        "$18 \\times 2 = $36",
        "\\(2 \\text{ books} \\times 2 \\text{ pounds/book} = 4 \\text{ pounds}\\)",
        "3 plates × $6.00/plate = $18.00",
        "\\frac{3}{4} \\times 8 = 6",
        "2^{10} = 1024",
        "\\sqrt{16} + 1 = 5",
        "1,200 + 300 = 1,500",
        "1{,}200 + 300 = 1{,}500",
        "20% × 50 = 10",
        "100/3 = 33.33",  # plainly rounded
        "100/3 ≈ 33",
        "Divide and round: 100/3 = 33",
        "18-6=12（个）",
        "The answer is 7 + 8 = 15 apples.",
        "(5 + 3 = 8)",
        "180 minutes (before dinner) + 80 minutes (homework) = 260 minutes",
        "2(3 + 4) = 14",
        "-9 + (-8) = -17",
        "- \\(7 \\cdot 9 = 63\\), so the units digit is 3",  # after a list bullet
    ],
)
def test_right_calculations_check(step: str) -> None:
    assert verdicts(step) and set(verdicts(step)) == {"ok"}, claims_in(step)


@pytest.mark.parametrize(
    ("step", "claim"),
    [
        ("18 - 6 = 11", "18 - 6 = 11"),
        ("First, 4 + 4 = 9 cookies.", "4 + 4 = 9"),
        ("$18 \\times 2 = $38", "38"),
        ("\\frac{3}{4} \\times 8 = 5", "= 5"),
        ("12.5 × 4 = 50.5", "50.5"),
        ("18-6=13（个）", "13"),
        ("3 + 4 = 7 and 5 + 2 = 8", "5 + 2 = 8"),
        ("\\[ \\text{Total Cost} = \\$10 + \\$24 + \\$12 + \\$14 = \\$50 \\]", "50"),
        (
            "\\[ \\text{Total fruits} = 52 + 24 + 44 + 48 \\] \\[ \\text{Total fruits} = 178 \\]",
            "178",
        ),
        ("Cost = $194/meter × 490 meters = $94,860.", "94860"),
    ],
)
def test_a_false_calculation_is_wrong(step: str, claim: str) -> None:
    wrong = [c for c in claims_in(step) if c.verdict == "wrong"]
    assert len(wrong) == 1 and claim in wrong[0].text, claims_in(step)


@pytest.mark.parametrize(
    "step",
    [
        "3 × 20 = 1 hour",  # a conversion inside a calculation, one side bare
        "x - 5 = 12",  # algebra
        "total - 5 = 12",  # a fragment: what is "total"?
        "half of 18 = 9",
        "2 and 1/2 × 4 = 10",  # a mixed number in words
        "3\\frac{4}{5} = \\frac{19}{5}",  # a mixed number in LaTeX
        "3:30 + 1 = 4:30",  # a time
        "5! = 120",
        "3 x 4 = 12",  # x: times or a variable?
        "3xy + 5xy = 8xy",
        "J_c = 3 \\times 22 = 65",  # a subscript: not translated, nothing beside it judged
        "0.\\overline{6} = \\frac{2}{3}",  # a repeating decimal
        "\\[ 8x \\equiv 5 \\pmod{399} \\]\n- 399 = 49 \\cdot 8 + 7",  # a list bullet
    ],
)
def test_what_cannot_be_read_beyond_doubt_is_not_flagged(step: str) -> None:
    assert "wrong" not in verdicts(step), claims_in(step)


@pytest.mark.parametrize(
    ("step", "why"),
    [
        ("100/3 = 33", "rounded to a whole"),
        ("100/3 = 33.34", "rounded the other way"),
        ("33.33 × 3 = 100", "rounded to a whole"),
        ("0.33 × 300 = 99.5", "consistent with rounded inputs"),
        ("0.25 × 100 = 25%", "percent written loosely"),
        ("2 + 3 = 5 + 4 = 9", "running total"),
        ("-25/2 = -25/2 + 30 = 35/2", "running total"),
    ],
)
def test_doubtful_claims_are_unchecked(step: str, why: str) -> None:
    (claim,) = claims_in(step)
    assert (claim.verdict, claim.why) == ("unchecked", why)


@pytest.mark.parametrize(
    "step",
    [
        # Real model solutions (the MAV MATH run, GSM8K): false however the % is read.
        "Percentage increase = (168.96 square inches / 384 square inches) * 100% = 43.96%",
        "1220 students / 1600 students * 100% = 80%",
        "0.25 × 100 = 20%",
        "20% × 50 = 12",
        "60% + 30% = 80%",
    ],
)
def test_a_percent_false_under_every_reading_is_wrong(step: str) -> None:
    (claim,) = claims_in(step)
    assert claim.verdict == "wrong", claim
    assert "whether its % means hundredths or not" in claim.why


@pytest.mark.parametrize(
    "step",
    [
        "0.25 × 100 = 25%",  # % as a mark
        "2/3 = 66.67%",  # a rounded percent
        "7/8 = 88%",
        "1/3 = 33%",
        "33% × 300 = 100",  # 33% may be a rounded third, as 0.33 may
        "33.33% × 300 = 100",
        "100% - 20% = 80",
        "200 × 1.05 = 210%",
    ],
)
def test_a_percent_true_under_one_reading_is_not_flagged(step: str) -> None:
    assert verdicts(step) == ["unchecked"], claims_in(step)


def test_a_whole_in_percent_is_exact() -> None:
    # "× 100%" is × 1: never a rounded 1.00 that would excuse 43.96 for 44
    assert verdicts("(45/60) × 100% = 75%") == ["ok"]
    assert verdicts("(45/60) × 100% = 70%") == ["wrong"]


def test_prose_that_goes_on_to_more_math_is_not_a_unit() -> None:
    # "can be rewritten as" once read as a unit of 3, making 4^3 = 2^6 look false
    assert verdicts("4^3 can be rewritten as (2^2)^3 = 2^6") == ["ok"]


def test_huge_or_undefined_values_are_not_judged() -> None:
    assert verdicts("9^9^9 = 5 + 1") == []
    assert verdicts("5 / 0 + 1 = 3") == []
    assert verdicts("2^{1000} + 1 = 3") == []


# ---------------------------------------------------------------- derivations


def test_reading_an_equation_line() -> None:
    line = read_equation("So \\(2x = 8\\).")
    assert line is not None and line.text == "2x = 8" and str(line.variable) == "x"
    assert read_equation("The area is 2x = 8 square units") is None  # prose
    assert read_equation("x + y = 5") is None  # two unknowns
    assert read_equation("sqrt(x) = 3") is None  # squaring may gain roots: not judged


def test_a_line_with_none_of_the_solutions_is_wrong() -> None:
    found = derivation_verdicts("Solve 2x + 3 = 11", ["2x = 11 - 3", "2x = 8", "x = 5"])
    assert [found[i].verdict for i in range(3)] == ["ok", "ok", "wrong"]


def test_the_first_line_is_checked_against_the_problem() -> None:
    found = derivation_verdicts("Solve 2x + 3 = 11", ["2x = 11 + 3", "2x = 14", "x = 7"])
    # the slip is the first line; the lines after it follow from it correctly
    assert [found[i].verdict for i in range(3)] == ["wrong", "ok", "ok"]


def test_a_case_split_is_not_a_lost_root() -> None:
    steps = ["(x-2)(x-3) = 0", "x - 2 = 0", "x = 2", "x - 3 = 0", "x = 3"]
    found = derivation_verdicts("Solve x^2 - 5x + 6 = 0", steps)
    assert "wrong" not in {v.verdict for v in found.values()}


def test_without_a_readable_problem_the_first_line_is_the_reference() -> None:
    found = derivation_verdicts("Find the number.", ["3x = 12", "x = 3"])
    assert found == {1: found[1]} and found[1].verdict == "wrong"


def test_substituting_into_the_question_keeps_the_solution() -> None:
    problem = "If 7 - 4x = 15, what is the value of 8x + 2?"
    found = derivation_verdicts(problem, ["7 - 4x = 15", "-4x = 8", "x = -2", "8x + 2 = -14"])
    assert [v.verdict for v in found.values()] == ["ok"] * 4


# ---------------------------------------------------------------- one finding per step


def test_findings_per_step() -> None:
    problem = "If 7 - 4x = 15, what is the value of 8x + 2?"
    steps = ["7 - 4x = 15", "-4x = 22", "We move on.", "8(-5.5) + 2 = -40", "8(-5.5) + 2 = -42"]
    findings = check_step_list(problem, steps)
    assert [(f.verdict, f.method) for f in findings] == [
        ("ok", "equation"),
        ("wrong", "equation"),
        ("unchecked", None),
        ("wrong", "arithmetic"),
        ("ok", "arithmetic"),
    ]
    assert findings[3].claim is not None and "-40" in findings[3].claim


@pytest.mark.parametrize("step", ["7 × 9 = 3 mod 10", "9 + 5 = 2 pm", "10 + 5 = 3 o'clock"])
def test_clock_and_residue_arithmetic_is_not_flagged(step: str) -> None:
    assert "wrong" not in verdicts(step), claims_in(step)


@pytest.mark.parametrize(
    ("problem", "step"),
    [
        ("In base 5, what is 4 + 3?", "4 + 3 = 12"),
        ("Find 123_4 + 32_4.", "3 + 2 = 11, carry 1"),
        ("What is the remainder of 7 × 9 divided by 10?", "\\(7 \\cdot 9 \\equiv 3\\), 7 × 9 = 3"),
    ],
)
def test_no_flag_where_numerals_may_be_in_another_system(problem: str, step: str) -> None:
    (finding,) = check_step_list(problem, [step])
    assert finding.verdict != "wrong", finding


def test_hostile_steps_cost_an_abstention_not_an_error() -> None:
    steps = [
        "(" * 500 + "1" + ")" * 500 + " + 1 = 3",  # deeper than the evaluator goes
        "\\frac{" * 30 + "1" + "}{2}" * 30 + " + 1 = 2",  # deeper than the translator goes
        "(10^60)^64 = 1",  # too large to judge
        "Solve: (x+1)^1000 = 0",
    ]
    findings = check_step_list("Solve (x+1)^1000 = 0", steps)
    assert [f.verdict for f in findings] == ["unchecked"] * 4


def test_a_lost_root_is_wrong_when_every_solution_is_asked_for() -> None:
    found = derivation_verdicts("Solve x^2 = 4x", ["x^2 - 4x = 0", "x = 4"])
    assert (found[0].verdict, found[1].verdict) == ("ok", "wrong")  # divided by x


@pytest.mark.parametrize(
    ("problem", "steps"),
    [
        ("Solve x^2 = 4x", ["x^2 - 4x = 0", "x(x - 4) = 0", "x = 0", "x = 4"]),  # cases
        ("Solve x^2 = 16", ["x = 4", "x = -4"]),  # the solutions listed one per line
        ("What is the larger solution of x^2 - 5x + 6 = 0?", ["(x-2)(x-3) = 0", "x = 3"]),
        ("Solve x^2 = 4x for x > 0", ["x = 4"]),  # a condition drops the other root
        ("The side of the square satisfies x^2 = 16.", ["x^2 = 16", "x = 4"]),  # a length
    ],
)
def test_a_root_dropped_for_a_reason_is_not_flagged(problem: str, steps: list[str]) -> None:
    found = derivation_verdicts(problem, steps)
    assert "wrong" not in {v.verdict for v in found.values()}, found


@pytest.mark.parametrize(
    "step",
    [
        # Found by running the checker over GSM8K's reference solutions (right work, sloppy
        # notation): each of these once read as a false calculation.
        "So the property costs 98*3400 = $333,200.00",  # thousands with cents
        "If the price is $0.10 per kW, then 60 kW would cost = $0.10*60 = $6",  # prose as unit
        "There are 60 minutes in an hour so 1 hour 20 minutes = (60+20) minutes = 80 minutes",
        "The Donaldsons pay $15/hour = 15*7 = $105.",  # a rate names the calculation
        "8 batches = 5.5 * 8 = 44 cups",  # a count names it
        "Subtract Weeks 3-4 from Weeks 1-2 = 96 - 70 = 26",  # a range names it
        "So, Bea earned $2.50 - $2.24 = 26 cents more than Dawn.",  # dollars to cents
        "The 25 decorations were 1/3 of the total, so he used 25 / 1/3 = 75 decorations",
        "(2/5)*500cm³ = 200cm³",  # the power belongs to the unit
        "The proportions total 2.46 because .8 + . 84 + .82 = 2.46",  # a broken decimal
        "The shop loses 5 thousand dollars a day, so in three days 5 * 3 = $15,000.",
        "Therefore X = 9 because - 18/-2 = 9",  # "because" is no unit
        "Howie gets cupcakes for his 25 classmates + his 1 teacher + 1 himself = 27 people.",
        "He has to leave 0130 hours earlier than 0900 i.e. 0900-0130 = 0730 hours",  # times
        "Lazlo = 4 pounds - 6 ounces = 58 ounces",  # mixed units
        "10 pages per day on day 1 * 2 = 20 pages per day",  # "day 1" is an index
        "In one hour, there are 60 / 15 = 4 (15 minutes).",
        "1 cheese +1 meat *+1 vegetable = 3 bad choices",  # an operator typed twice
        "On a map, \\(\\frac{1}{2} \\text{ inch} = 20 \\text{ miles}\\)",  # a scale
    ],
)
def test_sloppy_but_right_work_is_not_flagged(step: str) -> None:
    assert "wrong" not in verdicts(step), claims_in(step)


def test_a_derivation_against_its_own_first_line_is_judged_only_step_to_step() -> None:
    # The first line misreads the problem; a later line fixes it: no flag on the fix.
    steps = ["14-2*k=64", "2*k=64+14=78", "2k=78", "k=78/2=39"]
    found = derivation_verdicts("14 less than two times the number of koi is 64.", steps)
    assert "wrong" not in {v.verdict for v in found.values()}, found


def test_a_machine_printed_float_is_not_a_wrong_rounding() -> None:
    assert verdicts("Each truck carries 2000 / 75 = 26.666666666666668 flagstones.") == [
        "unchecked"
    ]
    assert verdicts("2000 / 75 = 26.666666666666") == ["unchecked"]  # cut off: not a rounding
    assert verdicts("2000 / 75 = 26.766666666666668") == ["wrong"]


@pytest.mark.parametrize(
    ("problem", "step"),
    [
        # Found on Gemini's MATH solutions (right work): conversions between made-up units,
        # sides in different units the reader does not know.
        ("", "(4 daps) / 7 = (7 yaps) / 7"),
        ("", "1 bap = (5/3) yaps = (5/3) * (4/7) daps = (20/21) daps"),
        ("", "Multiply the first equation by 5: (4 daps = 7 yaps) * 5 = 20 daps = 35 yaps"),
        # a conversion factor written as a quotient of quantities (worth 1, numerically 1/60)
        ("", "70 miles/hour * 1 hour/60 miles/hour = 70 miles/hour"),
        # notation read two ways: a / b × c, a / b(c), -3^2, 2^3^2
        ("", "12 ÷ 2(3) = 2"),
        ("", "6/2 × 3 = 1"),
        ("", "\\frac{1}{2} \\div \\frac{1}{4} \\times 2 = 1"),
        ("", "x = -3, so x^2 = -3^2 = 9"),
        ("", "2^3^2 = 64"),
        # a percent written as a number, when a percent is in play
        ("A shirt costing $50 is 20% off. How much is saved?", "50 × 20 = 10"),
        ("What percent of 60 is 45?", "45/60 = 75"),
        ("The price rose from 50 to 60. By what percent?", "(60 - 50)/50 = 20"),
        # rounding the problem asks for, a round number for a non-whole value
        ("Round your answer to the nearest hundred.", "3456 + 1234 = 4700"),
        ("", "1000000 / 3 = 333,000"),
        # a running total written as one chain, with any operator
        ("", "5 + 3 = 8 × 2 = 16"),
        ("", "10 - 4 = 6 / 2 = 3"),
        # what the writer asks, supposes, denies or takes back is not claimed
        ("", "Is 3 × 7 = 20?"),
        ("", "5 + 3 = 9 is wrong"),
        ("", "If 2 + 2 = 5, then anything follows."),
        ("", "12 × 2 = 22, oops, 12 × 2 = 24"),
        ("", "18-6=11不对，18-6=12"),
        ("", "Hence, \\(\\frac{1}{5} = \\frac{1}{2}\\), which is a contradiction."),
        ("", "Then \\[(-1)(-1)(4)(4) = 65,\\]which is a contradiction."),
    ],
)
def test_misreadings_abstain(problem: str, step: str) -> None:
    assert "wrong" not in [c.verdict for c in claims_in(step, problem)], claims_in(step, problem)


@pytest.mark.parametrize(
    ("problem", "step"),
    [
        # the same shapes, false beyond doubt, are still flagged
        ("", "(4 daps) / 7 = (8 daps) / 7"),
        ("", "12 ÷ 2(3) = 5"),
        ("", "50 × 20 = 10"),  # no percent in play
        ("", "3456 + 1234 = 4700"),  # no rounding asked for
        ("", "500 + 600 = 1000"),  # a sum of whole numbers is not rounded
        ("", "12000 + 3100 = 15000"),
        ("", "4 × 5 = 20 × 3 = 50"),  # the chain goes on from 20, and 60 ≠ 50
        ("", "2 + 3 × 4 = 20"),  # the order of operations is not a matter of notation
        ("Planets take 360 and 450 days to rotate around the sun.", "2^3 * 3^3 = 8 * 27 = 226"),
        ("", "Out of 40 guests, 36 got one, leaving 40 - 36 = 5 guests who did not get one."),
    ],
)
def test_false_beyond_doubt_is_still_flagged(problem: str, step: str) -> None:
    assert "wrong" in [c.verdict for c in claims_in(step, problem)], claims_in(step, problem)


@pytest.mark.parametrize(
    ("step", "alone"),
    [
        ("18 - 6 = 12", True),
        ("18-6=12（个）", True),
        ("So 7 + 8 = 15.", True),
        ("Total cost = $10 + $24 = $34", True),
        ("\\[ \\text{Total fruits} = 52 + 24 \\] \\[ \\text{Total fruits} = 76 \\]", True),
        ("He has 18 - 6 = 12 apples left.", False),
        ("The slope is \\(\\frac{2}{2} = 1\\), so steeper lines miss the square.", False),
        ("Step 1: 5 + 3 = 8", True),  # a step number, as "1. 5 + 3 = 8"
        ("3 + 4 = 7, 7 × 2 = 14", True),  # two claims, both read (the second was not)
    ],
)
def test_a_line_of_nothing_but_calculations(step: str, alone: bool) -> None:
    reading = read_step(step)
    assert reading.claims and reading.calculations_only is alone, reading


def test_only_steps_shown_right_vouch_for_a_first_error() -> None:
    """Right calculations inside prose do not show the step right: the reasoning around them
    was not read (ProcessBench math-66: `\\frac{2}{2}=1`, then a false conclusion)."""
    from app.verification.step_verdicts import combine, first_error, first_flagged

    problem = "Tom has 18 apples and gives away 6. Then he buys twice as many as he has left."
    bare = ["18 - 6 = 12", "12 × 2 = 22"]
    prose = ["He gives away 6, so he has 18 - 6 = 12 and buys twice that.", "12 × 2 = 22"]
    for steps, claimed in ((bare, 1), (prose, None)):
        findings = check_step_list(problem, steps)
        assert [f.verdict for f in findings] == ["ok", "wrong"]
        outcomes = combine(findings, None)
        assert (first_error(outcomes), first_flagged(outcomes)) == (claimed, 1)


# ---------------------------------------------------------------- the tester's right work


@pytest.mark.parametrize(
    ("problem", "steps"),
    [
        ("Solve 3x = 10", ["3x = 10", "x = 10/3", "x = 3.33"]),
        ("Solve 3x = 10, give x to 2 decimal places", ["3x = 10", "x = 3.33"]),
        ("解方程 3x = 10（结果保留两位小数）", ["3x = 10", "x = 3.33"]),
        ("Solve 3x = 1", ["3x = 1", "x = 0.333..."]),
        ("Solve 3x = 10", ["3x = 10", "x = 3.3"]),
        ("Find x to two places.", ["x = 22/7", "x = 3.14"]),
        ("Solve x^2 = 2 for x > 0", ["x^2 = 2", "x = 1.414"]),
    ],
)
def test_a_rounded_solution_is_never_wrong(problem: str, steps: list[str]) -> None:
    assert "wrong" not in [f.verdict for f in check_step_list(problem, steps)]


def test_a_solution_off_by_more_than_its_last_place_is_still_wrong() -> None:
    found = derivation_verdicts("Solve 3x = 10", ["3x = 10", "x = 3.5"])
    assert found[1].verdict == "wrong"


@pytest.mark.parametrize(
    ("problem", "steps"),
    [
        (
            "(a) Solve 2x + 3 = 11. (b) Solve 3x - 1 = 5.",
            ["2x + 3 = 11", "2x = 8", "x = 4", "3x - 1 = 5", "3x = 6", "x = 2"],
        ),
        ("Solve 2x + 3 = 11 and 3x - 1 = 5.", ["2x = 8", "x = 4", "3x = 6", "x = 2"]),
        (
            "（1）解方程 2x+3=11；（2）解方程 3x-1=5",
            ["2x+3=11", "2x=8", "x=4", "3x-1=5", "3x=6", "x=2"],
        ),
        (
            "Ann has some apples. If she had 3 more she would have 11. Bob has twice as many "
            "as Ann. How many does Bob have?",
            ["x + 3 = 11", "x = 8", "x = 2 × 8", "x = 16"],
        ),
        ("If x + 3 = 11, what is 2x?", ["x + 3 = 11", "x = 8", "x = 2 × 8", "x = 16"]),
    ],
)
def test_a_new_equation_after_a_solution_starts_afresh(problem: str, steps: list[str]) -> None:
    """Part (b) after part (a), or x reused for another quantity: not a step of the old
    derivation. The new one is still judged: a slip in it is found."""
    assert "wrong" not in [f.verdict for f in check_step_list(problem, steps)]


def test_a_slip_in_the_second_part_is_found() -> None:
    steps = ["2x = 8", "x = 4", "3x = 6", "x = 3"]
    found = check_step_list("Solve 2x + 3 = 11 and 3x - 1 = 5.", steps)
    assert [f.verdict for f in found] == ["unchecked", "ok", "unchecked", "wrong"]


@pytest.mark.parametrize("last", ["also x = 0", "x = 0 or x = 4", "so the roots are x = 0, x = 4"])
def test_a_lost_root_listed_later_in_words_is_no_loss(last: str) -> None:
    found = check_step_list("Solve x^2 - 4x = 0", ["x^2 = 4x", "x = 4", last])
    assert "wrong" not in [f.verdict for f in found]


def test_only_the_unknown_against_a_number_is_a_solved_line() -> None:
    solved = [read_equation(t) for t in ("x = 4", "4 = x", "x = 2x - 4", "2x = 8")]
    assert [e is not None and e.solved for e in solved] == [True, True, False, False]


@pytest.mark.parametrize(
    "steps",
    [
        ["x = 0.333...", "10x = 3.333...", "9x = 3", "x = 1/3"],
        ["x = 0.3636…", "100x = 36.3636…", "99x = 36", "x = 4/11"],
        ["x = 0.\\overline{3}", "10x = 3.\\overline{3}", "9x = 3", "x = 1/3"],
    ],
)
def test_a_repeating_decimal_turned_into_a_fraction_is_never_wrong(steps: list[str]) -> None:
    """0.333... is 1/3: read as 0.333 it would make 9x = 3 'lose the solution'."""
    found = check_step_list("Write the repeating decimal as a fraction", steps)
    assert "wrong" not in [f.verdict for f in found], found


def test_a_claim_is_quoted_with_the_students_ellipsis() -> None:
    finding = check_step_list("Compute", ["1 ÷ 3 = 0.444..."])[0]
    assert (finding.verdict, finding.claim) == ("wrong", "1 / 3 = 0.444...")


@pytest.mark.parametrize(
    "step", ["1/3 = 0.333...", "2/3 = 0.666...", "20/3 = 6.66...", r"$\frac{1}{7}=0.142857$..."]
)
def test_digits_that_go_on_are_no_cut_off(step: str) -> None:
    # the dots say the decimal continues: the digits written begin the exact value
    assert check_step_list("Round to the nearest hundredth.", [step])[0].verdict == "ok"


# ---------------------------------------------------------------- rounding asked for


@pytest.mark.parametrize(
    ("problem", "step"),
    [
        ("用去尾法保留一位小数：20÷3≈？", "20÷3≈6.6"),
        ("用进一法保留一位小数：10÷3≈？", "10÷3≈3.4"),
        ("用进一法保留两位小数：10÷3", "10÷3≈3.34"),
        ("用去尾法保留两位小数：200÷3", "200÷3≈66.66"),
        ("Round down to the nearest tenth: 20 ÷ 3", "20 ÷ 3 ≈ 6.6"),
        ("Round up to the nearest tenth: 10 ÷ 3", "10 ÷ 3 ≈ 3.4"),
        ("Truncate to two decimal places: 200 ÷ 3", "200 ÷ 3 ≈ 66.66"),
        # which way is asked is not read: a half-up rounding is not vouched for either
        ("Round up to the nearest tenth: 10 ÷ 3", "10 ÷ 3 ≈ 3.3"),
        # read another way the rounding is the one asked for
        ("What percent of 9 is 7? Round to the nearest hundredth of a percent.", "7/9 ≈ 77.78"),
        ("Evaluate -3^2 / 7 to two decimal places.", "-3^2/7 ≈ 1.29"),
        # a way asked after the number, or in other words (a tester's round)
        ("Round 7/9 down to the nearest hundredth.", "7/9 ≈ 0.77"),
        ("Round 7/9 downward to the nearest hundredth.", "7/9 ≈ 0.77"),
        ("Use floor to two decimal places.", "7/9 ≈ 0.77"),
        ("保留两位小数，多余的数位舍去。", "7/9 ≈ 0.77"),
        ("Write 2/3 to 2 decimal places, going downwards.", "2/3 ≈ 0.66"),
        ("Write 2/3 to the nearest hundredth (round-down).", "2/3 ≈ 0.66"),
        (
            "Round the price per kilogram down to the nearest hundredth: $20 for 3 kg.",
            "20 ÷ 3 ≈ 6.66",
        ),
        ("Write 2/3 to 2 decimal places, dropping the remaining digits.", "2/3 ≈ 0.66"),
        ("Write 2/3 to 2 decimal places, chopping off the rest.", "2/3 ≈ 0.66"),
        ("7÷9的商保留两位小数，多余的部分舍掉", "7÷9≈0.77"),
        ("7÷9的商保留两位小数（截取）", "7÷9≈0.77"),
        ("7÷9的商用“去尾”的方法保留两位小数。", "7÷9≈0.77"),
        ("7÷9的商保留两位小数（不进位）", "7÷9≈0.77"),
    ],
)
def test_a_rounding_the_problem_may_ask_for_is_not_wrong(problem: str, step: str) -> None:
    assert [f.verdict for f in check_step_list(problem, [step])] == ["unchecked"]


@pytest.mark.parametrize(
    ("problem", "step"),
    [
        ("用进一法保留一位小数：10÷3≈？", "10÷3≈3.5"),  # neither raised nor cut off
        ("保留一位小数：20÷3≈？", "20÷3≈6.6"),  # 四舍五入 is the default: 6.7
        ("Round to the nearest tenth: 20 ÷ 3", "20 ÷ 3 ≈ 6.6"),
        ("What percent of 9 is 7? Round to the nearest hundredth of a percent.", "7/9 ≈ 77.87"),
        ("Evaluate -3^2 / 7 to two decimal places.", "-3^2/7 ≈ 1.92"),
    ],
)
def test_a_value_no_reading_rounds_to_is_still_wrong(problem: str, step: str) -> None:
    assert [f.verdict for f in check_step_list(problem, [step])] == ["wrong"]


@pytest.mark.parametrize(
    ("step", "verdict"),
    [
        ("100/7 = 14.3 (approximately)", "ok"),
        ("2/3 ≈ 0.67 (rounded to the nearest hundredth)", "ok"),
        ("100/3 = 33.33 (approx.)", "ok"),
        ("100/7 = 14.27 (approx.)", "unchecked"),  # approximate: not judged a misrounding
        ("18 - 6 = 12（约）", "ok"),
        ("5 × 3 = 15 (apples)", "ok"),  # a unit, not a remark
    ],
)
def test_a_remark_on_rounding_in_parentheses_is_read_as_words(step: str, verdict: str) -> None:
    assert verdicts(step) == [verdict], claims_in(step)


@pytest.mark.parametrize(
    ("problem", "step"),
    [
        # the nearest rounding is not vouched for where a way is asked: 进一法 makes it 3
        ("每辆车坐45人，100人需要几辆车？（用进一法）", "100 ÷ 45 ≈ 2（辆）"),
        ("A bus holds 40 people. 130 people travel. How many buses? Round up.", "3.25 ≈ 3"),
        ("Round 1/3 up to the nearest whole number.", "1/3 ≈ 0"),
        ("Estimate by rounding up: 4.2 + 3.1", "4.2 + 3.1 ≈ 7"),
        ("Round 1/3 up to one decimal place.", "1/3 ≈ 0.3"),
        ("Round 2/3 down to two decimal places.", "2/3 ≈ 0.67"),
        # a whole count asked for asks a way: 3 buses are needed, 27 bottles
        (
            "100 students go on a trip. Each bus holds 45. How many buses are needed?",
            "100 ÷ 45 ≈ 2",
        ),
        ("有100名学生，每辆车坐45人，至少需要几辆车？", "100÷45≈2（辆）"),
        ("一个瓶子装0.4千克油，10.5千克油至少需要几个瓶子？", "10.5÷0.4=26.25≈26（个）"),
    ],
)
def test_a_nearest_rounding_where_a_way_is_asked_is_not_vouched_for(
    problem: str, step: str
) -> None:
    assert [f.verdict for f in check_step_list(problem, [step])] == ["unchecked"]


@pytest.mark.parametrize(
    ("problem", "step", "verdict"),
    [
        # "down" with "to" between is no way asked: the half-up rounding is judged
        ("Round to the nearest hundredth and write it down.", "7/9 ≈ 0.77", "wrong"),
        ("Round to the nearest hundredth and write it down.", "7/9 ≈ 0.78", "ok"),
        # a remark naming the places is prose, wherever its parentheses are
        ("Round to the nearest hundredth.", "1/3 ≈ 0.33 （保留两位小数）", "ok"),
        ("Round to 3 decimal places.", "1/3 ≈ 0.333 (to 3 d.p.)", "ok"),
        ("Round to 3 decimal places.", "1/3 ≈ 0.334 (to 3 d.p.)", "wrong"),
        # a remark holding a calculation is no remark: it is never read away as ok
        ("", "3 + 4 = 7 (rounded, since 45 + 37 = 83)", "unchecked"),
        ("", "(rounded: 2.5 × 4 = 11) 3 + 4 = 7", "unchecked"),
    ],
)
def test_rounding_words_that_ask_no_way_leave_the_rounding_judged(
    problem: str, step: str, verdict: str
) -> None:
    assert [f.verdict for f in check_step_list(problem, [step])] == [verdict]
