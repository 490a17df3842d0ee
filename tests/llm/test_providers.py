"""Each SDK provider through its official SDK against a loopback server speaking its protocol.

Happy path with native JSON mode, 429 with Retry-After, 500, a hang past the timeout, a
malformed body and a plain 4xx — retried or not exactly as app.llm.resilience says.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator

import pytest

from app.llm.errors import (
    MalformedResponse,
    ProviderError,
    ProviderTimeout,
    ProviderUnavailable,
    RateLimited,
)
from app.llm.outputs import SolveOutput, schema_of
from app.llm.providers import anthropic, gemini, openai
from app.llm.providers.openai_compatible import OpenAICompatibleModel
from app.llm.resilience import Resilient
from app.llm.types import Message
from solveverify_bench.fake_llm import Fail, FakeLLMServer, Hang, Malformed, Reply
from tests.fixtures.providers import close_at_end, kept

SOLUTION = '{"steps": [{"description": "2x = 8"}], "final_answer": "x = 4"}'
MESSAGES = [Message("system", "You are a tutor."), Message("user", "Solve 2x + 3 = 11")]


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    fake = FakeLLMServer().start()
    yield fake
    fake.stop()


@pytest.fixture(autouse=True)
def clean(server: FakeLLMServer) -> None:
    server.reset()


Factory = Callable[[FakeLLMServer], object]


def compatible(server: FakeLLMServer) -> OpenAICompatibleModel:
    model = OpenAICompatibleModel(f"{server.url}/v1", None, None)
    close_at_end(openai.close_sdk, model.sdk)
    return model


DIALECTS: dict[str, Factory] = {
    "openai": lambda s: openai.OpenAIChatModel(
        kept(openai, "sk-test", f"{s.url}/v1"), "gpt-4o-mini"
    ),
    "anthropic": lambda s: anthropic.AnthropicModel(
        kept(anthropic, "sk-ant", s.url), "claude-haiku-4-5-20251001"
    ),
    "gemini": lambda s: gemini.GeminiModel(kept(gemini, "g-key", s.url), "gemini-2.5-flash-lite"),
    "openai_compatible": lambda s: compatible(s),
}


def resilient(dialect: str, server: FakeLLMServer, **kwargs) -> Resilient:
    kwargs.setdefault("base_delay_s", 0.01)
    return Resilient(DIALECTS[dialect](server), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_json_reply(server: FakeLLMServer, dialect: str) -> None:
    server.then(Reply(f"```json\n{SOLUTION}\n```"))
    client = resilient(dialect, server)
    response = await client.generate(MESSAGES, json_schema=schema_of(SolveOutput), timeout=10)
    assert response.data == {"steps": [{"description": "2x = 8"}], "final_answer": "x = 4"}
    assert response.provider == dialect
    assert (response.usage.input_tokens, response.usage.output_tokens) == (11, 7)
    assert response.latency_s > 0
    (request,) = server.requests
    body = request["body"]
    if dialect in ("openai", "openai_compatible"):
        assert body["response_format"]["type"] == "json_schema"
        assert body["messages"][0] == {"role": "system", "content": "You are a tutor."}
    if dialect == "openai_compatible":
        assert body["model"] == "fake-served-model"  # discovered from GET /v1/models
        assert response.model == "fake-openai-model"
    if dialect == "anthropic":
        assert body["output_config"]["format"]["type"] == "json_schema"
        assert body["system"] == "You are a tutor."
        assert body["messages"] == [{"role": "user", "content": "Solve 2x + 3 = 11"}]
    if dialect == "gemini":
        assert request["path"] == "/v1beta/models/gemini-2.5-flash-lite:generateContent"
        config = body["generationConfig"]
        assert config["responseMimeType"] == "application/json"
        assert "responseJsonSchema" in config
        assert body["systemInstruction"]["parts"][0]["text"] == "You are a tutor."


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_429_honours_retry_after(server: FakeLLMServer, dialect: str) -> None:
    server.then(Fail(429, {"retry-after": "0.3"}), Reply(SOLUTION))
    started = time.perf_counter()
    response = await resilient(dialect, server).generate(MESSAGES, timeout=10)
    assert response.text == SOLUTION
    assert len(server.requests) == 2
    assert time.perf_counter() - started >= 0.3


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_500_is_retried_then_gives_up(server: FakeLLMServer, dialect: str) -> None:
    server.then(Fail(500), Reply(SOLUTION))
    assert (await resilient(dialect, server).generate(MESSAGES, timeout=10)).text == SOLUTION
    server.reset()
    server.default = Fail(500)
    with pytest.raises(ProviderUnavailable):
        await resilient(dialect, server, max_retries=2).generate(MESSAGES, timeout=10)
    assert len(server.requests) == 3


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_hang_past_the_timeout(server: FakeLLMServer, dialect: str) -> None:
    server.default = Hang(5)
    started = time.perf_counter()
    with pytest.raises(ProviderTimeout):
        await resilient(dialect, server, max_retries=1).generate(MESSAGES, timeout=0.4)
    assert time.perf_counter() - started < 1.5
    # The limit bounds the call, retries included: a hang is not tried again past it (a
    # hanging provider cost a student 30 s per try, three tries per provider).
    assert len(server.requests) == 1


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_a_retry_runs_in_what_is_left_of_the_limit(
    server: FakeLLMServer, dialect: str
) -> None:
    server.then(Fail(500), Hang(5))
    started = time.perf_counter()
    with pytest.raises(ProviderTimeout):
        await resilient(dialect, server, max_retries=2).generate(MESSAGES, timeout=1.0)
    assert time.perf_counter() - started < 2.0
    assert len(server.requests) == 2


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_a_retry_after_past_the_limit_is_not_waited_for(
    server: FakeLLMServer, dialect: str
) -> None:
    server.then(Fail(429, {"retry-after": "3600"}), Reply(SOLUTION))
    started = time.perf_counter()
    with pytest.raises(RateLimited):
        await resilient(dialect, server).generate(MESSAGES, timeout=2)
    assert time.perf_counter() - started < 1.5 and len(server.requests) == 1
    # nor within a long limit: 3600 s is past the longest wait between tries (it was capped to
    # that wait and waited for, 20 s, instead of asking the next provider at once)
    server.reset()
    server.then(Fail(429, {"retry-after": "3600"}), Reply(SOLUTION))
    started = time.perf_counter()
    with pytest.raises(RateLimited):
        await resilient(dialect, server).generate(MESSAGES, timeout=120)
    assert time.perf_counter() - started < 1.5 and len(server.requests) == 1


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_malformed_body_is_not_retried(server: FakeLLMServer, dialect: str) -> None:
    server.default = Malformed()
    with pytest.raises(MalformedResponse):
        await resilient(dialect, server).generate(MESSAGES, timeout=10)
    assert len(server.requests) == 1


@pytest.mark.parametrize("dialect", DIALECTS)
async def test_client_error_is_not_retried(server: FakeLLMServer, dialect: str) -> None:
    server.default = Fail(400, message="bad request")
    with pytest.raises(ProviderError) as raised:
        await resilient(dialect, server).generate(MESSAGES, timeout=10)
    assert not raised.value.retryable and raised.value.status == 400
    assert len(server.requests) == 1


# ------------------------------------------------ raw replies: every field is untrusted


def raw_body(dialect: str, text: str, model: object, usage: object) -> bytes:
    """A 200 reply in the dialect's shape with the given (possibly hostile) fields."""
    if dialect == "openai":
        body = {
            "id": "c1",
            "object": "chat.completion",
            "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}}],
            "usage": usage,
        }
    else:
        body = {
            "id": "m1",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": text}],
            "usage": usage,
        }
    return json.dumps(body).encode()


