"""Multiple-choice problems (an independent tester, 2026-12-01): "What is 7 + 8? A. 14 B. 15
C. 16 D. 17" was not read, so an echoing verifier verified "C", and a solver's right "B"
beside a verifier's "15" was a rejection (`caution`). The options are read when their
letters run A, B, C … in order; the stem is read as any problem; the answer is the letter of
the one option that is the stem's exact value, or that value itself."""

from __future__ import annotations

import httpx
import pytest

from app.llm.plain_answers import plainly_one_value
from app.symbolic.checker import answers_equivalent, check_answer, solve_reading_with_choices
from app.symbolic.choices import choices_in
from solveverify_bench.fake_llm import FakeLLMServer, Reply
from tests.fixtures.checks import check
from tests.fixtures.fake_llm import sdk_model
from tests.fixtures.providers import verdict_json

SUM = "What is 7 + 8? A. 14 B. 15 C. 16 D. 17"
EQUATION = "Solve 2x + 3 = 11. (A) x = 3 (B) x = 4 (C) x = 5"
WORDS = "小明有12个苹果，吃了3个，还剩几个？选择：A.8 B.9 C.10"


@pytest.mark.parametrize(
    ("text", "stem", "options"),
    [
        (SUM, "What is 7 + 8?", {"A": "14", "B": "15", "C": "16", "D": "17"}),
        (EQUATION, "Solve 2x + 3 = 11.", {"A": "x = 3", "B": "x = 4", "C": "x = 5"}),
        (WORDS, "小明有12个苹果，吃了3个，还剩几个？", {"A": "8", "B": "9", "C": "10"}),
        ("3/4 + 5/6 = ? A: 19/12; B: 8/10", "3/4 + 5/6 = ?", {"A": "19/12", "B": "8/10"}),
        ("Which is prime? （A）4 （B）7", "Which is prime?", {"A": "4", "B": "7"}),
    ],
)
def test_the_options_are_read(text: str, stem: str, options: dict[str, str]) -> None:
    choices = choices_in(text)
    assert choices is not None and (choices.stem, choices.options) == (stem, options)


@pytest.mark.parametrize(
    "text", ["Mr. A. Smith has 3 apples.", "What is 7 + 8? B. 15 A. 14", "Plan A. Then B."]
)
def test_no_options_where_the_letters_do_not_run_in_order(text: str) -> None:
    assert choices_in(text) is None


@pytest.mark.parametrize(
    ("problem", "answer", "verdict"),
    [
        (SUM, "B", "approve"),
        (SUM, "(B)", "approve"),
        (SUM, "The answer is B.", "approve"),
        (SUM, "选B", "approve"),
        (SUM, "B. 15", "approve"),
        (SUM, "15", "approve"),  # the value itself
        (SUM, "C", "reject"),
        (SUM, "E", "reject"),  # no such option
        (SUM, "16", "reject"),
        (EQUATION, "B", "approve"),
        (EQUATION, "A", "reject"),
        (EQUATION, "D", "reject"),
    ],
)
def test_a_letter_is_checked_by_its_option(problem: str, answer: str, verdict: str) -> None:
    assert check_answer(problem, answer).verdict == verdict, answer


@pytest.mark.parametrize("answer", ["B. 16", "b", "B or C", "maybe B"])
def test_an_answer_naming_no_one_option_ends_the_check(answer: str) -> None:
    result = check_answer(SUM, answer)
    assert (result.verdict, result.conclusive) == ("abstain", True), (answer, result)


def test_two_right_options_name_no_answer() -> None:
    problem = "What is 7 + 8? A. 15 B. 15 C. 16"
    assert solve_reading_with_choices(problem)[1] is None
    assert check_answer(problem, "A").verdict == "abstain"
    assert check_answer(problem, "C").verdict == "reject"


def test_the_solver_answers_the_letter() -> None:
    read, solution = solve_reading_with_choices(SUM)
    assert read and solution is not None and solution.final_answer == "B"
    assert solution.steps[-1].description == "Option B is the value: 15"
    assert solve_reading_with_choices(WORDS) == (False, None)  # the stem is not read


def test_a_letter_and_its_value_are_one_answer() -> None:
    assert answers_equivalent("B", "15", SUM) is True
    assert answers_equivalent("14", "A", SUM) is True
    assert answers_equivalent("B", "C", SUM) is False
    assert answers_equivalent("B", "9", WORDS) is True  # the stem unread: the option's text
    assert plainly_one_value("B", WORDS) and not plainly_one_value("D", WORDS)


async def test_an_echoing_verifier_does_not_make_a_wrong_option_correct(
    client: httpx.AsyncClient, with_clients, fake_llm: FakeLLMServer
) -> None:
    fake_llm.reset()
    with_clients(sdk_model(fake_llm))
    fake_llm.default = Reply(verdict_json(True, 0.99, "C"))
    wrong = await check(client, SUM, "C")
    assert (wrong["verdict"], wrong["method"]) == ("incorrect", "programmatic"), wrong
    right = await check(client, SUM, "B")
    assert (right["verdict"], right["expected"]) == ("correct", "B"), right


@pytest.mark.parametrize(
    "text",
    [
        # ProcessBench MATH dev has one like it: "a)", "b)" inside the mathematics were read
        # as options, and the stem ended at "(1 +"
        "Let a, b, c, d be positive. Find the minimum of (1 + a)(1 + b)(1 + c)(1 + d).",
        "Solve (x - a)(x - b) = 0 for x.",
        "What is $a) + b) + c)$?",
    ],
)
def test_letters_inside_mathematics_are_no_options(text: str) -> None:
    assert choices_in(text) is None


def test_a_name_ending_a_sentence_is_no_option() -> None:
    # GSM8K train has two like it: "jar A." read as option A cut the stem at "than jar"
    text = "Jar B has 12 more marbles than jar A. Jar C has twice as many as jar B. How many?"
    assert choices_in(text) is None
