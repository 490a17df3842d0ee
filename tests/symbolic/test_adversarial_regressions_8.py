"""Round 8 (an independent tester on hedged answers, 2026-11-29): where the reader knows the
exact value but cannot read the answer, a model check approved "56, 57" or "56 and 57" for
7 × 8 (`/v1/checks` said `correct`, method llm). Such an answer, stating a value that is
neither the exact one nor one of the problem's own, now ends the check (a conclusive
abstention: no later method may call it correct).

Round 9 (a third tester, 2026-11-29): any answer the reader cannot read ends the check where
the exact value is known ("56 thousand", "not 56", "fifty-seven" were `correct` on an echo);
numbers spelled out are read as digits, and the value stated last after the problem's own
numbers ("7 × 8 = 56", "The product is 56.") is read."""

from __future__ import annotations

import pytest

from app.symbolic.checker import check_answer


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("What is 7 × 8?", "56, 57"),
        ("What is 7 × 8?", "{56, 57}"),
        ("What is 7 × 8?", "56 and 57"),
        ("3/4 + 5/6 = ?", "1 and 7/12"),
    ],
)
def test_another_value_beside_the_exact_one_ends_the_check(problem: str, answer: str) -> None:
    result = check_answer(problem, answer)
    assert (result.verdict, result.conclusive) == ("abstain", True), result


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("What is 7 × 8?", "7 × 8 = 56"),  # the problem's own numbers, then the value
        ("What is 7 × 8?", "The product is 56."),
        ("What is 7 × 8?", "fifty-six"),
        ("What is 7 × 8?", "五十六"),
        ("What is 7 × 8?", "seven times eight is fifty-six"),
        ("What is 7 × 8?", "答案是56"),
    ],
)
def test_the_value_stated_or_spelled_out_is_read(problem: str, answer: str) -> None:
    assert check_answer(problem, answer).verdict == "approve"


@pytest.mark.parametrize("answer", ["fifty-seven", "五十七", "7 × 8 = 57", "The product is 57."])
def test_a_wrong_value_stated_or_spelled_out_is_wrong(answer: str) -> None:
    assert check_answer("What is 7 × 8?", answer).verdict == "reject"


@pytest.mark.parametrize(
    "answer",
    # the third tester round: each was `correct` on an echoing verifier's word
    [
        "56 thousand",
        "56k",
        "56e3",
        "56 million",
        "negative 56",
        "minus 56",
        "56 percent",
        "56 dozen",
        "56 squared",
        "half of 56",
        "one less than 56",
        "56 mod 7",
        "56 hundredths",
        "not 56",
        "The answer is not 56",
        "LVII",
        "57 - 1 = 56",
    ],
)
def test_an_unread_answer_to_a_known_value_ends_the_check(answer: str) -> None:
    result = check_answer("What is 7 × 8?", answer)
    assert (result.verdict, result.conclusive) == ("abstain", True), result
