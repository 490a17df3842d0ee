"""A model verifier's verdict is believed only when its own answer agrees, and only from an
admitted model. Verifiers answer through the official OpenAI SDK against a loopback server."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import pytest

from app.llm.providers import openai
from app.llm.registry import Provider, build_registry
from app.llm.types import Message
from app.pipeline.graph import run_pipeline
from app.pipeline.state import SolveState
from app.settings import VerifySettings
from app.verification.llm_check import llm_verdict
from solveverify_bench.fake_llm import FakeLLMServer, Reply
from tests.fixtures.providers import kept, solver, verdict_json

WORD_PROBLEM = (
    "A baker fills 7 trays with 13 muffins each and sells all but 5 muffins. "
    "How many muffins does the baker sell?"
)
MESSAGES = [Message("user", "Is 86 right?")]


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    fake = FakeLLMServer().start()
    yield fake
    fake.stop()


@pytest.fixture(autouse=True)
def clean(server: FakeLLMServer) -> None:
    server.reset()


def sdk_verifier(server: FakeLLMServer) -> openai.OpenAIChatModel:
    return openai.OpenAIChatModel(kept(openai, "sk-test", f"{server.url}/v1"), "gpt-4o-mini")


async def verdict_for(server: FakeLLMServer, sandbox, reply: str, candidate: str, **kwargs):
    server.then(Reply(reply))
    return await llm_verdict(
        sdk_verifier(server),
        MESSAGES,
        timeout=5,
        candidate=candidate,
        # As the pipeline asks it: with the problem, whose words may follow a number.
        equivalent=partial(sandbox.equivalent, problem=WORD_PROBLEM),
        **kwargs,
    )


async def test_agreeing_approval_approves(server, sandbox) -> None:
    verdict = await verdict_for(server, sandbox, verdict_json(True, 0.9, "86"), "86 muffins")
    assert (verdict.verdict, verdict.score, verdict.independent_answer) == ("approve", 0.9, "86")


async def test_self_contradicting_approval_is_a_rejection(server, sandbox) -> None:
    verdict = await verdict_for(server, sandbox, verdict_json(True, 0.95, "86"), "90")
    assert verdict.verdict == "reject"
    assert verdict.score is not None and verdict.score <= 0.5
    assert "is_correct=true" in verdict.rationale and "'86'" in verdict.rationale
    assert "'90'" in verdict.rationale
    assert verdict.independent_answer == "86"


async def test_approval_without_an_answer_of_its_own_cannot_approve(server, sandbox) -> None:
    for independent in (None, "", "null"):
        verdict = await verdict_for(server, sandbox, verdict_json(True, 1.0, independent), "86")
        assert verdict.verdict == "abstain", independent
        assert "is missing" in verdict.rationale


async def test_an_uncomparable_answer_cannot_approve(server) -> None:
    async def unknown(_a: str, _b: str) -> None:  # the sandbox's "cannot tell"
        return None

    server.then(Reply(verdict_json(True, 1.0, "86.0")))  # the same text agrees (below)
    verdict = await llm_verdict(
        sdk_verifier(server), MESSAGES, timeout=5, candidate="86", equivalent=unknown
    )
    assert verdict.verdict == "abstain" and "could not be compared" in verdict.rationale


async def test_rejection_stands_without_agreement(server, sandbox) -> None:
    verdict = await verdict_for(server, sandbox, verdict_json(False, 0.9, None), "90")
    assert verdict.verdict == "reject"
    assert verdict.score == pytest.approx(0.1)
    assert "wrong arithmetic" in verdict.rationale and "is_correct=false" in verdict.rationale


async def test_a_verifier_not_admitted_may_reject_but_not_approve(server, sandbox) -> None:
    approve = await verdict_for(
        server, sandbox, verdict_json(True, 1.0, "86"), "86", may_approve=False
    )
    assert approve.verdict == "abstain" and "not admitted" in approve.rationale
    reject = await verdict_for(
        server, sandbox, verdict_json(False, 0.9, "86"), "90", may_approve=False
    )
    assert reject.verdict == "reject"


def test_admission_follows_measured_auroc_then_who_chose_the_model(server) -> None:
    chosen = Provider("openai", {"strong": sdk_verifier(server)})
    bundled = Provider("llamacpp", {"strong": sdk_verifier(server)}, operator_chosen=False)
    registry = build_registry([], [chosen, bundled])
    assert registry.verifier_admitted("openai", {}, 0.7)  # operator's choice, unmeasured
    assert not registry.verifier_admitted("llamacpp", {}, 0.7)  # bundled tiny, unmeasured
    assert not registry.verifier_admitted("openai", {"openai": 0.62}, 0.7)
    assert registry.verifier_admitted("openai", {"openai:gpt-4o-mini": 0.81}, 0.7)
    assert registry.verifier_admitted("llamacpp", {"llamacpp": 0.75}, 0.7)
    # provider:model wins over provider
    assert not registry.verifier_admitted("openai", {"openai": 0.9, "openai:gpt-4o-mini": 0.5}, 0.7)


# ------------------------------------------------------------------ through the real graph


async def test_contradicted_approval_of_a_wrong_answer_is_not_verified(
    graph, make_context, server
) -> None:
    # The verifier says "correct" but its own answer is 86: the wrong 90 must not pass.
    server.then(*[Reply(verdict_json(True, 0.99, "86"))] * 4)
    ctx = make_context(solver("wrong_model", "90"), sdk_verifier(server), symbolic=False)
    state = await run_pipeline(graph, ctx, SolveState(problem_text=WORD_PROBLEM))
    assert state.verification_status != "verified"
    first = state.attempts[0]
    assert first.final_answer == "90" and first.verify_passed is False
    (model_verdict,) = [v for v in first.verdicts if v.method == "llm"]
    assert model_verdict.verdict == "reject" and "is_correct=true" in model_verdict.rationale


async def test_agreeing_admitted_verifier_verifies(graph, make_context, server) -> None:
    # ANALYZE asks the configured model for labels first, then (at once) for ENRICH's: none
    server.then(Reply("{}"), Reply("{}"))
    server.then(Reply(verdict_json(True, 0.95, "86")))
    ctx = make_context(solver("right_model", "86"), sdk_verifier(server), symbolic=False)
    state = await run_pipeline(graph, ctx, SolveState(problem_text=WORD_PROBLEM))
    assert state.verification_status == "verified"


async def test_verifier_below_the_auroc_bar_cannot_verify(graph, make_context, server) -> None:
    server.then(Reply(verdict_json(True, 0.95, "86")))
    verify = VerifySettings(verifier_auroc={"openai": 0.55}, calibration_path=None)
    ctx = make_context(
        solver("right_model", "86"), sdk_verifier(server), symbolic=False, verify=verify
    )
    state = await run_pipeline(graph, ctx, SolveState(problem_text=WORD_PROBLEM))
    assert state.verification_status == "unverified"
    (model_verdict,) = [v for v in state.attempts[0].verdicts if v.method == "llm"]
    assert model_verdict.verdict == "abstain" and "not admitted" in model_verdict.rationale


async def test_bundled_tiny_verifier_cannot_verify(graph, sandbox, verify_settings, server) -> None:
    from app.llm.providers.symbolic import SymbolicClient
    from app.pipeline.context import PipelineContext

    server.then(Reply(verdict_json(True, 1.0, "86")))
    tiny = Provider("llamacpp", {"strong": sdk_verifier(server)}, operator_chosen=False)
    registry = build_registry(
        ["symbolic"], [SymbolicClient(sandbox), Provider.single(solver("right_model", "86")), tiny]
    )
    ctx = PipelineContext(registry, sandbox, verify_settings)
    state = await run_pipeline(graph, ctx, SolveState(problem_text=WORD_PROBLEM))
    assert state.provider == "right_model"
    assert state.verification_status == "unverified"


async def test_the_same_answer_text_agrees_where_no_reader_can_compare_it() -> None:
    """'20个' against '20个' was 'could not be compared', so a right answer stayed
    unverified (an independent tester's finding)."""
    from app.verification.llm_check import _agrees

    async def unreadable(a: str, b: str) -> bool | None:
        return None

    assert await _agrees(unreadable, "20个", " 20个 ") is True
    assert await _agrees(unreadable, "20个", "21个") is None


@pytest.mark.parametrize(("said", "candidate"), [("84.33", "84"), ("66.67%", "66.7%")])
async def test_an_approval_whose_answer_differs_only_by_rounding_is_no_rejection(
    server, sandbox, said: str, candidate: str
) -> None:
    """A right rounded answer ('to the nearest whole number') was shown as caution: the
    verifier said it was right but wrote its value unrounded (an independent tester)."""
    verdict = await verdict_for(server, sandbox, verdict_json(True, 0.9, said), candidate)
    assert verdict.verdict == "abstain" and "by rounding" in verdict.rationale


# ------------------------------------------- a verdict that contradicts itself decides nothing
# (an independent tester, 2026-11-28: each was a right answer shown as caution, or a wrong one
# verified, or a 500 on a confidence of NaN)


def _reply(is_correct: bool, confidence: object, independent: str | None, error: str | None):
    import json

    return (
        json.dumps(
            {
                "independent_answer": independent,
                "is_correct": is_correct,
                "error_description": error,
                "confidence": confidence,
            }
        )
        .replace('"__raw__', "")
        .replace('__raw__"', "")
    )


@pytest.mark.parametrize("confidence", ["__raw__NaN__raw__", "__raw__Infinity__raw__", 1.5, -5])
async def test_a_confidence_that_is_no_probability_is_unstated(server, sandbox, confidence) -> None:
    reply = _reply(True, confidence, "86", None)
    verdict = await verdict_for(server, sandbox, reply, "86")
    assert (verdict.verdict, verdict.score) == ("approve", 0.5)  # a coin flip, never NaN or 1.0


@pytest.mark.parametrize(("is_correct", "independent"), [(True, "86"), (False, None)])
async def test_a_verdict_its_verifier_does_not_believe_is_an_abstention(
    server, sandbox, is_correct: bool, independent: str | None
) -> None:
    reply = _reply(is_correct, 0.3, independent, None)
    verdict = await verdict_for(server, sandbox, reply, "86")
    assert verdict.verdict == "abstain" and "confidence 0.3" in verdict.rationale


async def test_calling_its_own_answer_incorrect_is_an_abstention(server, sandbox) -> None:
    verdict = await verdict_for(server, sandbox, _reply(False, 0.9, "86", "wrong"), "86")
    assert verdict.verdict == "abstain" and "'86' itself" in verdict.rationale


async def test_calling_an_answer_correct_while_describing_its_error_is_an_abstention(
    server, sandbox
) -> None:
    reply = _reply(True, 0.95, "86", "The subtraction is wrong: it should be 86")
    verdict = await verdict_for(server, sandbox, reply, "86")
    assert verdict.verdict == "abstain" and "describes an error" in verdict.rationale
    fine = await verdict_for(server, sandbox, _reply(True, 0.95, "86", "No errors."), "86")
    assert fine.verdict == "approve"


@pytest.mark.parametrize(("said", "candidate"), [("1/3", "0.333"), ("2/3", "0.67")])
async def test_an_approval_whose_fraction_the_answer_rounds_is_no_rejection(
    server, sandbox, said: str, candidate: str
) -> None:
    verdict = await verdict_for(server, sandbox, verdict_json(True, 0.9, said), candidate)
    assert verdict.verdict == "abstain" and "by rounding" in verdict.rationale


@pytest.mark.parametrize("confidence", [0.0, 0.3])
async def test_a_low_confidence_rejection_with_its_own_answer_is_an_abstention(
    server, sandbox, confidence: float
) -> None:
    """A right 43 was shown as caution on a rejection its verifier rated 0 (a tester)."""
    reply = _reply(False, confidence, "42", "wrong")
    verdict = await verdict_for(server, sandbox, reply, "86")
    assert verdict.verdict == "abstain" and "not a verdict" in verdict.rationale


@pytest.mark.parametrize(("said", "candidate"), [("0.333", "1/3"), ("0.3", "1/3")])
async def test_an_approval_that_rounds_the_answer_is_no_rejection(
    server, sandbox, said: str, candidate: str
) -> None:
    """1/3 was caution when the verifier approved it writing 0.333 (a tester)."""
    verdict = await verdict_for(server, sandbox, verdict_json(True, 0.9, said), candidate)
    assert verdict.verdict == "abstain" and "by rounding" in verdict.rationale


async def test_two_points_in_another_order_are_another_answer(server, sandbox) -> None:
    verdict = await verdict_for(server, sandbox, verdict_json(True, 0.95, "(2, 3)"), "(3, 2)")
    assert verdict.verdict == "reject"
    same = await verdict_for(server, sandbox, verdict_json(True, 0.95, "(3, 2)"), "(3,2)")
    assert same.verdict == "approve"
