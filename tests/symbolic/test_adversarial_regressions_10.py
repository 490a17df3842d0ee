"""A tester round of 2026-12-02 and MATH's own wordings.

Typed notation a reader takes two ways is refused in a question, as the step checker already
leaves it unjudged: a radical's bar over a sum (`√16+9`: 13, or √(16+9) = 5) and a chain of
powers (`2^3^2`: 512 by the convention, 64 to many students). An answer states a value and is
read by the convention (`√2 + 2`). New readings, each checked both ways: the units digit and
the number of factors of a whole number, MATH's closing "Express your answer as a common
fraction." as the answer's form, imperatives ("Multiply 2/3 by 4/7"), a LaTeX fraction among
words, a repeating decimal without its whole part, binomial coefficients, and a function
defined then asked at numbers ("If f(x) = 2x + 1, what is f(3)?")."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer
from app.symbolic.solver import solve_text


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("√16+9 = ?", "13"),
        ("√16+9 = ?", "5"),
        ("√16 - 7 = ?", "-3"),
        ("Solve √x + 1 = 3", "x = 4"),
        ("2^3^2 = ?", "512"),
        ("2^3^2 = ?", "64"),
        ("Compute 2^2^3.", "256"),
        # a second tester: 9^1/2 is written for the root as often as for (9^1)/2; ∛ has a bar
        ("What is 9^1/2?", "3"),
        ("What is 9^1/2?", "9/2"),
        ("What is 2^-1/2?", "1/4"),
        ("If f(x) = x^1/2, what is f(9)?", "3"),
        ("What is ∛8 + 1?", "3"),
    ],
)
def test_typed_notation_read_two_ways_is_refused(problem: str, answer: str) -> None:
    assert solve_text(problem) is None
    assert check_answer(problem, answer).verdict == "abstain"


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("√(16+9) = ?", "5"),
        ("√(16)+9 = ?", "13"),
        ("$\\sqrt{16}+9$ = ?", "13"),
        ("2^(3^2) = ?", "512"),
        ("2^{3^2} = ?", "512"),
        ("(2^3)^2 = ?", "64"),
    ],
)
def test_brackets_say_which(problem: str, answer: str) -> None:
    solution = solve_text(problem)
    assert solution is not None and solution.final_answer == answer
    assert check_answer(problem, answer).verdict == "approve"


def test_an_answer_is_read_by_the_convention() -> None:
    problem = "Compute $\\sqrt{2}\\cdot\\sqrt{2}+\\sqrt{2}$."
    for answer in ("√2 + 2", "2 + √2", "\\sqrt{2} + 2"):
        assert check_answer(problem, answer).verdict == "approve", answer
    assert check_answer(problem, "√2 + 3").verdict == "reject"


@pytest.mark.parametrize(
    ("problem", "right", "wrong"),
    [
        ("What is the units digit of $19^{19}+99^{99}$?", "8", "9"),
        ("What is the units digit of $19^{19}$?", "9", "1"),
        ("2^10的个位数字是多少？", "4", "2"),
        ("How many positive factors does 48 have?", "10", "8"),
        ("How many divisors does 36 have?", "9", "8"),
        ("48有几个因数？", "10", "9"),
        ("What is the sum of the digits of $99+1$?", "1", "19"),
        (
            "Compute $0.\\overline{7}-0.\\overline{4}+0.\\overline{2}$. Express your answer as a "
            "common fraction.",
            "\\frac 59",
            "\\frac 49",
        ),
        (
            "Express $1.\\overline{234}$ as an improper fraction.",
            "\\frac{137}{111}",
            "\\frac{137}{110}",
        ),
        ("Calculate $(.\\overline{6})(3)$.", "2", "1.8"),
        ("Multiply $\\frac{2}{3}$ by $\\frac{4}{7}$.", "\\frac{8}{21}", "\\frac{6}{21}"),
        (
            "What is the product of $\\frac{2}{3}$ and $\\frac{4}{7}$?",
            "\\frac{8}{21}",
            "\\frac{6}{7}",
        ),
        ("Subtract 5 from 12.", "7", "-7"),
        ("Divide 12 by 4.", "3", "48"),
        ("Add 3/4 and 5/6.", "19/12", "8/10"),
        ("Compute $\\dbinom{13}{4}+\\dbinom{13}{9}$.", "1430", "1431"),
        ("What is $\\binom{10}{3}$?", "120", "720"),
        ("If f(x) = 2x + 1, what is f(3)?", "7", "6"),
        ("Let f(x) = x^2. Find f(3) + f(-1).", "10", "8"),
        ("If f(x) = 2x + 1, what is f(f(2))?", "11", "5"),
        ("If f(x) = 2x + 1, what is f(1/2)?", "2", "3/2"),
        ("If f(x) = x^2 - 3x, find f(-2).", "10", "-2"),
        ("已知f(x)=2x+1，求f(3)的值", "7", "6"),
        ("Find the remainder when $2^{100}$ is divided by 7.", "2", "3"),
        ("What is the remainder when 2^10 is divided by 7?", "2", "146"),
        ("2^10除以7的余数是多少？", "2", "4"),
        (
            "If $f(x) = \\frac{3x-2}{x-2}$, what is the value of $f(-2) +f(-1)+f(0)$? Express "
            "your answer as a common fraction.",
            "\\frac{14}{3}",
            "\\frac{13}{3}",
        ),
    ],
)
def test_new_readings_approve_the_right_value_and_reject_a_wrong_one(
    problem: str, right: str, wrong: str
) -> None:
    assert check_answer(problem, right).verdict == "approve"
    assert check_answer(problem, wrong).verdict == "reject"


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        # the right value in another form than asked is not judged
        (
            "What is $\\frac12 + \\frac13$? Express your answer as a common fraction.",
            "0.8\\overline{3}",
        ),
        (
            "Compute $0.\\overline{7}-0.\\overline{4}$. Express your answer as a common fraction.",
            "2/6",
        ),
        # a form asked of an equation's root is not read
        ("Solve $3x = 2$. Express your answer as a common fraction.", "x = 0.667"),
        # which factors? which units digit?
        ("How many prime factors does 48 have?", "2"),
        ("How many positive even factors does 48 have?", "8"),
        ("How many integer factors does 48 have?", "10"),  # the negative ones too?
        ("What is the sum of the digits of 99 + 1?", "1"),
        ("What is the units digit of 3.5?", "5"),
        # a second operation said in words: which comes first is not guessed
        ("Divide 12 by 4 and then add 2.", "5"),
        ("Multiply 3 by 4 and subtract 2.", "10"),
        ("Express your answer as a common fraction.", "1"),
        # a binomial of letters, or with k > n
        ("Compute $\\binom{n}{2}$.", "10"),
        ("Compute $\\binom{2}{5}$.", "0"),
        # a function: another letter, a condition, an inverse, a call at a letter, another name
        ("If f(x) = ax + 1, what is f(3)?", "7"),
        ("If f(x) = 2x + 1 for x > 0, what is f(3)?", "7"),
        ("If f(x) = x^3, what is $f^{-1}(8)$?", "2"),
        ("If f(x) = 2x + 1, what is f(x + 1)?", "2x + 3"),
        ("If f(x) = 2x + 1, what is g(3)?", "7"),
        ("If f(x) = 2x + 1 and f(a) = 7, what is a?", "3"),
        # a remainder of a power past 1,000 digits, of 0^0, or with the quotient asked
        ("What is the remainder when 7^5000 is divided by 3?", "1"),
        ("What is the remainder when 0^0 is divided by 7?", "1"),
        ("Find the quotient and remainder when 2^10 is divided by 7", "146 R 2"),
    ],
)
def test_what_stays_unread(problem: str, answer: str) -> None:
    assert check_answer(problem, answer).verdict == "abstain"


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        # "pi" is no word an answer may carry: 2\pi was read as 2 with the problem's word
        ("What is 2\\pi?", "2\\pi"),
        ("What is 2 pi?", "2pi"),
        ("Compute $4\\pi + 5\\pi$.", "9\\pi"),
        ("Compute $4\\pi + 5\\pi$.", "9π"),
        ("What is $2\\pi \\cdot 3$?", "6\\pi"),
        ("If f(x) = \\pi x^2, what is f(3)?", "9π"),
        # an unknown the problem fixes itself: the answer gives the other
        ("Solve 2x + 3 = 11y with y = 1.", "x = 4"),
        ("Solve 2x + 3 = 11y, y = 1.", "x = 4"),
    ],
)
def test_right_answers_a_second_tester_saw_rejected(problem: str, answer: str) -> None:
    assert check_answer(problem, answer).verdict == "approve"


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("Solve 2x + 3 = 11 and a half.", "x = 17/4"),
        ("Solve 2x + 3 = 11 and 1/2.", "x = 17/4"),
        ("Solve x + 1 = 2 and one third.", "x = 4/3"),
        ("Solve 2x + 3 = 11 and a half dozen.", "x = 7/2"),
    ],
)
def test_a_right_side_said_on_in_words_refutes_nothing(problem: str, answer: str) -> None:
    assert check_answer(problem, answer).verdict != "reject"


def test_wrong_values_stay_wrong() -> None:
    assert check_answer("What is 2\\pi?", "2").verdict == "reject"
    assert check_answer("Solve 2x + 3 = 11y with y = 1.", "x = 5").verdict == "reject"
    assert check_answer("Solve x + y = 10, x - y = 2", "x = 6").verdict == "reject"  # incomplete
