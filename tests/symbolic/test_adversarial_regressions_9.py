"""Round 9 (a third independent tester, 2026-11-29): a unit the problem uses was dropped from
both answers before they were compared, so a solver's "1200 kg" agreed with a verifier's
"1200 grams" and was `verified` (off by 1000×); and a right "12 m²" against a verifier's bare
"12" was a rejection (`caution`). Two measured answers are now compared as quantities, and a
bare number is read in the unit the question asks for."""

from __future__ import annotations

import pytest

from app.symbolic.checker import answers_equivalent, check_answer

FLOUR = "A recipe needs 1.2 kg of flour. How many grams of flour is that?"
AREA = "A room is 4 m long and 3 m wide. What is its area in square meters?"


@pytest.mark.parametrize(
    ("verifier", "solver", "problem"),
    [
        ("1200 grams", "1200 kg", FLOUR),
        ("1200", "1200 kg", FLOUR),
        ("3000 meters", "3000 km", "A path is 3 km long. How many meters is it?"),
        ("120 minutes", "120 hours", "A movie lasts 2 hours. How many minutes is that?"),
        ("2000 mL", "2000 L", "A bottle holds 2 L. How many mL is that?"),
        ("5000克", "5000千克", "一袋米5千克，合多少克？"),
        ("500厘米", "500米", "一根绳子长5米，合多少厘米？"),
        ("120分钟", "120小时", "一节课40分钟，3节课共多少小时？"),
    ],
)
def test_another_unit_is_another_answer(verifier: str, solver: str, problem: str) -> None:
    assert answers_equivalent(verifier, solver, problem) is False


@pytest.mark.parametrize(
    ("verifier", "solver", "problem"),
    [
        ("30 jiao", "30 yuan", "A pen costs 3 yuan. How many jiao is that?"),  # unlisted units
        ("3000", "3 km", "Sam walked 3 km, that is 3000 m. How far did he walk?"),
        ("72", "72 hours", "Natalia sold 48 clips in April and half as many in May. How many?"),
    ],
)
def test_units_that_cannot_be_told_apart_are_not_agreement(
    verifier: str, solver: str, problem: str
) -> None:
    assert answers_equivalent(verifier, solver, problem) is None


@pytest.mark.parametrize(
    ("verifier", "solver", "problem"),
    [
        ("1200", "1200 g", FLOUR),
        ("12", "12 m²", AREA),
        ("12 apples", "12", "Tom has 5 apples and buys 7 more. How many apples?"),
        ("3 km", "3", "Sam walked 3 km. How many km did he walk?"),
    ],
)
def test_the_same_quantity_agrees(verifier: str, solver: str, problem: str) -> None:
    assert answers_equivalent(verifier, solver, problem) is True


@pytest.mark.parametrize(
    ("problem", "right", "wrong"),
    [
        # arithmetic in words: a model's word was all the check had
        ("What is 2 plus 5?", "7", "8"),
        ("What is 2 minus 5?", "-3", "3"),
        ("What is 2 to the power of 10?", "1024", "1000"),
        ("What is 3 raised to the power of 2?", "9", "6"),
    ],
)
def test_arithmetic_in_words_is_read(problem: str, right: str, wrong: str) -> None:
    assert check_answer(problem, right).verdict == "approve"
    assert check_answer(problem, wrong).verdict == "reject"


@pytest.mark.parametrize(
    "problem",
    # spoken precedence is open ("2 plus 5, times 3"?), and ± is no subtraction: not read
    ["What is 2 plus 5 times 3?", "What is 10 minus 2 minus 3?", "What is 5 plus or minus 2?"],
)
def test_spoken_chains_are_not_read(problem: str) -> None:
    assert check_answer(problem, "7").verdict == "abstain"


def test_numbers_spelled_out_are_compared_as_their_digits() -> None:
    problem = "Tom has some apples. He gives 5 to Amy and has 7 left. How many did he have?"
    assert answers_equivalent("12", "twelve", problem) is True
    assert answers_equivalent("12", "十二", problem) is True
    assert answers_equivalent("12", "thirteen", problem) is False


