"""A hedge is no answer: unsure words and different values offered as alternatives, unless
the problem is about chance or may have several answers. Most cases are an independent
tester's: each of the hedges was verified on an echoing verifier, or called `correct`."""

from __future__ import annotations

import pytest

from app.llm.hedges import hedges

APPLES = "Tom has 5 apples and buys 7 more. How many apples does he have now?"
APPLES_ZH = "小明有5个苹果，又买了7个。他现在有几个苹果？"


@pytest.mark.parametrize(
    "answer",
    [
        "12 or 13",
        "either 12 or 13",
        r"12 \text{ or } 13",
        "$12$ or $13$",
        "**12** or **13**",
        "12 or 13 red apples",
        "12 or 13 apples in total",
        "12 (or 13)",
        "x = 12 or 13",
        "The answer is 12 or 13",
        "It could be 12 or 13",
        "between 12 and 13",
        "12-13",
        "12 to 13",
        r"12 \pm 1",
        "12 | 13",
        r"12 \lor 13",
        "12 and/or 13",
        "12 либо 13",
        "12 ou 13",
        "maybe 12",
        "likely 12",
        "Most likely 12",
        "I would say 12",
        "I think it's 12",
        "12 or so",
        "12 (not certain)",
        "12 [guess]",
        "12 (probably)",
        "12?",
        "1/2 or 1/3",
        # spelled out, or listed where one value is asked
        "twelve or thirteen",
        "Twenty-one or twenty-two",
        "12, 13",
        "12 and 13",
        "12 and 13 apples",
        "12 apples, 13 apples",
    ],
)
def test_english_hedges(answer: str) -> None:
    assert hedges(answer, APPLES)


