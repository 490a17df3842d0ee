"""`verified` means right (adversarial round 5, F1 and F2) through the HTTP API: models that
agree on x = 5 for 2x + 3 = 11 are refuted by substitution whatever words surround the
equation, a proof outranks a model that rejects the right answer, and an answer with the work
left undone is never `correct`, whatever a model says. Scans use scripted providers; checks a
real OpenAI-compatible model on a loopback server."""

from __future__ import annotations

import httpx
import pytest

from solveverify_bench.fake_llm import FakeLLMServer, Reply
from tests.fixtures.checks import check
from tests.fixtures.fake_llm import sdk_model
from tests.fixtures.providers import solver, verdict_json, verifier

AGREEING_ON_A_WRONG_VALUE = [
    ("Please solve 2x + 3 = 11 carefully", "x = 5"),
    ("解方程：2x+3=11（请写出过程）", "x = 5"),
    ("Solve 2x + 3 = 11, explain each step", "x = 5"),
    ("Determine the value of o that satisfies: 3*o + 2 = 11 (show work)", "o = 5"),
    ("Solve 2x + 3 = 11, then double it", "x = 5"),  # the words are not read: still refuted
    ("What is 20% of 50% of 80?", "10"),  # 8
]


@pytest.mark.parametrize(("text", "wrong"), AGREEING_ON_A_WRONG_VALUE)
async def test_a_scan_whose_models_agree_on_a_wrong_value_is_not_verified(
    client: httpx.AsyncClient, with_clients, text: str, wrong: str
) -> None:
    gullible = verifier("gullible", verdict_json(True, 0.99, wrong))
    with_clients(solver("m1", wrong), gullible, symbolic=False)
    response = await client.post("/v1/scans", json={"text": text})
    assert response.status_code == 201, response.text
    body = response.json()
    assert not (body["verification_status"] == "verified" and body["final_answer"] == wrong)


@pytest.mark.parametrize(
    ("problem", "answer", "model_says"),
    [
        ("Please solve 2x + 3 = 11 carefully", "x = 5", True),  # the model is wrong
        ("Please solve 2x + 3 = 11 carefully", "x = 4", False),  # the model is wrong
        ("Solve 2x + 3 = 11, then double it", "x = 5", True),
    ],
)
async def test_substitution_decides_before_the_model(
    client: httpx.AsyncClient, with_clients, fake_llm: FakeLLMServer, problem, answer, model_says
) -> None:
    fake_llm.reset()
    with_clients(sdk_model(fake_llm))
    fake_llm.then(Reply(verdict_json(model_says, 0.99, answer)))
    body = await check(client, problem, answer)
    right = answer == "x = 4"
    assert (body["verdict"], body["method"]) == (
        "correct" if right else "incorrect",
        "programmatic",
    )
    assert fake_llm.requests == []  # the proof decided: no model was asked


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("3/4 + 5/6 = ?", "3/4 + 5/6"),
        ("7 × 8 = ?", "7 × 8"),
        ("What is 15% of 80?", "1200%"),
        ("Simplify (x^2-1)/(x-1)", "(x-1)(x+1)/(x-1)"),
    ],
)
async def test_an_answer_not_worked_out_is_unknown_whatever_a_model_says(
    client: httpx.AsyncClient, with_clients, fake_llm: FakeLLMServer, problem: str, answer: str
) -> None:
    fake_llm.reset()
    with_clients(sdk_model(fake_llm))
    fake_llm.then(Reply(verdict_json(True, 0.99, answer)))
    body = await check(client, problem, answer)
    assert body["verdict"] == "unknown", body
    assert fake_llm.requests == []


async def test_a_proof_outranks_a_model_that_rejects_the_right_answer(
    client: httpx.AsyncClient, with_clients
) -> None:
    """The reverse: the verifier says x = 5; substitution proves x = 4 (the harmless words
    are read), and the proof decides."""
    doubter = verifier("doubter", verdict_json(False, 0.99, "x = 5"))
    with_clients(solver("m1", "x = 4"), doubter, symbolic=False)
    text = "Please solve 2x + 3 = 11 carefully"
    body = (await client.post("/v1/scans", json={"text": text})).json()
    assert (body["final_answer"], body["verification_status"]) == ("x = 4", "verified")
    assert doubter.calls == []