# The fourth round: a right quantity unconverted ("1.2 kg" for grams) agreed with the
# verifier's converted one, a sum of dollars with a bare number of cents, and a right
# "50 cents" against "$0.50" was a rejection (caution).
CENTS = "A pen costs $3.50. How much do 2 pens cost in cents?"
CANDY = "A candy costs 25 cents. How much do 2 candies cost?"


@pytest.mark.parametrize(
    ("verifier", "solver", "problem"),
    [
        ("1200 g", "1.2 kg", "A bag of rice weighs 1.2 kg. How many grams is that?"),
        ("1200克", "1.2千克", "一袋米重1.2千克，合多少克？"),
        ("2000 mL", "2 L", "A jug holds 2 liters. How many milliliters is that?"),
        ("250", "2.5 m", "A rope is 3 m long. 50 cm is cut off. How many centimeters is it now?"),
        ("0.5", "5000平方米", "一块地长100米，宽50米，面积是多少公顷？"),
        ("1.2 kg", "1200 g", FLOUR),
        ("2", "120分钟", "一节课40分钟，3节课共多少小时？"),
    ],
)
def test_a_quantity_not_in_the_unit_asked_is_not_agreement(
    verifier: str, solver: str, problem: str
) -> None:
    assert answers_equivalent(verifier, solver, problem) is None


@pytest.mark.parametrize(
    ("a", "b", "problem", "same"),
    [
        ("700", "$700", CENTS, False),
        ("700 cents", "$7", CENTS, None),  # the same sum, not in cents
        ("$0.50", "50 cents", CANDY, True),
        ("$0.50", "50", CANDY, True),
        ("50 cents", "0.50", CANDY + " Answer in dollars.", None),
        ("70角", "7元", "一支笔3.5元，两支笔多少钱？", True),
        ("7", "7元", "一支笔3.5元，两支笔多少元？", True),
    ],
)
def test_sums_of_money_are_compared_as_sums(
    a: str, b: str, problem: str, same: bool | None
) -> None:
    assert answers_equivalent(a, b, problem) is same


@pytest.mark.parametrize(
    ("solver", "problem"),
    [
        # the fifth round: an honest verifier's bare "12" agreed with another count
        ("12 weeks", "Sara saves $4 a week for 3 weeks. How much money does she save?"),
        ("12 boxes", "Each box holds 6 apples. Tom has 2 boxes. How many apples does Tom have?"),
        ("12 pens", "A pen costs $3. How much do 4 pens cost?"),
        ("3 km", "Sam walked 3 km. How far did he walk?"),  # the question names no unit
    ],
)
def test_a_word_the_question_does_not_count_is_no_agreement(solver: str, problem: str) -> None:
    assert answers_equivalent(solver.split()[0], solver, problem) is None


TWENTY = "Tom had 20 apples. After eating some, he had 8 apples left. How many apples did he eat?"


@pytest.mark.parametrize(
    "solver",
    # the sixth round: read as its number, a sentence "agreed" with an honest verifier's bare
    # 12 while it claimed something else; and "12 cents" is no count of apples
    ["He has 12 apples left.", "Tom has 12 apples.", "He has 12 apples in total.", "12 cents"],
)
def test_a_sentence_or_a_sum_is_not_read_as_a_count(solver: str) -> None:
    assert answers_equivalent("12", solver, TWENTY) is None


def test_the_measure_word_the_question_counts_in_goes() -> None:
    assert answers_equivalent("56", "56个", "小明有7排苹果，每排8个，一共有多少个？") is True
    apples = "小明有5个苹果，又买了7个，现在一共有多少个苹果？"
    assert answers_equivalent("12", "12个", apples) is True
    assert answers_equivalent("13", "12个", apples) is False
    assert answers_equivalent("12", "12盒", apples) is None  # boxes are not what is counted