RAW = ["openai", "anthropic"]
TOKENS = {
    "openai": ("prompt_tokens", "completion_tokens"),
    "anthropic": ("input_tokens", "output_tokens"),
}


@pytest.mark.parametrize("dialect", RAW)
@pytest.mark.parametrize("count", ["10", None, -3, 1.5, True, [1]])
async def test_token_counts_that_are_not_counts_are_zero(server, dialect: str, count) -> None:
    usage = dict.fromkeys(TOKENS[dialect], count)
    server.default = Malformed(raw_body(dialect, SOLUTION, "m-1", usage))
    reply = await resilient(dialect, server).generate(MESSAGES, timeout=10)
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (0, 0)
    assert reply.usage.total == 0 and "x = 4" in reply.text


@pytest.mark.parametrize("dialect", RAW)
@pytest.mark.parametrize("model", [123, {"a": 1}, "", None])
async def test_a_model_name_that_is_not_a_name_is_the_configured_one(
    server, dialect: str, model
) -> None:
    server.default = Malformed(raw_body(dialect, SOLUTION, model, {}))
    client = resilient(dialect, server)
    reply = await client.generate(MESSAGES, timeout=10)
    assert reply.model == client.model


@pytest.mark.parametrize("dialect", RAW)
async def test_a_long_model_name_is_cut_to_the_column(server, dialect: str) -> None:
    server.default = Malformed(raw_body(dialect, SOLUTION, "m" * 300, {}))
    reply = await resilient(dialect, server).generate(MESSAGES, timeout=10)
    assert reply.model == "m" * 128


@pytest.mark.parametrize("dialect", RAW)
@pytest.mark.parametrize(
    "body",
    [b"[" * 100_000 + b"]" * 100_000, b"[1, 2]", b"null", b'"text"'],
    ids=["deep", "list", "null", "string"],
)
async def test_bodies_that_are_not_a_json_object_are_malformed(server, dialect, body) -> None:
    server.default = Malformed(body)
    with pytest.raises(MalformedResponse):
        await resilient(dialect, server).generate(MESSAGES, timeout=10)


@pytest.mark.parametrize("dialect", RAW)
async def test_nul_and_lone_surrogates_never_leave_the_provider(server, dialect: str) -> None:
    """Postgres refuses NUL in text and a lone surrogate cannot be encoded as UTF-8: the
    reply's text and its parsed JSON carry U+FFFD instead."""
    text = json.dumps({"steps": [{"description": "a\u0000b\ud800c"}], "final_answer": "4\u0000"})
    server.default = Malformed(raw_body(dialect, text, "m-1", {}))
    reply = await resilient(dialect, server).generate(
        MESSAGES, json_schema=schema_of(SolveOutput), timeout=10
    )
    assert "\x00" not in reply.text and "\ud800" not in reply.text
    assert reply.data is not None
    assert reply.data["steps"][0]["description"] == "a\ufffdb\ufffdc"
    assert reply.data["final_answer"] == "4\ufffd"
    reply.text.encode()  # encodable
