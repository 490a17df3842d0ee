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
