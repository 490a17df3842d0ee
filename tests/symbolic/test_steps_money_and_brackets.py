"""Check-my-steps, an independent tester's round (2026-12-01).

- Money in two denominations was read as bare numbers: "$5 × 3 = 15 cents" was `ok` (the
  dollar sign is dropped with LaTeX's delimiters, "cents" is a plain unit word). Between a
  currency and its cents the factor is the currency's (100, 10, 5 for a nickel), so such a
  claim is not judged either way; one denomination is judged as before.
- A step that opens with a bracketed number was read as numbered: "(12)(12) = 144" became
  "(12) = 144", `wrong`, the first error. Such a step is read both as numbered and as a
  product; where the two readings disagree it is `unchecked`."""

from __future__ import annotations

import pytest

from app.symbolic.steps import check_step_list

PEN = "A pen costs $5. How much do 3 pens cost?"


def verdict(step: str, problem: str = PEN) -> str:
    return check_step_list(problem, [step])[0].verdict


@pytest.mark.parametrize(
    "step",
    [
        "$5 × 3 = 15 cents",
        "2 dollars + 3 dollars = 5 cents",
        "$1.50 × 2 = 3 cents",
        "5 yuan × 3 = 15 jiao",
        "5 pounds × 3 = 15 pence",
        "50 cents × 3 = $150",
        "5 euros × 3 = 15 cents",
        "$0.25 × 3 = 75 cents",  # right, and still not judged: the factor is the currency's
    ],
)
def test_two_denominations_are_not_judged(step: str) -> None:
    assert verdict(step) == "unchecked", step


@pytest.mark.parametrize(
    ("step", "expected"),
    [
        ("$5 × 3 = $15", "ok"),
        ("5 cents × 3 = 15 cents", "ok"),
        ("5元+3元=8元", "ok"),
        ("$5 × 3 = $16", "wrong"),
        ("5 cents × 3 = 16 cents", "wrong"),
    ],
)
def test_one_denomination_is_judged(step: str, expected: str) -> None:
    assert verdict(step) == expected, step


@pytest.mark.parametrize(
    "step",
    [
        "(12)(12) = 144",
        "(2)(3) = 6",
        "(3)(4)(5) = 60",
        "(3)(-4) = -12",
        "(2)(3) + 1 = 7",
        "（2）（3）=6",
        "(2) (3) = 6",
    ],
)
def test_a_product_of_brackets_is_never_wrong(step: str) -> None:
    assert verdict(step, "What is 12 times 12?") != "wrong", step


def test_both_readings_wrong_is_wrong_in_the_products_words() -> None:
    (finding,) = check_step_list("What is 12 times 12?", ["(12)(12) = 145"])
    assert finding.verdict == "wrong" and "144" in finding.detail, finding


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (["(1) 2x = 8", "(2) x = 4"], ["ok", "ok"]),  # numbered, a space after the number
        (["（1）2x+3=11", "（2）x=4"], ["ok", "ok"]),
        (["(2)x = 8", "x = 4"], ["unchecked", "ok"]),  # 2x = 8, or "x = 8" numbered 2?
    ],
)
def test_numbered_steps_keep_their_verdicts(steps: list[str], expected: list[str]) -> None:
    findings = check_step_list("Solve 2x + 3 = 11", steps)
    assert [f.verdict for f in findings] == expected, findings
