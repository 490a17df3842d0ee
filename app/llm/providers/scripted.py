"""`scripted`: a deterministic provider for tests and demos.

Each call takes the next scripted reply: a string (the model's text), an exception (raised, as
a failing provider would) or a function of the messages. An optional delay makes latency real.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

from app.llm.base import Capability
from app.llm.errors import ProviderError, ProviderTimeout
from app.llm.structured import extract_json
from app.llm.types import Message, ModelResponse, Usage

Reply = str | BaseException | Callable[[Sequence[Message]], str]


class ScriptedClient:
    def __init__(
        self,
        provider: str,
        replies: Sequence[Reply],
        *,
        model: str = "scripted-1",
        delay_s: float = 0.0,
        capabilities: frozenset[Capability] = frozenset({"solve", "verify", "evaluate"}),
    ) -> None:
        if not replies:
            raise ValueError("a scripted provider needs at least one reply")
        self.provider = provider
        self.model = model
        self.capabilities = capabilities
        self.delay_s = delay_s
        self._replies = list(replies)
        self.calls: list[list[Message]] = []

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        timeout: float | None = None,
    ) -> ModelResponse:
        self.calls.append(list(messages))
        # The last reply repeats once the script runs out.
        reply = self._replies[min(len(self.calls), len(self._replies)) - 1]
        started = time.perf_counter()
        try:
            await asyncio.wait_for(asyncio.sleep(self.delay_s), timeout)
        except TimeoutError as exc:
            raise ProviderTimeout(self.provider, f"no reply within {timeout}s") from exc
        if isinstance(reply, BaseException):
            raise reply
        text = reply(messages) if callable(reply) else reply
        if not isinstance(text, str):
            raise ProviderError(self.provider, "scripted reply is not text")
        return ModelResponse(
            text=text,
            provider=self.provider,
            model=self.model,
            latency_s=time.perf_counter() - started,
            usage=Usage(sum(len(m.content) for m in messages) // 4, len(text) // 4),
            data=extract_json(text) if json_schema else None,
        )
