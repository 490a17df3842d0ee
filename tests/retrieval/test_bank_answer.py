"""Answers from the bank (issue 27): a problem found word for word is answered with the bank's
worked solution and verified by that match; anything looser is left to the solvers."""

from __future__ import annotations

from pathlib import Path

import app
from app.pipeline.graph import run_pipeline
from app.pipeline.state import Example, SolveState
from app.retrieval.bank_answer import (
    BANK_PROVIDER,
    bank_solution,
    known_answer,
    stated_by_its_solution,
)
from app.retrieval.gsm8k import parse_gsm8k
from tests.fixtures.providers import solver

NATALIA = (
    "Natalia sold clips to 48 of her friends in April, and then she sold half as many clips "
    "in May. How many clips did Natalia sell altogether in April and May?"
)
DATASETS = Path(app.__file__).parent / "datasets" / "gsm8k"
SOLUTION = "Natalia sold 48/2 = 24 clips in May.\nNatalia sold 48+24 = 72 clips altogether."


class StaticRetriever:
    """A retriever over a fixed list (the protocol's real shape, no database)."""

    def __init__(self, examples: list[Example]) -> None:
        self.examples = examples

    async def similar(self, text: str, k: int) -> list[Example]:
        return self.examples[:k]


def _example(question: str, answer: str = "72", same: bool = True) -> Example:
    return Example(question, SOLUTION, answer, similarity=1.0 if same else 0.8, same_problem=same)


def test_bank_solution_is_the_same_problems_worked_solution() -> None:
    solution = bank_solution([_example(NATALIA)], "72")
    assert solution is not None and solution.final_answer == "72"
    assert [s.description for s in solution.steps] == SOLUTION.splitlines()


def test_a_similar_problem_is_no_answer() -> None:
    assert bank_solution([_example(NATALIA, same=False)], None) is None
    assert bank_solution([_example(NATALIA)], "73") is None  # not the ground truth RETRIEVE set


async def test_a_bank_problem_is_answered_from_the_bank(graph, make_context) -> None:
    model = solver("model", "71")
    ctx = make_context(model, retriever=StaticRetriever([_example(NATALIA)]))
    state = await run_pipeline(graph, ctx, SolveState(problem_text=NATALIA))
    assert state.provider == BANK_PROVIDER
    assert state.solution is not None and state.solution.final_answer == "72"
    assert state.verification_status == "verified"
    assert [a.verdicts[-1].method for a in state.attempts] == ["ground_truth"]
    assert model.calls == []


async def test_a_changed_word_is_solved_not_looked_up(graph, make_context) -> None:
    changed = NATALIA.replace("half as many", "twice as many")
    model = solver("model", "144")
    retriever = StaticRetriever([_example(NATALIA, same=False)])
    state = await run_pipeline(graph, make_context(model, retriever=retriever), SolveState(changed))
    assert state.provider == "model"
    assert state.solution is not None and state.solution.final_answer == "144"


async def test_an_answer_the_checker_cannot_compare_is_left_to_the_solvers(
    graph, make_context
) -> None:
    model = solver("model", "Tuesday")
    example = _example(NATALIA, answer="the one on Tuesday")
    ctx = make_context(model, retriever=StaticRetriever([example]))
    state = await run_pipeline(graph, ctx, SolveState(problem_text=NATALIA))
    assert state.provider == "model"


TANKS = (
    "In a yard, the number of tanks is five times the number of trucks. If there are 20 trucks "
    "in the yard, calculate the total number of tanks and trucks in the yard."
)
TANKS_SOLUTION = (  # GSM8K train line 4797, whose answer line says 140
    "There are 5*20 = 100 tanks in the yard.\n"
    "Altogether, there are 100+20 = 120 trucks and tanks in the yard."
)


def test_a_bank_answer_its_own_solution_does_not_reach_is_no_ground_truth() -> None:
    assert not stated_by_its_solution(TANKS_SOLUTION, "140")
    assert stated_by_its_solution(TANKS_SOLUTION, "120")
    assert not stated_by_its_solution("2*x-x/2=15\n3*x=30\nx=10", "4")  # train line 7183
    assert stated_by_its_solution(SOLUTION, "72")
    assert stated_by_its_solution("The total is 400 000 + 50 000 = 450 000 people.", "450000")
    assert stated_by_its_solution("", "72")  # an operator's bank of bare answers
    wrong = Example(TANKS, TANKS_SOLUTION, "140", similarity=1.0, same_problem=True)
    assert known_answer([wrong]) is None
    assert known_answer([_example(NATALIA)]) == "72"


async def test_a_wrong_bank_answer_is_neither_answered_nor_a_proof(graph, make_context) -> None:
    bank = StaticRetriever([Example(TANKS, TANKS_SOLUTION, "140", 1.0, same_problem=True)])
    for answer in ("120", "140"):
        model = solver("model", answer)
        state = await run_pipeline(graph, make_context(model, retriever=bank), SolveState(TANKS))
        assert state.provider == "model" and state.ground_truth is None
        assert state.verification_status != "verified"
        assert all(v.method != "ground_truth" for a in state.attempts for v in a.verdicts)


def test_the_vendored_bank_answers_its_solutions_do_not_reach() -> None:
    """GSM8K as vendored: 23 of 8 792 answers are not stated by their solution's last line
    (label errors such as the tanks and the riddle, and answers in cents of a dollar figure)."""
    rows = [
        row
        for split in ("train", "test")
        for row in parse_gsm8k(DATASETS / f"{split}.jsonl.gz")
        if not stated_by_its_solution(row["solution"], row["final_answer"])
    ]
    assert {"train-4797", "train-7183", "train-2771", "train-6761"} <= {
        row["external_id"] for row in rows
    }
    assert len(rows) == 23
