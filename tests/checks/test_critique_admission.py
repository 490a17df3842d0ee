"""A step critique is admitted by its own measurement (`bench steps --fit-calibration` records
its claims' AUROC and the model it was measured on): a critic measured under the bar is not
asked, and a calibrator fitted on another model is not applied to this one."""

from __future__ import annotations

import json
from dataclasses import replace

import httpx
import pytest

from app.verification.calibration import Calibrator
from solveverify_bench.fake_llm import FakeLLMServer, Reply
from tests.fixtures.fake_llm import sdk_model

PROBLEM = (
    "A baker fills 7 trays with 13 muffins each and sells all but 5 muffins. "
    "How many muffins does the baker sell?"
)
STEPS = ["7 × 13 = 91", "91 - 7 = 84"]  # right arithmetic, the wrong number taken away
THIS_MODEL = "openai:gpt-4o-mini"
# Sure claims stand under it: P = sigmoid(10 × confidence - 5) ≥ 0.9 at confidence 0.99.
SURE = {"features": ["step_critique_confidence"], "weights": [10.0], "bias": -5.0, "threshold": 0.9}


def calibrator(*, auroc: float, measured_on: str) -> Calibrator:
    return Calibrator(
        target_precision=0.95, n_samples=200, auroc=auroc, measured_on=measured_on, **SURE
    )


async def checked(client: httpx.AsyncClient, fake: FakeLLMServer) -> dict:
    reply = {"independent_answer": "86", "is_correct": False, "confidence": 0.99,
             "earliest_error_step": 1}  # fmt: skip
    fake.then(Reply(json.dumps(reply))).then(Reply(json.dumps(reply)))
    response = await client.post(
        "/v1/checks", json={"problem": PROBLEM, "answer": "84", "steps": STEPS}
    )
    assert response.status_code == 200, response.text
    return response.json()


def critiques(fake: FakeLLMServer) -> list[str]:
    prompts = [r["body"]["messages"][-1]["content"] for r in fake.requests]
    return [p for p in prompts if "<paragraph_1>" in p]


@pytest.fixture
def critic(with_clients, fake_llm: FakeLLMServer, services, monkeypatch):
    fake_llm.reset()
    with_clients(sdk_model(fake_llm))

    def use(step_calibrator: Calibrator) -> None:
        pipeline = replace(services.pipeline, step_calibrator=step_calibrator)
        monkeypatch.setattr(services, "pipeline", pipeline)

    return use


async def test_a_critique_measured_under_the_bar_is_not_asked(
    client: httpx.AsyncClient, critic, fake_llm: FakeLLMServer
):
    critic(calibrator(auroc=0.55, measured_on=THIS_MODEL))
    body = await checked(client, fake_llm)
    assert critiques(fake_llm) == []  # the answer check asked the model; the critique did not
    assert body["first_error_step"] is None and body["first_flagged_step"] is None
    assert [(s["verdict"], s["method"]) for s in body["steps"]] == [("ok", "arithmetic")] * 2


async def test_a_critique_measured_over_the_bar_is_judged_by_its_calibrator(
    client: httpx.AsyncClient, critic, fake_llm: FakeLLMServer
):
    critic(calibrator(auroc=0.85, measured_on=THIS_MODEL))
    body = await checked(client, fake_llm)
    assert len(critiques(fake_llm)) == 1
    assert body["first_error_step"] == 1
    assert body["steps"][1]["method"] == "llm"


async def test_another_models_calibrator_is_not_applied(
    client: httpx.AsyncClient, critic, fake_llm: FakeLLMServer
):
    """Measured bad on another model: this one is unmeasured, asked, and judged as before any
    fit (a stated 0.99 reaches the raw bar); its claims are not read through a calibrator whose
    promise no threshold kept (that would let none stand)."""
    other = calibrator(auroc=0.5, measured_on="anthropic:claude-3-5-haiku-latest")
    critic(replace(other, threshold=None))
    body = await checked(client, fake_llm)
    assert len(critiques(fake_llm)) == 1
    assert body["first_error_step"] == 1
