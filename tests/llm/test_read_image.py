"""The second reader of a photo (`read_image`) through each official SDK against the loopback
server speaking its wire protocol: the photo's bytes arrive in each API's own image format, the
reading comes back, and every failure (500, 429, a hang past the timeout, a malformed body, a
reply with no reading, an exhausted budget) is an abstention, never an error."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from app.llm.budget import InMemoryBudget, Limits
from app.llm.errors import ProviderError
from app.llm.providers import anthropic, gemini, openai
from app.llm.providers.openai_compatible import OpenAICompatibleModel
from app.llm.resilience import Resilient
from app.llm.types import Image, Message
from app.pipeline.prompts.read_image import TASK
from app.pipeline.reading import canonical_latex, image_type, read_reply, second_reading
from solveverify_bench.fake_llm import Fail, FakeLLMServer, Hang, Malformed, Reply
from tests.fixtures.images import blank_png
from tests.fixtures.providers import close_at_end, kept

PHOTO = blank_png(64, 32)
READING = json.dumps({"problem": r"\frac{x}{4}=3", "legible": True})

DIALECTS = {
    "openai": lambda s: openai.OpenAIChatModel(kept(openai, "sk-test", f"{s.url}/v1"), "gpt-4o"),
    "anthropic": lambda s: anthropic.AnthropicModel(
        kept(anthropic, "sk-ant", s.url), "claude-haiku-4-5-20251001"
    ),
    "gemini": lambda s: gemini.GeminiModel(kept(gemini, "g-key", s.url), "gemini-2.5-flash"),
}


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    fake = FakeLLMServer().start()
    yield fake
    fake.stop()


@pytest.fixture(autouse=True)
def clean(server: FakeLLMServer) -> None:
    server.reset()


def reader(dialect: str, server: FakeLLMServer, **kwargs: Any) -> Resilient:
    kwargs.setdefault("base_delay_s", 0.01)
    return Resilient(DIALECTS[dialect](server), **kwargs)


def sent_image(dialect: str, body: dict[str, Any]) -> tuple[str, bytes, str]:
    """(MIME type, decoded bytes, the task's text) of the one image in a request, read from
    the dialect's own wire format."""
    if dialect == "gemini":
        (turn,) = body["contents"]
        assert turn["role"] == "user"
        image, text = turn["parts"]
        blob = image["inlineData"]
        # The SDK writes the bytes URL-safe (the API reads either alphabet) and the type's
        # key as `mime_type` (the API reads either spelling).
        mime_type = blob.get("mimeType", blob.get("mime_type"))
        return mime_type, base64.urlsafe_b64decode(blob["data"]), text["text"]
    if dialect == "anthropic":
        (turn,) = body["messages"]
        image, text = turn["content"]
        assert image["type"] == "image" and image["source"]["type"] == "base64"
        source = image["source"]
        return source["media_type"], base64.b64decode(source["data"]), text["text"]
    _, turn = body["messages"]
    text, image = turn["content"]
    assert text["type"] == "text" and image["type"] == "image_url"
    header, data = image["image_url"]["url"].split(",", 1)
    assert header.startswith("data:") and header.endswith(";base64")
    mime_type = header.removeprefix("data:").removesuffix(";base64")
    return mime_type, base64.b64decode(data), text["text"]


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_the_photo_arrives_in_the_apis_format_and_the_reading_comes_back(
    server: FakeLLMServer, dialect: str
) -> None:
    server.then(Reply(READING))
    client = reader(dialect, server)
    assert "read_image" in client.capabilities
    assert await second_reading(client, PHOTO, timeout=10) == r"\frac{x}{4}=3"
    (request,) = server.requests
    mime_type, data, task = sent_image(dialect, request["body"])
    assert (mime_type, data, task) == ("image/png", PHOTO, TASK)
    body = request["body"]
    if dialect == "gemini":
        assert request["path"] == "/v1beta/models/gemini-2.5-flash:generateContent"
        assert body["generationConfig"]["responseMimeType"] == "application/json"
        assert "Do not solve" in body["systemInstruction"]["parts"][0]["text"]
    if dialect == "anthropic":
        assert body["model"] == "claude-haiku-4-5-20251001"
        assert "Do not solve" in body["system"]
        assert body["output_config"]["format"]["type"] == "json_schema"
    if dialect == "openai":
        assert body["model"] == "gpt-4o"
        assert body["messages"][0]["role"] == "system"
        assert body["response_format"]["json_schema"]["name"] == "ReadingOutput"


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_a_jpeg_is_sent_as_a_jpeg(server: FakeLLMServer, dialect: str) -> None:
    import io

    from PIL import Image as PILImage

    buffer = io.BytesIO()
    PILImage.new("RGB", (40, 20), "white").save(buffer, "JPEG")
    jpeg = buffer.getvalue()
    server.then(Reply(READING))
    assert await second_reading(reader(dialect, server), jpeg, timeout=10) is not None
    mime_type, data, _ = sent_image(dialect, server.requests[0]["body"])
    assert (mime_type, data) == ("image/jpeg", jpeg)


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_a_500_is_retried_then_the_reader_abstains(
    server: FakeLLMServer, dialect: str
) -> None:
    server.then(Fail(500), Reply(READING))
    assert await second_reading(reader(dialect, server), PHOTO, timeout=10) == r"\frac{x}{4}=3"
    assert len(server.requests) == 2
    server.reset()
    server.default = Fail(500)
    assert await second_reading(reader(dialect, server, max_retries=2), PHOTO, timeout=10) is None
    assert len(server.requests) == 3


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_a_429_waits_its_retry_after_and_abstains_when_it_lasts(
    server: FakeLLMServer, dialect: str
) -> None:
    server.then(Fail(429, {"retry-after": "0.3"}), Reply(READING))
    started = time.perf_counter()
    assert await second_reading(reader(dialect, server), PHOTO, timeout=10) is not None
    assert time.perf_counter() - started >= 0.3
    server.reset()
    server.default = Fail(429, {"retry-after": "0.05"})
    assert await second_reading(reader(dialect, server, max_retries=1), PHOTO, timeout=10) is None
    assert len(server.requests) == 2


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_a_hang_past_the_timeout_is_an_abstention(
    server: FakeLLMServer, dialect: str
) -> None:
    server.default = Hang(5)
    started = time.perf_counter()
    assert await second_reading(reader(dialect, server), PHOTO, timeout=0.5) is None
    assert time.perf_counter() - started < 3  # the whole call, retries included


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize(
    "behavior",
    [
        Malformed(),
        Reply("I cannot see any problem here."),
        Reply(json.dumps({"problem": r"\frac{x}{4}=3", "legible": False})),
        Reply(json.dumps({"problem": "   "})),
        Reply(json.dumps({"problem": ["x"]})),
        Reply(json.dumps({"problem": "x" * 5000})),
    ],
    ids=["malformed", "prose", "illegible", "empty", "not-text", "too-long"],
)
async def test_a_reply_without_a_reading_is_an_abstention(
    server: FakeLLMServer, dialect: str, behavior: Any
) -> None:
    server.default = behavior
    assert await second_reading(reader(dialect, server), PHOTO, timeout=10) is None
    assert len(server.requests) == 1  # never retried: asking again reads nothing new


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_the_image_call_takes_from_the_providers_budget(
    server: FakeLLMServer, dialect: str
) -> None:
    server.default = Reply(READING)
    budget = InMemoryBudget()
    client = reader(dialect, server, budget=budget, limits=Limits(rpm=1))
    assert await second_reading(client, PHOTO, timeout=10) is not None
    assert await second_reading(client, PHOTO, timeout=10) is None  # exhausted: abstains
    assert len(server.requests) == 1
    state = await budget.state(client.budget_key, Limits(rpm=1))
    assert state.used_minute == 1


async def test_a_served_model_of_unknown_kind_is_never_sent_a_photo(
    server: FakeLLMServer,
) -> None:
    model = OpenAICompatibleModel(f"{server.url}/v1", "served", None)
    close_at_end(openai.close_sdk, model.sdk)
    assert "read_image" not in model.capabilities
    messages = [Message("user", TASK, images=(Image(PHOTO, "image/png"),))]
    with pytest.raises(ProviderError, match="does not read images"):
        await Resilient(model).generate(messages, timeout=5)
    assert server.requests == []


def test_only_png_and_jpeg_are_recognized() -> None:
    assert image_type(PHOTO) == "image/png"
    assert image_type(b"GIF89a....") is None


@pytest.mark.parametrize(
    ("reply", "reading"),
    [
        ({"problem": r"$\frac{x}{4}=3$"}, r"\frac{x}{4}=3"),
        ({"problem": r"\[ x^2 = 4 \]", "legible": True}, "x^2 = 4"),
        ({"problem": "Solve: $x+1=2$"}, "Solve: $x+1=2$"),
        ({"problem": "2x = 8", "legible": "yes"}, None),
        (None, None),
    ],
)
def test_reading_a_reply(reply: Any, reading: str | None) -> None:
    assert read_reply(reply) == reading


@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        (r"\frac{x}{4} = 3", r"\dfrac{x}{4}=3", True),
        (r"3 \cdot 4", r"3\times4", True),
        (r"x^2+1", r"x^{2} + 1", True),
        (r"\left(1+2\right)", "(1+2)", True),
        ("2 3", "23", False),
        (r"\frac{x}{4}=3", r"\frac{x}{4}=8", False),
    ],
)
def test_canonical_latex(first: str, second: str, same: bool) -> None:
    assert (canonical_latex(first) == canonical_latex(second)) is same
