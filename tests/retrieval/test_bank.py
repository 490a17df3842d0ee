"""Problem bank: GSM8K loading, full-text search per dialect, same-problem detection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.resources import Resources
from app.retrieval.bank import ProblemBankRetriever, add_bank, same_text, similarity
from app.retrieval.gsm8k import parse_gsm8k

NATALIA = (
    "Natalia sold clips to 48 of her friends in April, and then she sold half as many clips "
    "in May. How many clips did Natalia sell altogether in April and May?"
)


def test_parse_gsm8k(tmp_path: Path) -> None:
    path = tmp_path / "bank.jsonl"
    path.write_text(
        json.dumps({"question": "What is 2+2?", "answer": "2+2 = <<2+2=4>>4\n#### 1,004"}) + "\n\n"
    )
    (row,) = parse_gsm8k(path)
    assert row["final_answer"] == "1004"
    assert row["solution"] == "2+2 = 4"
    path.write_text(json.dumps({"question": "q", "answer": "no final line"}) + "\n")
    with pytest.raises(ValueError, match=r"bank\.jsonl:1"):
        parse_gsm8k(path)


@pytest.mark.parametrize(
    "changed",
    [
        NATALIA.replace("48", "50"),  # other numbers
        NATALIA.replace("half as many", "twice as many"),  # same numbers, other relation
        NATALIA.replace("half as many", "as many"),
        NATALIA.replace("altogether in April and May", "in May"),  # another question
    ],
)
def test_same_problem_needs_the_same_words_and_numbers(changed: str) -> None:
    assert similarity(NATALIA, changed) > 0.85
    assert not same_text(NATALIA, changed)


def test_same_problem_ignores_case_spacing_and_punctuation() -> None:
    assert same_text(NATALIA, "  " + NATALIA.upper().replace(",", " ,").replace("?", " ?"))


async def test_search_finds_the_known_problem(services: Resources) -> None:
    """Runs on SQLite (FTS5) and Postgres (tsvector), against the loaded GSM8K train set."""
    retriever = ProblemBankRetriever(services.sessionmaker)
    examples = await retriever.similar(NATALIA, 3)
    assert examples[0].question == NATALIA
    assert examples[0].same_problem and examples[0].final_answer == "72"
    assert not any(e.same_problem for e in examples[1:])

    reworded = await retriever.similar(NATALIA.replace("48", "60"), 3)
    assert reworded[0].question == NATALIA and not reworded[0].same_problem

    assert await retriever.similar("!!! ???", 3) == []


async def test_known_problem_is_answered_from_the_bank(client, with_clients) -> None:
    """The bank's own worked solution answers it (issue 27), verified by the word-for-word
    match; the models are never asked."""
    from tests.fixtures.providers import solver

    model_a, model_b = solver("model_a", "70"), solver("model_b", "72 clips")
    with_clients(model_a, model_b, symbolic=False)
    body = (await client.post("/v1/scans", json={"text": NATALIA})).json()
    assert body["verification_status"] == "verified"
    assert body["provider"] == "problem_bank" and body["attempts"] == 1
    assert body["final_answer"] == "72"
    assert model_a.calls == [] and model_b.calls == []
    detail = (await client.get(f"/v1/solutions/{body['solution_id']}")).json()
    assert [(v["method"], v["verdict"]) for v in detail["verifications"]] == [
        ("programmatic", "abstain"),
        ("ground_truth", "approve"),
    ]


async def test_an_operators_own_bank_is_added_beside_gsm8k(
    services: Resources, tmp_path: Path
) -> None:
    """Textbook exercises with worked answers (issue 27): added once, found word for word."""
    exercise = "Textbook exercise 4.7: a kite string of 130 dm is cut into 13 equal pieces."
    rows = [
        {"question": exercise, "answer": "130 / 13 = 10 dm each.\n#### 10"},
        {"question": exercise.upper(), "answer": "#### 11"},  # the same wording again
        {"question": NATALIA, "answer": "#### 72"},  # already in the bank
    ]
    path = tmp_path / "textbook.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    assert await add_bank(services.sessionmaker, path, source="textbook") == 1
    assert await add_bank(services.sessionmaker, path, source="textbook") == 0
    found = await ProblemBankRetriever(services.sessionmaker).similar(exercise, 3)
    assert found[0].same_problem and found[0].final_answer == "10"


EGGS = "Tim buys 3 dozen eggs.  Eggs cost $.50 each.  How much did he pay for eggs?"  # #535: 18
APPLES = (  # GSM8K train #263: 30
    "John plants a plot of 3 trees by 4 trees.  Each tree gives 5 apples.  He sells each apple "
    "for $.5.  How much money does he make, in dollars?"
)
TEMPERATURE = (  # #3096: 56
    "Two days ago, the temperature in the morning went up 1.5 degrees every 2 hours. If the "
    "temperature was 50 degrees at 3 A.M., what was the temperature at 11 A.M.?"
)
JULY = (  # #1710: 84
    "Over the past five years, on July 4th, the high temperature for Washington, DC has been: 90 "
    "degrees in 2020, 90 degrees in 2019, 90 degrees in 2018, 79 degrees in 2017 and 71 degrees "
    "in 2016. What is the average temperature for July 4th in Washington, DC over the past 5 years?"
)
WENG = (  # #1: 10
    "Weng earns $12 an hour for babysitting. Yesterday, she just did 50 minutes of babysitting. "
    "How much did she earn?"
)
SODA = (  # #86: 6
    "Peter goes to the store to buy a soda. The soda costs $.25 an ounce. He brought $2 with him "
    "and leaves with $.50. How many ounces of soda did he buy?"
)
PAGES = (  # #300: 12
    "It costs $.10 to print one page. Jenny wants to print 7 copies of her 25-page essay. She also "
    "wants to buy 7 pens that each cost $1.50. If she pays the store with 2 twenty dollar bills, "
    "how much money should she get in change?"
)


@pytest.mark.parametrize(
    ("original", "changed"),
    [
        (EGGS, EGGS.replace("$.50", "$50")),  # a leading-dot decimal is not the whole number
        (APPLES, APPLES.replace("$.5", "$5")),
        (SODA, SODA.replace("$.25", "$25")),
        (SODA, SODA.replace("$.50", "$50")),
        (PAGES, PAGES.replace("$.10", "$10")),
        (TEMPERATURE, TEMPERATURE.replace("was 50", "was \u221250")),  # U+2212 minus
        (TEMPERATURE, TEMPERATURE.replace("was 50", "was -50")),
        (TEMPERATURE, TEMPERATURE.replace("was 50", "was \u201350")),  # en dash
        (TEMPERATURE, TEMPERATURE.replace("was 50", "was \uff0d50")),  # full-width hyphen-minus
        (JULY, JULY.replace("and 71", "and \u221271")),
        (NATALIA, NATALIA.replace("48", "4\u2078")),  # superscript: 4⁸ is not 48
        (NATALIA, NATALIA.replace("48", "4\u2088")),  # subscript
        (NATALIA, NATALIA.replace("48", "4 8")),
        (NATALIA, NATALIA.replace("48", "\u2463\u2467")),  # circled digits
        (NATALIA, NATALIA.replace("half as many", "\u00bd as many")),
        (WENG, WENG.replace("$12", "$1,2")),  # a decimal comma kept
        (WENG, WENG.replace("$12", "$1.2")),
        (WENG, WENG.replace("50 minutes", ".50 minutes")),
        (WENG, WENG.replace("50 minutes", "50... minutes")),
        (WENG, WENG.replace("$12", "$12,000")),
        (NATALIA, NATALIA.replace("48", "48!")),
        ("What is 12 × 4?", "What is 12 ÷ 4?"),  # operation signs are kept
        ("What is 12 × 4?", "What is 12 4?"),
        ("What is (3 + 4) × 2?", "What is 3 + 4 × 2?"),
        ("Write 0.333... as a fraction.", "Write 0.333 as a fraction."),
        ("Write 0.3\u0307 as a fraction.", "Write 0.3 as a fraction."),  # combining dot: 1/3
        ("计算：17÷5=？……？", "计算：17÷5=？"),
        ("It is 12:30.", "It is 1230."),
    ],
)
def test_a_changed_number_or_sign_is_another_problem(original: str, changed: str) -> None:
    assert not same_text(original, changed)
    assert same_text(original, original.upper().replace("  ", " "))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("He has 1,200 apples.", "He has 1200 apples."),  # groups of three: a thousands separator
        ("He has $1,234,567.50.", "He has $1234567.50"),
        ("Tim has \uff11\uff12 eggs.", "Tim has 12 eggs."),  # full-width digits
        ("Tim has \U0001d7cf\U0001d7d0 eggs.", "Tim has 12 eggs."),  # mathematical bold digits
        ("It was \u221250 degrees.", "It was -50 degrees."),  # U+2212 is the minus sign
        ("It was \u221250 degrees.", "It was - 50 degrees"),
        ("一共有多少个？", "一共有多少个?"),
        ("Tim, a boy, buys eggs; how many?", "tim a boy buys eggs how many"),
        ("Eggs cost $.50 each.", "Eggs cost $.50 each"),  # a full stop after the sentence
    ],
)
def test_same_problem_in_an_equivalent_spelling(a: str, b: str) -> None:
    assert same_text(a, b)


async def test_a_changed_number_is_not_answered_from_the_bank(services: Resources) -> None:
    """GSM8K train #535 with `$.50` written `$50` (18 would be wrong: 1800)."""
    retriever = ProblemBankRetriever(services.sessionmaker)
    (found,) = await retriever.similar(EGGS, 1)
    assert found.question == EGGS and found.same_problem and found.final_answer == "18"
    for changed in (EGGS.replace("$.50", "$50"), TEMPERATURE.replace("was 50", "was \u221250")):
        examples = await retriever.similar(changed, 3)
        assert not any(e.same_problem for e in examples)
