"""Nodes one at a time, called as LangGraph calls them (state, runtime)."""

from __future__ import annotations

import logging
from dataclasses import replace

from langgraph.runtime import Runtime
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from app.llm.outputs import SolveOutput, SolveStep
from app.ocr.rapid import RapidOcrReader
from app.pipeline.badge import NO_PROVIDER
from app.pipeline.nodes.analyze import analyze
from app.pipeline.nodes.enrich import clean_latex, enrich
from app.pipeline.nodes.ocr import ocr
from app.pipeline.nodes.quick_verify import quick_verify
from app.pipeline.nodes.retrieve import retrieve
from app.pipeline.nodes.solve import solve
from app.pipeline.state import Example, SolveState
from app.retrieval.bank import ProblemBankRetriever
from tests.fixtures.images import blank_png, draw_text
from tests.fixtures.processes import free_port
from tests.fixtures.providers import solver


def runtime(context) -> Runtime:
    return Runtime(context=context)


async def test_ocr_node_reads_the_image(make_context) -> None:
    ctx = replace(make_context(), ocr=RapidOcrReader())
    update = await ocr(SolveState(image=draw_text("What is 17*23?")), runtime(ctx))
    assert update["problem_text"] == "What is 17*23?"
    assert update["ocr_confidence"] > 0.5
    assert (await ocr(SolveState(image=blank_png()), runtime(ctx)))["error"] == "no_text_found"
    assert await ocr(SolveState(problem_text="typed"), runtime(ctx)) == {}
    assert (await ocr(SolveState(image=b"x"), runtime(make_context())))[
        "error"
    ] == "ocr_unavailable"


async def test_analyze_node_respects_hints(make_context) -> None:
    ctx = runtime(make_context())
    update = await analyze(
        SolveState(problem_text="一辆车的速度是 60 千米每小时，3 小时走多远？", grade_hint="初二"),
        ctx,
    )
    assert update["language"] == "zh"
    assert update["subject"] == "physics"
    assert update["grade_band"] == "middle"
    hinted = await analyze(SolveState(problem_text="2+2", subject_hint="chemistry"), ctx)
    assert hinted["subject"] == "chemistry"


async def test_retrieve_node_survives_a_broken_bank(make_context, caplog) -> None:
    """A bank whose database is down: scans go on without it, and the outage is logged when
    it starts and when it ends, not once a scan with a stack trace."""
    unreachable = create_async_engine(f"postgresql+asyncpg://x@127.0.0.1:{free_port()}/x")
    broken = make_context(retriever=ProblemBankRetriever(async_sessionmaker(unreachable)))

    class EmptyBank:
        async def similar(self, text: str, k: int) -> list[Example]:
            return []

    working = make_context(retriever=EmptyBank())
    try:
        await retrieve(SolveState(problem_text="2+2"), runtime(working))  # no outage before
        with caplog.at_level(logging.WARNING, logger="app.pipeline.nodes.retrieve"):
            for _ in range(3):
                assert await retrieve(SolveState(problem_text="2+2"), runtime(broken)) == {}
            assert await retrieve(SolveState(problem_text="2+2"), runtime(working)) == {
                "examples": [],
                "ground_truth": None,
            }
    finally:
        await unreachable.dispose()
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2, messages
    assert (
        messages[0].startswith("problem bank unreadable")
        and "(ConnectionRefusedError)" in messages[0]
    )
    assert messages[1].startswith("problem bank readable again")
    assert not any(r.exc_info for r in caplog.records)


async def test_solve_node_skips_providers_already_tried(make_context) -> None:
    ctx = make_context(solver("a", "1"), solver("b", "2"), symbolic=False)
    update = await solve(SolveState(problem_text="p", provider_history=["a"]), runtime(ctx))
    assert update["provider"] == "b" and update["attempt_count"] == 1
    nothing = await solve(SolveState(problem_text="p", provider_history=["a", "b"]), runtime(ctx))
    assert nothing == {
        "solved_this_round": False,
        "provider_history": [],
        "solve_errors": [],
        "model_calls": 0,
    }


async def test_quick_verify_node_records_the_attempt(make_context) -> None:
    state = SolveState(
        problem_text="Solve 2x + 3 = 11",
        provider="model",
        model="m1",
        attempt_count=1,
        solution=SolveOutput(final_answer="x = 5"),
    )
    update = await quick_verify(state, runtime(make_context()))
    assert update["verify_passed"] is False
    assert update["independent_answer"] == "x = 4"
    (attempt,) = update["attempts"]
    assert (attempt.number, attempt.provider, attempt.final_answer) == (1, "model", "x = 5")


async def test_enrich_node_badges(make_context) -> None:
    ctx = make_context()
    unsolved = await enrich(SolveState(problem_text="p"), runtime(ctx))
    assert (unsolved["verification_status"], unsolved["caution_reason"]) == (
        "unverified",
        NO_PROVIDER,
    )
    low = SolveState(
        solution=SolveOutput(final_answer="1"),
        verify_passed=True,
        verify_confidence=0.7,
        attempt_count=2,
    )
    # Passed, but not enough evidence to verify: unverified, never caution for lack of evidence.
    assert (await enrich(low, runtime(ctx)))["verification_status"] == "unverified"
    against = replace(low, verify_confidence=0.3)  # P(correct) < 0.5: evidence against it
    assert (await enrich(against, runtime(ctx)))["verification_status"] == "caution"
    rejected = replace(low, verify_passed=False, verify_confidence=0.9, verify_error="wrong")
    assert (await enrich(rejected, runtime(ctx)))["verification_status"] == "caution"


def test_clean_latex_strips_delimiters() -> None:
    for raw in ("$x = 4$", "$$x = 4$$", r"\(x = 4\)", r"\[x = 4\]", "x = 4"):
        assert clean_latex(SolveStep(description="d", latex=raw)).latex == "x = 4"
