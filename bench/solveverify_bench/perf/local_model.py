"""Tokens/s of the in-process local model, raw llama-cpp-python or through the provider.

Each side runs in a process of its own (`python -m solveverify_bench.perf.local_model --mode raw`):
two llama.cpp callers in one process would compete with their OpenMP teams and measure that.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from typing import Any, cast

MESSAGES = [
    ("system", "You are a helpful assistant."),
    ("user", "Count from 1 to 200, separated by commas."),
]


def raw_rates(tokens: int, repeat: int) -> list[float]:
    from llama_cpp import Llama

    from app.llm.providers.llamacpp import bundled_model_path

    llm = Llama(
        model_path=str(bundled_model_path()), n_ctx=2048, n_threads=os.cpu_count(), verbose=False
    )
    # Plain role/content dicts (llama-cpp-python types them as TypedDicts).
    chat: list[Any] = [{"role": role, "content": content} for role, content in MESSAGES]

    def rate() -> float:
        started = time.perf_counter()
        out = cast(  # not streamed: one response dict
            dict[str, Any],
            llm.create_chat_completion(
                messages=chat,
                max_tokens=tokens,
                temperature=0.0,
            ),
        )
        return int(out["usage"]["completion_tokens"]) / (time.perf_counter() - started)

    rate()  # warm
    return [rate() for _ in range(repeat)]


async def provider_rates(tokens: int, repeat: int) -> list[float]:
    from app.llm.providers.llamacpp import LlamaCppModel, bundled_model_path
    from app.llm.types import Message

    path = bundled_model_path()
    assert path is not None
    model = LlamaCppModel(path, n_ctx=2048, n_threads=os.cpu_count())
    messages = [Message(role, content) for role, content in MESSAGES]  # type: ignore[arg-type]  # str roles

    async def rate() -> float:
        started = time.perf_counter()
        reply = await model.generate(messages, max_tokens=tokens)
        return reply.usage.output_tokens / (time.perf_counter() - started)

    await rate()
    return [await rate() for _ in range(repeat)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", choices=["raw", "provider"], required=True)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.mode == "raw":
        rates = raw_rates(args.tokens, args.repeat)
    else:
        rates = asyncio.run(provider_rates(args.tokens, args.repeat))
    print(json.dumps({"tokens_per_s": rates}))


if __name__ == "__main__":
    main()
