"""Adaptive self-consistency (issue 25): with a fitted evidence model, samples are drawn in two
waves and the second is bought only while it can still change the answer or its badge.

The solver is the OpenAI provider, through its SDK, against the loopback fake model: each
sample is a request with its own seed, so what the model says depends on the seed alone,
whether the samples are drawn at once or in waves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from app.llm.types import Message
from app.pipeline.exploration import Exploration
from app.pipeline.graph import run_pipeline
from app.pipeline.state import SolveState
from app.settings import VerifySettings
from app.verification.calibration import Calibrator
from solveverify_bench.fake_llm import FakeLLMServer, task_of
from tests.fixtures.fake_llm import sdk_model
from tests.fixtures.providers import solution_json, verdict_json, verifier

WORD_PROBLEM = "Tom has 12 apples and buys 3 bags of 4 apples. How many apples does he have now?"
IN_HAND = "24"  # the solve's answer (the request without a seed)

# A fitted evidence model that reads sample agreement only: P = σ(8·agreement − 4), verified
# from 0.75. Of 3 samples, 2 agreeing (P 0.79) or all 3 (0.98) verify; 1 (0.21) is caution.
MODEL = Calibrator(
    "logistic",
    features=["agreement"],
    weights=[8.0],
    bias=-4.0,
    feature_set="evidence",
    threshold=0.75,
    target_precision=0.95,
)


def samples_by_seed(server: FakeLLMServer, answers: dict[int, str]) -> list[tuple[int, int]]:
    """Script the fake model: a sample (seed s) answers `answers[s]`, anything else the answer
    in hand. Returns (seed, sample requests received by then) per sample, as each is answered:
    a wave's replies go out before the next wave is asked."""
    answered: list[tuple[int, int]] = []

    def respond(_dialect: str, body: dict[str, Any]) -> str:
        if task_of(body) != "solve":
            return "{}"  # ANALYZE's labels and ENRICH's review: none
        seed = body.get("seed")
        if seed is None:
            return solution_json(IN_HAND)
        received = sum("seed" in r["body"] for r in server.requests)
        answered.append((seed, received))
        return solution_json(answers[seed])

    server.reset()
    server.default = respond
    server.latency_s = 0.05  # the replies of one wave are in flight together
    return answered


def settings(spec: str, *, early_stop: bool) -> VerifySettings:
    return VerifySettings(evidence={"*": spec}, panel_early_stop=early_stop, calibration_path=None)


def judge(messages: Sequence[Message]) -> str:
    """The quick verifier and the panel's aspect verifiers (provider "judge"): all approve."""
    if any("FINAL VERIFICATION ANSWER" in m.content for m in messages):
        return "Checked step by step.\nFINAL VERIFICATION ANSWER: True"
    return verdict_json(True, 0.9, IN_HAND)


async def scan(
    graph,
    make_context,
    server: FakeLLMServer,
    model: Calibrator | None,
    spec: str = "samples:3",
    early_stop: bool = True,
) -> SolveState:
    verify = settings(spec, early_stop=early_stop)
    ctx = make_context(sdk_model(server), verifier("judge", judge), symbolic=False, verify=verify)
    problem = SolveState(problem_text=WORD_PROBLEM)
    return await run_pipeline(graph, replace(ctx, calibrator=model), problem)


def agreement_verdict(state: SolveState):
    (sampled,) = [v for v in state.attempts[0].verdicts if v.verifier_id.endswith("consistency")]
    return sampled


async def test_a_settled_first_wave_buys_no_more_and_gives_the_full_badge(
    graph, make_context, fake_llm
) -> None:
    # Both samples of the first wave agree: whatever the third says (it would say 25), 2 or 3
    # of 3 agree and both verify, so it is not bought.
    answered = samples_by_seed(fake_llm, {1: "24", 2: "24", 3: "25"})
    adaptive = await scan(graph, make_context, fake_llm, MODEL)
    assert sorted(seed for seed, _ in answered) == [1, 2]
    sampled = agreement_verdict(adaptive)
    assert sampled.score == 1.0 and "2 of 3 drawn" in sampled.rationale

    answered = samples_by_seed(fake_llm, {1: "24", 2: "24", 3: "25"})
    everything = await scan(graph, make_context, fake_llm, MODEL, early_stop=False)
    assert sorted(seed for seed, _ in answered) == [1, 2, 3]
    assert everything.model_calls == adaptive.model_calls + 1  # only the samples bought count
    assert agreement_verdict(everything).score == 2 / 3
    assert adaptive.verification_status == everything.verification_status == "verified"


