"""Fault matrix, providers: a real `serve` process talking to a real HTTP peer through the
official Anthropic and OpenAI SDKs. Whatever the provider does, the student gets a 201 with an
honest badge ("unverified" or "caution"), never a 5xx."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from solveverify_bench.fake_llm import Answer, Behavior, Fail, FakeLLMServer, Hang, Malformed, Reply
from tests.fixtures.processes import serve, stop

WORD_PROBLEM = "A baker fills 7 trays with 13 muffins each and sells all but 5. How many sold?"

FAULTS: dict[str, Behavior] = {
    "timeout": Hang(30),
    "429": Fail(429, {"retry-after": "0"}),
    "500": Fail(500),
    "503": Fail(503),
    "garbage": Malformed(),
    "prose instead of JSON": Reply("Looks right to me, well done! The answer seems fine."),
}


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def base(fake: FakeLLMServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = {
        "SOLVEVERIFY_ANTHROPIC_API_KEY": "test-key",
        "SOLVEVERIFY_ANTHROPIC_BASE_URL": fake.url,
        "SOLVEVERIFY_OPENAI_API_KEY": "test-key",
        "SOLVEVERIFY_OPENAI_BASE_URL": f"{fake.url}/v1",
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_REQUEST_TIMEOUT_S": "1",
        "SOLVEVERIFY_MAX_RETRIES": "1",
        "SOLVEVERIFY_VERIFY_QUICK_VERIFY_TIMEOUT_S": "2",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
    }
    process, url = serve(tmp_path_factory.mktemp("faults"), env)
    yield url
    stop(process)


def post(base: str) -> httpx.Response:
    return httpx.post(f"{base}/v1/scans", json={"text": WORD_PROBLEM}, timeout=60)


def test_healthy_providers_answer(fake: FakeLLMServer, base: str) -> None:
    fake.reset()
    fake.default = Answer(final_answer="86")
    response = post(base)
    assert response.status_code == 201, response.text
    body = response.json()
    assert (body["final_answer"], body["verification_status"]) == ("86", "verified")
    dialects = [r["dialect"] for r in fake.requests]
    assert set(dialects) == {"anthropic", "openai"}  # solved by one, checked by the other


@pytest.mark.parametrize("fault", FAULTS)
def test_verifier_fault_leaves_the_answer_unverified(
    fake: FakeLLMServer, base: str, fault: str
) -> None:
    fake.reset()
    fake.default = Answer(final_answer="86")
    fake.by_dialect["openai"] = FAULTS[fault]  # the solver answers, the checker misbehaves
    response = post(base)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["final_answer"] == "86"
    assert body["verification_status"] in ("unverified", "caution")


@pytest.mark.parametrize("fault", FAULTS)
def test_every_provider_failing_is_still_a_201(fake: FakeLLMServer, base: str, fault: str) -> None:
    fake.reset()
    fake.default = FAULTS[fault]
    response = post(base)
    assert response.status_code == 201, response.text
    assert response.json()["verification_status"] in ("unverified", "caution")
    # The server is still healthy afterwards.
    fake.default = Answer(final_answer="86")
    assert post(base).json()["verification_status"] == "verified"