@pytest.mark.parametrize(
    "answer",
    [
        "12或13",
        "12 还是 13",
        "12～13",
        "12到13",
        "12至13",
        "不是12就是13",
        "要么12要么13",
        "可能12",
        "应该是12",
        "估计12",
        "大约12",
        "大概86个",
        "我猜12",
        "好像是12",
        "12吧",
        "12左右",
        "12？",
        "十二或十三",
        "两千或三千",
        "12、13",
        "12个和13个",
    ],
)
def test_chinese_hedges(answer: str) -> None:
    assert hedges(answer, APPLES_ZH)


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        # words that switched the check off: "solution", "m²", "possible", "can be", an "="
        # without an unknown, 根 the measure word, 所有, 解答
        ("A 10% salt solution: Tom has 5 apples and buys 7 more. How many apples?", "12 or 13"),
        ("What is the area, in m², of a rectangle 3 m by 4 m?", "12 or 13"),
        ("What is the greatest possible number of apples?", "12 or 13"),
        ("How many apples can be in his bag now?", "12 or 13"),
        ("Tom has 5 apples and buys 7 more (5 + 7 = ?). How many apples?", "12 or 13"),
        ("一根绳子长5米，又接上7米，现在绳子长几米？", "12或13"),
        ("所有同学一共有5个苹果，又买了7个，一共几个？", "12或13"),
        ("请解答：5+7等于几？", "12或13"),
        ("3/4 + 5/6 = ?", "19/12 or 1"),
        ("What is 7 × 8?", "56 (or 57)"),
        ("计算 7 × 8", "56吧"),
        # the second round: "square" centimeters, 平方厘米, 比 in a comparison, "distance",
        # "a certain number", 约分, an equation that only gives a value, 之间, a rounding
        ("A rectangle is 4 cm by 3 cm. What is its area in square centimeters?", "12 or 13"),
        ("长方形长4厘米，宽3厘米，面积是多少平方厘米？", "12或13"),
        ("小明有5个苹果，小红比小明多7个，小红有多少个？", "12或13"),
        ("A car travels at 60 km/h for 2 hours. What distance does it cover in km?", "120 or 130"),
        ("A certain number plus 5 is 17. What is the number?", "maybe 12"),
        ("把6/8约分。", "3/4吧"),
        ("If x = 5, what is x + 7?", "12 or 13"),
        ("What is the value of a + b if a = 5 and b = 7?", "12 or 13"),
        ("小明和小红之间有5个苹果，又来了7个，一共几个？", "12或13"),
        ("Round 12.4 to the nearest whole number.", "maybe 12"),
        (APPLES, "12 (13?)"),
        (APPLES, "about 12"),
        (APPLES, "approximately 12"),
        (APPLES, "≈ 12"),
        (APPLES, "~12"),
        # "about" in a problem is no estimate asked unless it is about a number
        ("A book about animals has 5 pages and 7 more. How many pages?", "about 12"),
    ],
)
def test_hedges_whatever_else_the_problem_says(problem: str, answer: str) -> None:
    assert hedges(answer, problem)


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("Solve x^2 - 5x + 6 = 0", "x = 2 or x = 3"),
        ("Solve x^2 - 5x + 6 = 0", "2 or 3"),
        ("x^2 = 9, find x", "x = 3 or x = -3"),
        ("|x| = 3. Find x.", "3 or -3"),
        ("The square of a number is 49. What is the number?", "7 or -7"),
        ("A number is 5 units away from 0 on the number line. What is it?", "5 or -5"),
        ("一个数的绝对值是5，这个数是多少？", "5或-5"),
        ("数轴上到原点距离是3的点表示的数是多少？", "3或-3"),
        ("Between which two consecutive whole numbers is 7.5?", "between 7 and 8"),
        ("What is the ratio of boys to girls?", "5 to 3"),
        # one value written two ways
        ("A coin is tossed. What is the probability of getting heads?", "1/2 or 50%"),
        ("What is 3 divided by 4?", "3/4 or 0.75"),
        # the problem is about chance, or asks for an estimate
        (
            "Will a spinner that is half red, half blue land on red? Certain, impossible or maybe?",
            "maybe",
        ),
        ("袋子里只有白球，摸出的球是红球吗？", "不可能是红球"),
        ("袋子里有红球和白球，摸出的球可能是什么颜色？", "可能是红球，也可能是白球"),
        ("Estimate 49 × 21.", "about 1000"),
        ("Which is bigger, 3/4 or 2/3?", "3/4"),
        (APPLES, "12"),
        (APPLES, "12 apples"),
        (APPLES, "12 - 5 = 7"),
        (APPLES, "1 7/12"),
        (APPLES, "$12.50"),
        (APPLES, "x = ±√2"),
        ("An isosceles triangle has sides 4 and 6. What is its perimeter?", "14 or 16"),
        ("等腰三角形两边长为4和6，周长是多少？", "14或16"),
        ("Write 10 boys to 6 girls in simplest form.", "5 to 3"),
        ("Simplify 10:6", "5 to 3"),
        ("The final score was 21 to 14. What was the score?", "21-14"),
        ("解不等式 (x-2)(x+1)>0", "x<-1或x>2"),
        ("Solve (x-2)(x+1)>0", "x < -1 or x > 2"),
        ("Point A is at 4 on a number line. Point B is 3 units from A. Where is B?", "1 or 7"),
        ("What is 1 ÷ 3?", "1/3 or 0.33"),
        ("What is 1 ÷ 3?", "0.333 or 1/3"),
        ("How many grams are in a kilogram?", "1,000 or 1000"),
        ("Round 12.4 to the nearest whole number.", "about 12"),
        ("Estimate 49 × 21.", "≈ 1000"),
        ("About how many pages are in 49 books of 21 pages?", "about 1000"),
        ("A trip is 90 minutes. How long is it in hours and minutes?", "1 hour, 30 minutes"),
        ("A trip is 90 minutes. How long is that?", "1 hour, 30 minutes"),
        (APPLES, "12, since 5 + 7 = 12"),
        (APPLES, "12 (5 + 7)"),
        (APPLES, "twelve"),
        (APPLES_ZH, "一共有十二个"),
        ("Tom has 5 apples and 7 pears. How many apples and pears does he have?", "5 and 7"),
        ("小明和小红各有几个苹果？小明有5个，小红比他多7个。", "5、12"),
        ("Find two consecutive numbers whose sum is 25.", "12, 13"),
        ("How many apples does each of the two boys get?", "6, 6"),
        ("(a) How many apples does Tom have? (b) How many does Jerry have?", "12, 13"),
        ("小明有几个苹果，小红有几个苹果？", "12、13"),
        # differences in recorded MATH answers (the MAV run): no range
        ("In the figure, CDEG is a square with CD = 3. Find the length.", r"3\sqrt{2} - 3"),
        ("Point D lies strictly between B and C. Find BD.", r"10 - 4 \sqrt{3}"),
        ("The complex numbers a and b satisfy ab = -1 + 5i. Find b.", "-1 - 5i"),
    ],
)
def test_right_answers_are_not_hedges(problem: str, answer: str) -> None:
    assert not hedges(answer, problem)


