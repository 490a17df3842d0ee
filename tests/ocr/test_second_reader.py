"""Photo scans with a second reader: a model that reads images (here Gemini, Claude or OpenAI
through its official SDK against the loopback server) reads the photo beside RapidOCR, which
runs for real. The photo is solved only when both readings are the same problem; a
disagreement is `unverified` with `readings_disagree`; the model's reading beside an incomplete
OCR reading is shown, never solved; a failing second reader abstains and the OCR reads alone."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from app.llm.providers import anthropic, gemini, openai
from app.llm.resilience import Resilient
from app.pipeline.prompts.read_image import TASK
from app.pipeline.reading import readings_agree
from solveverify_bench.fake_llm import Answer, Fail, FakeLLMServer, Hang
from solveverify_bench.math_photos import PhotoStyle, render_math
from tests.fixtures.providers import kept

FRACTION = render_math(r"\frac{x}{4}=3", PhotoStyle(fontset="stix", size=36))

MODELS: dict[str, Callable[[FakeLLMServer], Any]] = {
    "gemini": lambda s: gemini.GeminiModel(kept(gemini, "g-key", s.url), "gemini-2.5-flash"),
    "anthropic": lambda s: anthropic.AnthropicModel(
        kept(anthropic, "sk-ant", s.url), "claude-haiku-4-5-20251001"
    ),
    "openai": lambda s: openai.OpenAIChatModel(kept(openai, "sk-test", f"{s.url}/v1"), "gpt-4o"),
}


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    fake = FakeLLMServer().start()
    yield fake
    fake.stop()


@pytest.fixture(autouse=True)
def clean(server: FakeLLMServer) -> None:
    server.reset()


def is_reading(body: dict[str, Any]) -> bool:
    return TASK in json.dumps(body)


class Reads:
    """A competent model that reads the photo as `reading` and does every other job as
    `Answer` does (a solution, a verdict, labels)."""

    def __init__(self, reading: str) -> None:
        self.reading = reading
        self.answer = Answer(final_answer="x = 12", confidence=0.95)

    def __call__(self, dialect: str, body: dict[str, Any]) -> str:
        if is_reading(body):
            return json.dumps({"problem": self.reading, "legible": True})
        return self.answer(dialect, body)


def configure(with_clients, server: FakeLLMServer, dialect: str = "gemini") -> None:
    """The app with this provider configured (every capability, as in production)."""
    with_clients(Resilient(MODELS[dialect](server), base_delay_s=0.01, max_retries=1))


def reading_requests(server: FakeLLMServer) -> list[dict[str, Any]]:
    return [r for r in server.requests if is_reading(r["body"])]


async def post_photo(client: httpx.AsyncClient, image: bytes) -> dict[str, Any]:
    response = await client.post("/v1/scans", files={"image": ("p.png", image, "image/png")})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


@pytest.mark.parametrize("dialect", MODELS)
async def test_two_readings_of_the_same_problem_are_verified(
    client: httpx.AsyncClient, with_clients, server: FakeLLMServer, dialect: str
) -> None:
    server.default = Reads(r"\frac{x}{4} = 3")
    configure(with_clients, server, dialect)
    body = await post_photo(client, FRACTION)
    assert body["verification_status"] == "verified", body
    assert body["final_answer"].replace(" ", "") == "x=12"
    assert body["second_reading"] == r"\frac{x}{4} = 3"
    assert body["ocr_latex"].replace(" ", "") == r"\frac{x}{4}=3"
    assert body["caution_reason"] is None
    (request,) = reading_requests(server)  # the photo was sent once, to the model
    assert base64.b64encode(FRACTION).decode() in json.dumps(request["body"]).replace(
        "-", "+"
    ).replace("_", "/")
    assert body["model_calls"] >= 1
    scan = (await client.get(f"/v1/scans/{body['scan_id']}")).json()
    assert scan["solution"]["second_reading"] == r"\frac{x}{4} = 3"


async def test_readings_that_disagree_are_not_solved(
    client: httpx.AsyncClient, with_clients, server: FakeLLMServer
) -> None:
    server.default = Reads(r"\frac{x}{4} = 8")
    configure(with_clients, server)
    body = await post_photo(client, FRACTION)
    assert body["verification_status"] == "unverified" and body["final_answer"] is None
    assert body["caution_reason"]["code"] == "readings_disagree"
    assert "two ways" in body["caution_reason"]["message"]
    # Both readings are shown, so the student can say which is right.
    assert body["ocr_latex"].replace(" ", "") == r"\frac{x}{4}=3"
    assert body["second_reading"] == r"\frac{x}{4} = 8"
    assert server.requests == reading_requests(server)  # nothing else was asked: no solving
    assert body["model_calls"] == 1


async def test_the_models_reading_alone_is_shown_never_solved(
    client: httpx.AsyncClient, with_clients, server: FakeLLMServer
) -> None:
    """The OCR cannot read a sum sign: the model can, but one reader is not enough."""
    server.default = Reads(r"\sum_{i=1}^{3} i")
    configure(with_clients, server)
    body = await post_photo(client, render_math(r"\sum_{i=1}^{3} i", PhotoStyle(size=36)))
    assert body["verification_status"] == "unverified" and body["final_answer"] is None
    assert body["caution_reason"]["code"] == "incomplete_reading"
    assert body["second_reading"] == r"\sum_{i=1}^{3} i"
    assert server.requests == reading_requests(server)


@pytest.mark.parametrize(
    "failure",
    [Fail(500), Fail(429, {"retry-after": "0.05"}), Hang(30)],
    ids=["500", "429", "hang"],
)
async def test_a_failing_second_reader_abstains_and_the_ocr_reads_alone(
    client: httpx.AsyncClient, with_clients, server: FakeLLMServer, services, monkeypatch, failure
) -> None:
    monkeypatch.setattr(services.settings.verify, "read_image_timeout_s", 1.0)
    server.default = Reads(r"\frac{x}{4} = 3")
    server.then(failure, failure)  # the reading and its one retry
    configure(with_clients, server)
    body = await post_photo(client, FRACTION)
    assert body["second_reading"] is None
    assert body["verification_status"] == "verified", body
    assert body["final_answer"].replace(" ", "") == "x=12"
    assert len(reading_requests(server)) in (1, 2)  # a hang uses the whole time on the first


async def test_a_malformed_reading_is_an_abstention(
    client: httpx.AsyncClient, with_clients, server: FakeLLMServer
) -> None:
    server.default = Reads("")  # a reply with an empty reading
    configure(with_clients, server)
    body = await post_photo(client, FRACTION)
    assert body["second_reading"] is None and body["verification_status"] == "verified"


async def test_without_a_model_the_ocr_reads_alone(client: httpx.AsyncClient) -> None:
    body = await post_photo(client, FRACTION)
    assert body["second_reading"] is None and body["verification_status"] == "verified"
    assert body["model_calls"] == 0


@pytest.mark.parametrize(
    ("ocr", "model", "agree"),
    [
        ("(x)/(4)=3", r"\frac{x}{4}=3", True),  # the same text
        ("Solve: (x)/(4)=3", r"Solve: $\dfrac{x}{4} = 3$", True),
        ("1 1/2+2", r"1\frac{1}{2} + 2", True),
        ("x^(2)-5x+6=0", "x^2 - 5x + 6 = 0", True),
        ("(x)/(4)=3", r"x \div 4 = 3", True),  # the same problem, another notation
        ("sqrt(x+5)=3", r"\sqrt{x + 5} = 3", True),
        ("(x)/(4)=3", r"\frac{x}{4}=8", False),
        ("x=3", r"\frac{x}{4}=3", False),  # what the line reader alone used to see
        ("1+2=", r"1\frac{1}{2}+2", False),
        ("3", "1+2", False),  # the same value is not the same problem
        ("Tom has 3 apples. How many?", "Tom has 8 apples. How many?", False),
        ("Tom has 3 apples. How many?", "Tom has 3 apples.  How many?", True),
    ],
)
async def test_when_two_readings_agree(sandbox, ocr: str, model: str, agree: bool) -> None:
    assert await readings_agree(sandbox, ocr, model) is agree
