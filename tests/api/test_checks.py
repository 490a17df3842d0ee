"""POST /v1/checks and `solveverify check`: correct / incorrect / unknown, never a guess."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.bench.fake_llm import FakeLLMServer, Reply
from app.llm.providers import openai
from app.llm.registry import Provider
from tests.fixtures.images import draw_text
from tests.fixtures.processes import run_cli
from tests.fixtures.providers import kept, verdict_json

LINEAR = "If 7 - 4x = 15, what is the value of 8x + 2?"
WORD_PROBLEM = (
    "A baker fills 7 trays with 13 muffins each and sells all but 5 muffins. "
    "How many muffins does the baker sell?"
)
# GSM8K train, line 1: in the problem bank, answer 72.
BANK_PROBLEM = (
    "Natalia sold clips to 48 of her friends in April, and then she sold half as many clips "
    "in May. How many clips did Natalia sell altogether in April and May?"
)


async def check(client: httpx.AsyncClient, problem: str, answer: str) -> dict:
    response = await client.post("/v1/checks", json={"problem": problem, "answer": answer})
    assert response.status_code == 200, response.text
    return response.json()


# ------------------------------------------------------------------ acceptance


@pytest.mark.parametrize(
    ("problem", "answer", "verdict"),
    [
        (LINEAR, "-14", "correct"),
        (LINEAR, "-2", "incorrect"),
        ("sqrt(x) = 3", "9", "correct"),
    ],
)
async def test_acceptance(client: httpx.AsyncClient, problem: str, answer: str, verdict: str):
    body = await check(client, problem, answer)
    assert body["verdict"] == verdict, body
    assert body["method"] == "programmatic"


async def test_programmatic_verdicts_carry_the_expected_answer(client: httpx.AsyncClient):
    right = await check(client, "Solve 2x + 3 = 11", "x = 4")
    assert right["verdict"] == "correct" and right["confidence"] == 1.0
    wrong = await check(client, "Solve 2x + 3 = 11", "5")
    assert wrong["verdict"] == "incorrect" and wrong["method"] == "programmatic"
    assert wrong["expected"] is not None and "4" in wrong["expected"]
    assert wrong["confidence"] >= 0.95
    assert set(wrong) == {"verdict", "method", "expected", "detail", "confidence"}


async def test_ground_truth_from_the_problem_bank(client: httpx.AsyncClient):
    right = await check(client, BANK_PROBLEM, "72")
    assert (right["verdict"], right["method"], right["expected"]) == (
        "correct",
        "ground_truth",
        "72",
    )
    wrong = await check(client, BANK_PROBLEM, "96")
    assert (wrong["verdict"], wrong["method"]) == ("incorrect", "ground_truth")


async def test_unknown_when_nothing_can_tell(client: httpx.AsyncClient):
    body = await check(client, WORD_PROBLEM, "86")
    assert body["verdict"] == "unknown"
    assert body["confidence"] is None and body["expected"] is None
    assert body["detail"]


# ------------------------------------------------------------------ a model verifier


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    fake = FakeLLMServer().start()
    yield fake
    fake.stop()


def sdk_model(server: FakeLLMServer) -> openai.OpenAIChatModel:
    return openai.OpenAIChatModel(kept(openai, "sk-test", f"{server.url}/v1"), "gpt-4o-mini")


async def test_admitted_model_verifier_decides_a_word_problem(
    client: httpx.AsyncClient, with_clients, server: FakeLLMServer
):
    server.reset()
    with_clients(sdk_model(server))
    server.then(Reply(verdict_json(True, 0.9, "86")))
    right = await check(client, WORD_PROBLEM, "86")
    assert (right["verdict"], right["method"], right["confidence"]) == ("correct", "llm", 0.9)
    assert right["expected"] is None  # a model's answer is not a known answer

    # It says "correct" but computes 86: the 90 is incorrect, whatever is_correct says.
    server.then(Reply(verdict_json(True, 0.99, "86")))
    contradicted = await check(client, WORD_PROBLEM, "90")
    assert contradicted["verdict"] == "unknown"  # a self-contradiction is no sure rejection
    server.then(Reply(verdict_json(False, 0.9, "86")))
    wrong = await check(client, WORD_PROBLEM, "90")
    assert (wrong["verdict"], wrong["method"]) == ("incorrect", "llm")
    # the user's message names the problem and the answer, as data
    prompt = server.requests[-1]["body"]["messages"][-1]["content"]
    assert WORD_PROBLEM in prompt and "90" in prompt


async def test_model_verifier_not_admitted_is_not_asked(
    client: httpx.AsyncClient, with_clients, server: FakeLLMServer
):
    server.reset()
    tiny = Provider("llamacpp", {"strong": sdk_model(server)}, operator_chosen=False)
    with_clients(tiny)
    server.then(Reply(verdict_json(True, 1.0, "86")))
    body = await check(client, WORD_PROBLEM, "86")
    assert body["verdict"] == "unknown"
    assert server.requests == []


# ------------------------------------------------------------------ input and errors


async def test_photo_of_the_problem(client: httpx.AsyncClient):
    png = draw_text("2x + 3 = 11")
    response = await client.post(
        "/v1/checks", files={"image": ("p.png", png, "image/png")}, data={"answer": "4"}
    )
    assert response.status_code == 200, response.text
    assert response.json()["verdict"] == "correct"


@pytest.mark.parametrize(
    ("kwargs", "status", "code"),
    [
        ({"json": {"problem": "1+1=?", "answer": "   "}}, 422, "invalid_request"),
        ({"json": {"problem": "", "answer": "2"}}, 422, "invalid_request"),
        ({"json": {"problem": "1+1=?"}}, 422, "invalid_request"),
        ({"json": {"problem": "1+1=?", "answer": "2" * 201}}, 422, "invalid_request"),
        ({"json": {"problem": "x" * 4001, "answer": "2"}}, 422, "invalid_request"),
        (
            {"content": b"{not json", "headers": {"content-type": "application/json"}},
            422,
            "invalid_request",
        ),
        ({"content": b"problem", "headers": {"content-type": "text/plain"}}, 415, None),
        (
            {"files": {"image": ("p.png", b"%PDF-1.4 not an image", "image/png")},
             "data": {"answer": "4"}},
            415,
            "unsupported_media_type",
        ),
        ({"files": {"image": ("p.png", b"", "image/png")}, "data": {}}, 422, "invalid_request"),
        ({"files": {"other": ("a.txt", b"x", "text/plain")}, "data": {"answer": "4"}}, 422,
         "missing_image"),
    ],
)  # fmt: skip
async def test_bad_input_is_a_4xx_envelope(client: httpx.AsyncClient, kwargs, status, code):
    response = await client.post("/v1/checks", **kwargs)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert set(error) >= {"code", "message"}
    if code is not None:
        assert error["code"] == code


async def test_an_image_without_text_is_a_422(client: httpx.AsyncClient):
    from tests.fixtures.images import blank_png

    response = await client.post(
        "/v1/checks", files={"image": ("p.png", blank_png(), "image/png")}, data={"answer": "4"}
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "no_text_found"


# ------------------------------------------------------------------ the command line


def test_cli_acceptance(tmp_path: Path) -> None:
    env = {"SOLVEVERIFY_LLAMACPP_ENABLED": "false"}
    for problem, answer, verdict in [
        (LINEAR, "-14", "correct"),
        (LINEAR, "-2", "incorrect"),
        ("sqrt(x) = 3", "9", "correct"),
    ]:
        result = run_cli("check", "--problem", problem, "--answer", answer, cwd=tmp_path, env=env)
        assert result.returncode == 0, result.stderr
        body = json.loads(result.stdout)
        assert body["verdict"] == verdict, (problem, answer, body)


def test_cli_bad_input_is_an_error_envelope(tmp_path: Path) -> None:
    result = run_cli("check", "--problem", "1+1=?", "--answer", " ", cwd=tmp_path)
    assert result.returncode == 2
    assert json.loads(result.stderr)["error"]["code"] == "invalid_request"
