"""Round 8 (an independent tester on hedged answers, 2026-11-29): where the reader knows the
exact value but cannot read the answer, a model check approved "56, 57" or "56 and 57" for
7 × 8 (`/v1/checks` said `correct`, method llm). Such an answer, stating a value that is
neither the exact one nor one of the problem's own, now ends the check (a conclusive
abstention: no later method may call it correct)."""

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
        ("What is 7 × 8?", "7 × 8 = 56"),  # the problem's own numbers
        ("What is 7 × 8?", "The product is 56."),
        ("What is 7 × 8?", "fifty-six"),
    ],
)
def test_the_exact_value_among_the_problems_numbers_is_left_to_other_checks(
    problem: str, answer: str
) -> None:
    result = check_answer(problem, answer)
    assert (result.verdict, result.conclusive) == ("abstain", False), result