# The third tester round: each was `verified` or `correct` on an echoing verifier's word.
AT_FIRST = "Tom has some apples. He gives 5 to Amy and has 7 left. How many did he have at first?"
AT_FIRST_ZH = "小明有一些苹果，给了小红5个后还剩7个。小明原来有多少个苹果？"


@pytest.mark.parametrize(
    "answer",
    [
        "at least 12",
        "12 or more",
        "12 apples at most",
        "12 ≤ n ≤ 13",
        "≥12",
        "12+",
        "12 plus",
        "more than 11",
        "fewer than 13",
        "11 < n < 13",
        "12ish",
        "12 give or take",
        "12 (estimate)",
        "12\n13",
        "12\t13",
        "12 13",
        "12 ,13",
        "12 (13)",
        "12 = 13",
        "12...13",
        "12…13",
        "12|13",
        "12 vs 13",
        "12 apples / 13 apples",
        r"\boxed{12}, \boxed{13}",
        "Answer: 12. Alternatively 13.",
        "12 (if Amy returned one, 13)",
        "12 apples; 13 if counting Amy's",
        "not 13",
        "12 ｏｒ 13",  # full width
        "12 оr 13",  # a Cyrillic о
        "12\u200b,\u200b13",
        "12 oder 13",
    ],
)
def test_bounds_and_disguised_alternatives_are_hedges(answer: str) -> None:
    assert hedges(answer, AT_FIRST)


@pytest.mark.parametrize(
    "answer",
    [
        "七八个",
        "十二三个",
        "至少12个",
        "12个以上",
        "不少于12个",
        "12多个",
        "12来个",
        "12个上下",
        "12个/13个",
        "12个 13个",
    ],
)
def test_chinese_rough_counts_and_bounds_are_hedges(answer: str) -> None:
    assert hedges(answer, AT_FIRST_ZH)


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("What is 3/4 + 5/6?", "1 7/12"),
        ("How many people live in the town of 12 000?", "12 000"),
        ("一共有多少个？", "三十二个"),
        ("How long is 90 minutes?", "1 hour 30 minutes"),
        ("What fraction of the cake is left?", "8/9"),
        ("How many buses are needed at least?", "at least 5 buses"),
        ("至少需要多少辆车？", "至少需要5辆"),
        ("What is the smallest number of marbles she can have?", "100 or more"),
        ("Solve 2x > 6", "x > 3"),
        (AT_FIRST, "7 + 5 = 12"),
        (AT_FIRST, "12 (7 + 5)"),
        (AT_FIRST, "12 apples, since 7 + 5 = 12"),
        ("What is 1/3 as a decimal?", "0.333..."),
        # two values compared, as the documented answers to a comparison (two testers found
        # "3/4 > 5/7" refused as a bound: no answer at all to 比较大小 on a scan)
        ("Which is larger, 3/4 or 5/7?", "3/4 > 5/7"),
        ("Compare 3/4 and 5/7", "5/7 < 3/4"),
        ("比较大小：3/4和5/7", "3/4 > 5/7"),
        ("比较3/4和5/7的大小", "3/4>5/7"),
    ],
)
def test_right_answers_with_bounds_spaces_or_dots_are_not_hedges(problem: str, answer: str) -> None:
    assert not hedges(answer, problem)
