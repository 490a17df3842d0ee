"""Answers from the bank (issue 27): a problem found word for word is answered with the bank's
worked solution and verified by that match; anything looser is left to the solvers."""

from __future__ import annotations

from app.pipeline.graph import run_pipeline
from app.pipeline.state import Example, SolveState
from app.retrieval.bank_answer import BANK_PROVIDER, bank_solution
from tests.fixtures.providers import solver

NATALIA = (
    "Natalia sold clips to 48 of her friends in April, and then she sold half as many clips "
    "in May. How many clips did Natalia sell altogether in April and May?"
)
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
