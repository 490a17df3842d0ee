"""Claims whose sides carry different units (3 km = 3000 m, 2 × 1.5 hours = 180 minutes):
judged in one unit when every unit is read beyond doubt, left unchecked otherwise."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.symbolic.step_arithmetic import claims_in


def verdicts(step: str, problem: str = "") -> list[str]:
    return [c.verdict for c in claims_in(step, problem)]


@pytest.mark.parametrize(
    "step",
    [
        "3 km = 3000 m",
        "1 hour = 60 minutes",
        "2 hours 30 minutes = 150 minutes",
        "2 × 1.5 hours = 180 minutes",
        "1 h 30 min = 90 min",
        "1 hour 30 minutes = 90 minutes",
        "5 feet 6 inches = 66 inches",
        "3 m + 20 cm = 320 cm",
        "Lazlo = 4 pounds - 6 ounces = 58 ounces",
        "15 minutes * 1 hour/60 minutes = .25 hours",
        "3.5米 = 350厘米",
        "500毫升 = 0.5升",
        "1.2米 + 30厘米 = 150厘米",
        "1.5小时 = 90分钟",
        "3小时30分钟 = 210分钟",
        "3.5千米 + 500米 = 4千米",
        "100 minutes = 1.67 hours",  # rounded, as a plain number may be
        "2 hours × 60 = 120 minutes",  # the conversion factor written bare
        "90 minutes / 60 = 1.5 hours",
    ],
)
def test_a_right_conversion_is_ok(step: str) -> None:
    assert verdicts(step) == ["ok"], claims_in(step)


@pytest.mark.parametrize(
    ("step", "why"),
    [
        ("5 kg = 500 g", "5000 g ≠ 500 g"),
        ("2 hours = 100 minutes", "120 minutes ≠ 100 minutes"),
        ("3 km = 300 m", "3000 m ≠ 300 m"),
        ("1 h 30 min = 80 min", "90 min ≠ 80 min"),
        ("2 × 3 feet = 70 inches", "72 inches ≠ 70 inches"),
        ("3米 = 30厘米", "300 厘米 ≠ 30 厘米"),
        ("5千克 = 500克", "5000 克 ≠ 500 克"),
        ("2小时 = 100分钟", "120 分钟 ≠ 100 分钟"),
        # every number with its unit: 1 + 30 = 31 excuses nothing (once marked ok)
        ("The first movie is 1 hour + 30 minutes = 31 minutes.", "90 minutes ≠ 31 minutes"),
        ("1200 inches + 720 inches + 120 feet = 2040 feet", "280 feet ≠ 2040 feet"),
        ("72 km/h = 2 m/s", "20 m/s ≠ 2 m/s"),  # a compound unit is one unit
        ("36 km/h = 11 m/s", "10 m/s ≠ 11 m/s"),
    ],
)
def test_a_wrong_conversion_is_wrong(step: str, why: str) -> None:
    (claim,) = claims_in(step)
    assert claim.verdict == "wrong" and claim.why.startswith(why), claim


@pytest.mark.parametrize(
    ("problem", "step"),
    [
        ("", "3 m = 3 s"),  # two dimensions
        ("", "6 km / 2 km = 3 m"),  # a ratio, not a length
        ("", "3 m × 2 m = 6 m"),
        ("", "1 分 = 6 秒"),  # 分: a minute or a cent
        ("", "3时 + 2小时 = 6时"),  # 时: three o'clock
        ("", "5 mins = 30 seconds"),  # a spelling not read
        ("", "20 daps = 35 yaps"),
        ("", "5 km × 60 = 300 m"),  # true for its numbers only: no verdict either way
        ("", "On a map, 1 cm = 5 km"),
        ("The scale of the drawing is 1 cm to 2 m.", "3 cm = 6 m"),
        ("", "Bea earned $2.50 - $2.24 = 26 cents more"),  # money stays as it was
        ("", "3:30 + 1 h = 4:30"),  # a time of day
        ("", "It takes (60/60) hours and 30 minutes = 1 hour 30 minutes"),  # goes on leftwards
        ("", "5 miles = 8 km"),  # rounded to a whole
    ],
)
def test_what_is_not_read_beyond_doubt_is_not_flagged(problem: str, step: str) -> None:
    assert "wrong" not in verdicts(step, problem), claims_in(step, problem)
    assert "ok" not in verdicts(step, problem), claims_in(step, problem)


# (larger unit, smaller unit, how many smaller in one larger)
CONVERSIONS = [
    ("km", "m", 1000),
    ("m", "cm", 100),
    ("kg", "g", 1000),
    ("hours", "minutes", 60),
    ("minutes", "seconds", 60),
    ("feet", "inches", 12),
    ("yards", "feet", 3),
    ("pounds", "ounces", 16),
    ("L", "mL", 1000),
    ("米", "厘米", 100),
    ("升", "毫升", 1000),
    ("千米", "米", 1000),
    ("千克", "克", 1000),
    ("小时", "分钟", 60),
]


def decimal(value: Fraction, places: int) -> str:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    rounded = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return format(rounded.normalize(), "f")


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(CONVERSIONS),
    st.integers(1, 10_000),
    st.integers(0, 2),
    st.booleans(),
    st.integers(0, 3),
)
def test_a_right_conversion_is_never_flagged(
    conversion: tuple[str, str, int], number: int, places: int, downward: bool, shown: int
) -> None:
    larger, smaller, factor = conversion
    value = Fraction(number, 10**places)
    if downward:  # 2.5 hours = 150 minutes
        step = f"{decimal(value, places)} {larger} = {decimal(value * factor, places)} {smaller}"
    else:  # 150 minutes = 2.5 hours, rounded to `shown` places where it does not end
        step = f"{decimal(value, places)} {smaller} = {decimal(value / factor, shown)} {larger}"
    assert "wrong" not in verdicts(step), claims_in(step)


@pytest.mark.parametrize(
    "step",
    ["1 ounce = 30 g", "1 kg = 2.2 pounds", "1 inch = 3 cm", "1 mile = 1.5 km", "1 lb = 500 g"],
)
def test_a_rough_metric_to_customary_factor_is_never_wrong(step: str) -> None:
    """Such factors are rounded by habit or given by the problem ("use 1 ounce = 30 g"): a
    claim between the systems is no slip to flag (within one system the factor is exact)."""
    (claim,) = claims_in(step)
    assert claim.verdict != "wrong", claim


@pytest.mark.parametrize(
    ("problem", "steps"),
    [
        (
            "A floor plan: 1 cm on the plan is 2 m in the house. The kitchen is 3 cm long on "
            "the plan. How long is the kitchen?",
            ["1 cm = 2 m", "3 cm = 6 m"],
        ),
        ("In the picture, 1 cm is 10 m. How tall is a 5 cm tree?", ["5 cm = 50 m"]),
        ("In the diagram, 1 cm corresponds to 3 m.", ["4 cm = 12 m"]),
        ("在平面图中，1厘米对应实际2米。", ["5厘米 = 10米"]),
        ("在一幅地图中，1厘米相当于实地50千米。", ["4厘米 = 200千米"]),
        ("照片中1厘米等于实际10米。", ["5厘米 = 50米"]),
        (
            "On Mars a day lasts about 25 hours. How many hours are 3 Martian days?",
            ["1 day = 25 hours", "3 days = 75 hours"],
        ),
        ("Workers work 8 hours a day. How many hours in 5 days?", ["5 days = 40 hours"]),
        ("工人每天工作8小时，5天工作多少小时？", ["5天 = 40小时"]),
        (
            "A worker works 8 hours per day, 5 days a week.",
            ["1 week = 5 days", "2 weeks = 10 days"],
        ),
        (
            "A recipe uses 250 g of butter for every 1 kg of flour.",
            ["1 kg = 250 g", "3 kg = 750 g"],
        ),
        ("In a game, 1 game hour lasts 2 real minutes.", ["1 hour = 2 minutes"]),
        ("A clock gains 5 minutes every hour.", ["1 hour = 5 minutes"]),
    ],
)
def test_a_correspondence_the_problem_sets_up_is_no_conversion(
    problem: str, steps: list[str]
) -> None:
    for step in steps:
        claims = claims_in(step, problem)
        assert [c.verdict for c in claims] == ["unchecked"], step
        assert claims[0].why == "the problem relates these units itself"


@pytest.mark.parametrize(
    ("problem", "step"),
    [
        ("Convert 3 km to m", "3 km = 300 m"),
        ("How many minutes are in 2.5 hours?", "2.5 hours = 120 minutes"),
        ("3.5米等于多少厘米？", "3.5米 = 35厘米"),
        ("How many grams are 5 kg?", "5 kg = 500 g"),
    ],
)
def test_a_plain_conversion_question_keeps_its_flags(problem: str, step: str) -> None:
    assert verdicts(step, problem) == ["wrong"]


@pytest.mark.parametrize(
    ("step", "verdict"),
    [
        # after a number, km/h is one unit (it was read as a division by the variable h)
        ("100 ÷ 4 = 25 km/h", "ok"),
        ("100 ÷ 4 = 26 km/h", "wrong"),
        ("100000 ÷ 10800 ≈ 9.26 m/s", "ok"),
        ("72 km/h = 20 m/s", "ok"),
        ("90 km/h ÷ 60 = 1.5 km/min", "ok"),
        ("5 m/s × 60 = 300 m/min", "ok"),
        ("20 m/s × 3.6 = 72 km/h", "ok"),
        ("4 km/h + 2 km/h = 7 km/h", "wrong"),
        ("72 km/h × 1000 ÷ 3600 = 20 m/s", "unchecked"),  # true for its numbers only
        ("10 m/s = 36 mph", "unchecked"),  # metric to customary, rounded
        ("v = d/t = 100/4 = 25 m/s", "ok"),  # the letters of the formula stay prose
    ],
)
def test_a_compound_unit_after_a_number_is_one_unit(step: str, verdict: str) -> None:
    assert verdicts(step) == [verdict], claims_in(step)


@pytest.mark.parametrize(
    "step",
    [
        # the numbers agree; the factor goes the other way for the units (a tester's round)
        "72 km/h × 3.6 = 259.2 m/s",
        "72 km/h × 60 = 4320 km/min",
        "6 m/s ÷ 60 = 0.1 m/min",
        "120 minutes × 60 = 7200 hours",
        "3 km ÷ 1000 = 0.003 m",
    ],
)
def test_a_conversion_factor_the_wrong_way_round_is_wrong(step: str) -> None:
    (claim,) = claims_in(step)
    assert claim.verdict == "wrong" and "goes the other way" in claim.why, claim


@pytest.mark.parametrize(
    "step",
    ["72 km/h ÷ 3.6 = 20 m/s", "3 km × 1000 = 3000 m", "2 × 1.5 hours × 60 = 180 minutes"],
)
def test_a_conversion_factor_the_right_way_round_is_ok(step: str) -> None:
    assert verdicts(step) == ["ok"], claims_in(step)


def test_a_compound_unit_with_a_power_is_not_read() -> None:
    # g/cm^3 is no unit the units module reads: equal numbers prove nothing of kg/m^3
    assert verdicts("2 g/cm^3 ÷ 1000 = 0.002 kg/m^3") == []
