"""`openai_compatible`: any server speaking OpenAI chat completions — vLLM on a GPU, the
llama.cpp server, Ollama. Same dialect as `openai`, another endpoint; this is the "local GPU
model" option. Without a configured model id, the first model the server lists is used.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import openai

from app.llm.base import Capability
from app.llm.providers.openai import JsonMode, OpenAIChatModel, map_openai_error, sdk_client
from app.llm.types import Message, ModelResponse

PROVIDER = "openai_compatible"


class OpenAICompatibleModel(OpenAIChatModel):
    # Whether the served model takes images is not known (most vLLM and llama.cpp models do
    # not): it is never asked to read a photo.
    capabilities: frozenset[Capability] = frozenset({"solve", "verify", "evaluate", "analyze"})

    def __init__(
        self,
        base_url: str,
        model: str | None,
        api_key: str | None,
        json_mode: JsonMode = "json_schema",
    ) -> None:
        super().__init__(
            sdk_client(api_key or "not-needed", base_url),
            model or "",
            provider=PROVIDER,
            json_mode=json_mode,
            token_param="max_tokens",  # what vLLM, llama.cpp and Ollama all accept
        )
        self._resolve_lock = asyncio.Lock()

    async def _resolve_model(self) -> None:
        async with self._resolve_lock:
            if self.model:
                return
            try:
                listing = await self.sdk.models.list()
            except openai.OpenAIError as exc:
                raise map_openai_error(self.provider, exc) from exc
            if not listing.data:
                raise map_openai_error(self.provider, ValueError("the server lists no models"))
            self.model = listing.data[0].id

    async def generate(self, messages: Sequence[Message], **kwargs: Any) -> ModelResponse:
        if not self.model:
            await self._resolve_model()
        return await super().generate(messages, **kwargs)