async def test_samples_that_could_change_the_badge_or_the_answer_are_bought(
    graph, make_context, fake_llm
) -> None:
    # One of the first two agrees: the third decides between caution (1 of 3) and verified
    # (2 of 3). It is asked once the first wave has answered.
    answered = samples_by_seed(fake_llm, {1: "24", 2: "25", 3: "24"})
    state = await scan(graph, make_context, fake_llm, MODEL)
    assert answered[-1][0] == 3 and all(received == 2 for seed, received in answered[:2])
    assert agreement_verdict(state).score == 2 / 3 and state.verification_status == "verified"

    # Neither agrees: a third 25 outvotes the answer in hand (it is returned instead).
    answered = samples_by_seed(fake_llm, {1: "25", 2: "26", 3: "25"})
    state = await scan(graph, make_context, fake_llm, MODEL)
    assert sorted(seed for seed, _ in answered) == [1, 2, 3]
    assert all(received == 2 for seed, received in answered if seed != 3)
    assert state.solution is not None and state.solution.final_answer == "25"


async def test_only_a_fitted_evidence_model_stops_early(graph, make_context, fake_llm) -> None:
    # No model, one fitted on no outcomes yet, or one that reads raw signals: all N bought.
    unfitted = Calibrator("logistic", feature_set="evidence")
    raw = replace(MODEL, feature_set="raw")
    calls = []
    for model, bought in ((MODEL, 2), (None, 3), (unfitted, 3), (raw, 3)):
        answered = samples_by_seed(fake_llm, {1: "24", 2: "24", 3: "24"})
        state = await scan(graph, make_context, fake_llm, model)
        assert len(answered) == bought, model
        calls.append(state.model_calls)
    assert calls[1:] == [calls[0] + 1] * 3


# The panel's first two verifiers ("provider:model:aspect"), and a model that also weighs
# their votes: P = σ(8·agreement + 1.5·(vote₁ + vote₂) − 4).
PANEL = [
    "judge:scripted-1:mathematical_correctness:step_by_step",
    "judge:scripted-1:logical_soundness:step_by_step",
]
WITH_PANEL = replace(
    MODEL, features=["agreement", *(f"vote:{v}" for v in PANEL)], weights=[8.0, 1.5, 1.5]
)


def panel_heard(state: SolveState) -> list[str]:
    return [v.verifier_id for v in state.attempts[0].verdicts if v.verifier_id in PANEL]


async def test_with_a_panel_planned_the_last_sample_waits_for_it(
    graph, make_context, fake_llm
) -> None:
    # Both samples of the first wave agree. Before the panel the third could still matter (a
    # panel rejecting once: 2 of 3 agreeing is caution, 3 of 3 verified), so it waits for the
    # panel. The first verifier approves: then 2/3 and 3/3 both verify whatever the second
    # verifier says, so neither the third sample nor the second verifier is bought.
    answered = samples_by_seed(fake_llm, {1: "24", 2: "24", 3: "25"})
    adaptive = await scan(graph, make_context, fake_llm, WITH_PANEL, "samples:3+panel:2")
    assert sorted(seed for seed, _ in answered) == [1, 2]
    assert panel_heard(adaptive) == PANEL[:1]
    assert agreement_verdict(adaptive).score == 1.0

    answered = samples_by_seed(fake_llm, {1: "24", 2: "24", 3: "25"})
    everything = await scan(
        graph, make_context, fake_llm, WITH_PANEL, "samples:3+panel:2", early_stop=False
    )
    assert sorted(seed for seed, _ in answered) == [1, 2, 3]
    assert sorted(panel_heard(everything)) == sorted(PANEL)
    assert everything.model_calls == adaptive.model_calls + 2
    assert adaptive.verification_status == everything.verification_status == "verified"


async def test_every_kth_run_explores_buying_all_its_evidence(
    graph, make_context, fake_llm
) -> None:
    """Exploration (app/pipeline/exploration.py): every 3rd run of the context buys the third
    sample the settled first wave made unnecessary; the badge is the same either way."""
    verify = settings("samples:3", early_stop=True)
    ctx = make_context(sdk_model(fake_llm), verifier("judge", judge), symbolic=False, verify=verify)
    ctx = replace(ctx, calibrator=MODEL, exploration=Exploration(every=3))
    bought, badges = [], []
    for _ in range(6):
        answered = samples_by_seed(fake_llm, {1: "24", 2: "24", 3: "25"})
        state = await run_pipeline(graph, ctx, SolveState(problem_text=WORD_PROBLEM))
        bought.append(len(answered))
        badges.append(state.verification_status)
    assert bought == [2, 2, 3, 2, 2, 3]
    assert badges == ["verified"] * 6
    assert Exploration(every=0).next_run() is False
