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


STICKER = "A sticker costs 50 cents. How much do 3 stickers cost?"


@pytest.mark.parametrize(
    ("problem", "step", "expected"),
    [
        (PEN, "$5 × 3 = $15", "ok"),
        (PEN, "5 × 3 = 15", "ok"),
        (STICKER, "50 cents × 3 = 150 cents", "ok"),
        (STICKER, "50 × 3 = 150", "ok"),
        ("一本书5元，3本多少元？", "5元+3元=8元", "ok"),
        (PEN, "$5 × 3 = $16", "wrong"),
        (STICKER, "50 cents × 3 = 160 cents", "wrong"),
    ],
)
def test_one_denomination_is_judged(problem: str, step: str, expected: str) -> None:
    assert verdict(step, problem) == expected, step


@pytest.mark.parametrize(
    ("problem", "step"),
    [
        # the other denomination in the problem (a second tester)
        ("A pen costs 50 cents. How much do 3 pens cost in dollars?", "50 × 3 = $150"),
        ("一支笔5角，3支多少元？", "5 × 3 = 15元"),
        (PEN, "5 × 3 = 15 cents"),
    ],
)
def test_the_problems_denomination_counts(problem: str, step: str) -> None:
    assert verdict(step, problem) == "unchecked", step


@pytest.mark.parametrize(
    ("problem", "step"),
    [
        (PEN, "$0.25 × 3 = 76 cents"),  # 75 cents, or 0.75 dollars: 76 is neither
        (
            # ProcessBench GSM8K dev, item 141: wrong whatever the coins were
            "Brady has 100 pennies, 40 nickels, 20 dimes, and 40 pieces of dollar bills. "
            "How much does Brady have in his piggy bank in dollars?",
            r"the value of the nickels is: \[ \frac{40}{5} = 3 \text{ dollars} \]",
        ),
    ],
)
def test_numbers_no_denomination_explains_are_wrong(problem: str, step: str) -> None:
    assert verdict(step, problem) == "wrong", step


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
    ("problem", "steps", "expected"),
    [
        ("Solve 2x + 3 = 11", ["(1) 2x = 8", "(2) x = 4"], ["ok", "ok"]),  # numbered in order
        ("Solve 2x + 3 = 11", ["（1）2x+3=11", "（2）x=4"], ["ok", "ok"]),
        ("Solve 2x + 3 = 11", ["2x + 3 = 11", "(2) 2x = 8", "(3) x = 4"], ["ok", "ok", "ok"]),
        ("Solve 2x + 3 = 11", ["(2)x = 8", "x = 4"], ["unchecked", "ok"]),  # 2x = 8, or x = 8?
        # out of order, a number or a factor (a second tester: these were `wrong`)
        ("Solve 3x = 12", ["(3) x = 12", "x = 4"], ["unchecked", "ok"]),
        ("Solve 3x = 12", ["（3）x = 12", "x = 4"], ["unchecked", "ok"]),
        ("What is 2 × 12 + 8?", ["(2) 12 + 8 = 32"], ["unchecked"]),
    ],
)
def test_numbered_steps_keep_their_verdicts(
    problem: str, steps: list[str], expected: list[str]
) -> None:
    findings = check_step_list(problem, steps)
    assert [f.verdict for f in findings] == expected, findings
