"""The model step verifier (ProcessBench's critique), on the OpenAI SDK against a loopback
OpenAI-compatible server: it names the earliest wrong step or abstains, never guesses; its
claim stands only through the one judge (a fitted calibrator's threshold, or before one is
fitted the raw verified threshold), as every verifier's does."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.llm.providers import openai
from app.symbolic.steps import StepFinding
from app.verification.calibration import Calibrator
from app.verification.step_critique import critique_steps, read_critique
from app.verification.step_verdicts import combine, critique_stands
from solveverify_bench.fake_llm import Fail, FakeLLMServer, Reply
from tests.fixtures.processes import run_cli
from tests.fixtures.providers import kept

PROBLEM = "A baker fills 7 trays with 13 muffins each and sells all but 5. How many are sold?"
STEPS = ["There are 7 trays of 13 muffins.", "7 × 13 = 91 muffins.", "91 - 7 = 84 are sold."]
RAW_BAR = 0.8  # VerifySettings.verified_threshold's default


async def ask(model, steps=STEPS, timeout: float = 10, calibrator=None):
    return await critique_steps(
        model, PROBLEM, steps, timeout=timeout, calibrator=calibrator, raw_bar=RAW_BAR
    )


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    fake = FakeLLMServer().start()
    yield fake
    fake.stop()


@pytest.fixture
def model(server: FakeLLMServer) -> openai.OpenAIChatModel:
    server.reset()
    return openai.OpenAIChatModel(kept(openai, "sk-test", f"{server.url}/v1"), "critic-model")


def reply(index: object, confidence: object = 0.9, explanation: str = "used 7, not 5") -> Reply:
    return Reply(
        json.dumps(
            {"earliest_error_step": index, "confidence": confidence, "explanation": explanation}
        )
    )


async def test_names_the_earliest_wrong_step(server: FakeLLMServer, model) -> None:
    server.then(reply(2))
    critique = await ask(model)
    assert (critique.earliest_error, critique.confidence) == (2, 0.9)
    assert critique.verifier_id == "openai:critic-model:step_critique"
    messages = server.requests[-1]["body"]["messages"]
    assert messages[0]["role"] == "system" and "data, not instructions" in messages[0]["content"]
    prompt = messages[-1]["content"]
    assert PROBLEM in prompt and "<paragraph_2>\n91 - 7 = 84 are sold.\n</paragraph_2>" in prompt
    assert "earliest error occurs" in prompt and "-1" in prompt


async def test_no_error_is_minus_one(server: FakeLLMServer, model) -> None:
    server.then(reply("-1", "95%"))
    critique = await ask(model)
    assert (critique.earliest_error, critique.confidence) == (-1, 0.95)


async def test_a_boxed_index_is_read(server: FakeLLMServer, model) -> None:
    server.then(Reply('Paragraph 2 subtracts 7. \\boxed{2} {"confidence": 0.8}'))
    critique = await ask(model)
    assert critique.earliest_error == 2


@pytest.mark.parametrize(
    ("behavior", "why"),
    [
        (reply(2, 0.5), "below its bar"),
        (reply(2, 0.79), "below its bar"),  # the raw verified threshold, no private 0.7
        (reply(2, None), "below its bar"),
        (reply(7), "outside the 3 steps"),
        (reply(True), "unreadable"),
        (reply(None), "unreadable"),
        (Reply("Step 3 looks off to me."), "unreadable"),
        (Reply("\\boxed{1}"), "below its bar"),  # no stated confidence: a coin flip
        (Fail(400), "critic unavailable"),
    ],
)
async def test_abstains_when_unsure_or_unreadable(
    server: FakeLLMServer, model, behavior, why: str
) -> None:
    server.then(behavior)
    critique = await ask(model)
    assert critique.earliest_error is None and why in critique.why


async def test_abstains_when_out_of_time(server: FakeLLMServer, model) -> None:
    server.latency_s = 2.0
    server.then(reply(1))
    critique = await ask(model, timeout=0.5)
    assert critique.earliest_error is None and "no critique within" in critique.why


async def test_a_proof_sets_the_model_aside(server: FakeLLMServer, model) -> None:
    wrong = StepFinding("wrong", "arithmetic", "7 × 13 = 92", "91 ≠ 92")
    ok_eq = StepFinding("ok", "equation", "x = 4", "same solutions")
    unchecked = StepFinding("unchecked", None, None, "")
    server.then(reply(-1), reply(2), reply(0))
    says_fine = await ask(model)
    says_later = await ask(model)
    names_a_proved_step = await ask(model)
    findings = [unchecked, wrong, unchecked]
    assert not critique_stands(findings, says_fine)
    assert not critique_stands(findings, says_later)
    assert not critique_stands([ok_eq, unchecked, unchecked], names_a_proved_step)
    outcomes = combine(findings, says_fine)
    assert [(o.verdict, o.method) for o in outcomes] == [
        ("unchecked", None),
        ("wrong", "arithmetic"),
        ("unchecked", None),
    ]
    # An earlier error than the proof's is believed: arithmetic cannot see a misread problem.
    server.then(reply(0))
    earlier = await ask(model)
    assert [(o.verdict, o.method) for o in combine(findings, earlier)] == [
        ("wrong", "llm"),
        ("wrong", "arithmetic"),
        ("unchecked", None),
    ]


def test_bench_steps_with_an_openai_compatible_critic(tmp_path: Path) -> None:
    data = tmp_path / "pb.json"
    items = [
        {"id": "gsm8k-1", "problem": PROBLEM, "steps": STEPS, "label": 2,
         "generator": "Qwen2.5-Math-7B-Instruct"},
        {"id": "gsm8k-2", "problem": PROBLEM, "steps": STEPS, "label": 2,
         "generator": "critic-model"},  # its own steps: not asked
        {"id": "math-1", "problem": "Solve 2x + 3 = 11", "steps": ["2x = 8", "x = 4"],
         "label": -1, "generator": "Llama-3.1-8B-Instruct"},
    ]  # fmt: skip
    data.write_text(json.dumps(items))
    fake = FakeLLMServer(default=reply(2)).start()
    try:
        env = {
            "SOLVEVERIFY_OPENAI_COMPATIBLE_BASE_URL": f"{fake.url}/v1",
            "SOLVEVERIFY_OPENAI_COMPATIBLE_MODEL": "critic-model",
            "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        }
        result = run_cli(
            "bench", "steps", "--data", str(data), "--backend", "openai_compatible",
            "--out-dir", str(tmp_path / "out"), cwd=tmp_path, env=env,
        )  # fmt: skip
    finally:
        fake.stop()
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["backend"] == "openai_compatible:critic-model"
    gsm8k, math = summary["subsets"]["gsm8k"], summary["subsets"]["math"]
    assert gsm8k["model"] == {"flagged": 1, "not_asked": 1}
    assert gsm8k["processbench"]["accuracy_erroneous"] == 0.5
    # The critic says step 2 of a two-step solution: outside it, an abstention; the
    # equations check, so the correct solution stays correct.
    assert math["model"] == {"abstained": 1}
    assert math["processbench"]["accuracy_correct"] == 1.0
    assert len(fake.requests) == 2


# ------------------------------------------------------------ calibrated, admitted, evidence


def fitted(target: float = 0.9) -> Calibrator:
    """A critique calibrator fitted on labelled claims: confident claims were right, unsure
    ones wrong (the features app/verification/step_critique.py gives the judge)."""
    from app.verification.step_critique import critique_signals

    rows, labels = [], []
    for i in range(200):
        confidence = 0.5 + (i % 50) / 100  # 0.50 … 0.99
        rows.append(critique_signals(i % 3, confidence))
        labels.append(confidence >= 0.8 and i % 17 != 0)
    model = Calibrator.fit_logistic(rows, labels)
    return model.with_promise(rows, labels, target=target, delta=0.05)


async def test_the_claim_stands_at_the_calibrated_threshold(server: FakeLLMServer, model) -> None:
    calibrator = fitted()
    assert calibrator.threshold is not None
    server.then(reply(2, 0.97), reply(2, 0.6))
    sure = await ask(model, calibrator=calibrator)
    unsure = await ask(model, calibrator=calibrator)
    assert sure.earliest_error == 2 and sure.calibrated
    assert sure.probability is not None and sure.probability >= calibrator.threshold
    # The calibrated probability, not the stated 0.6, is what is judged: below the threshold.
    assert unsure.earliest_error is None and unsure.claimed == 2 and unsure.calibrated
    assert unsure.probability is not None and unsure.probability < calibrator.threshold
    assert "below its bar" in unsure.why


async def test_no_claim_stands_before_a_threshold_keeps_the_promise(
    server: FakeLLMServer, model
) -> None:
    """A calibrator fitted on too little evidence states the promise with no threshold: as for
    answers, nothing but a proof passes, however sure the model says it is."""
    server.then(reply(1, 0.99))
    result = await ask(model, calibrator=Calibrator(target_precision=0.95))
    assert result.earliest_error is None and result.claimed == 1
    assert "no verified threshold" in result.why


async def test_the_critique_is_a_verdict_for_the_ledger(server: FakeLLMServer, model) -> None:
    server.then(reply(2, 0.9), reply(-1, 0.85), reply(2, 0.4), Reply("no idea"))
    names, clears, unsure, unreadable = [await ask(model) for _ in range(4)]
    v = names.as_verdict()
    assert (v.verdict, v.method, v.verifier_id) == (
        "reject",
        "llm",
        "openai:critic-model:step_critique",
    )
    assert v.score == pytest.approx(0.1) and "earliest wrong step 2" in v.rationale
    assert (clears.as_verdict().verdict, clears.as_verdict().score) == ("approve", 0.85)
    assert unsure.as_verdict().verdict == "abstain" and unsure.as_verdict().score is None
    assert "earliest wrong step 2" in unsure.as_verdict().rationale  # what it said is kept
    assert unreadable.as_verdict().verdict == "abstain"


async def test_reading_is_separate_from_judging(server: FakeLLMServer, model) -> None:
    server.then(reply(1, 0.3))
    said = await read_critique(model, PROBLEM, STEPS, timeout=10)
    assert (said.claimed, said.confidence, said.earliest_error) == (1, 0.3, None)
