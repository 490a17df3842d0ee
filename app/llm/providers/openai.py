"""`openai`: OpenAI chat completions through the official SDK.

`OpenAIChatModel` is the chat-completions dialect; it is reused by `openai_compatible`,
which only changes the endpoint and auth (pydantic-ai's model/provider split).
"""

from __future__ import annotations

import base64
import time
from collections.abc import Sequence
from typing import Any, Literal

import openai
from openai import AsyncOpenAI, DefaultAioHttpClient

from app.llm.base import Capability
from app.llm.errors import MalformedResponse, ProviderError
from app.llm.providers.raw_reply import model_name, read_body, token_count
from app.llm.providers.sdk_errors import map_sdk_error
from app.llm.structured import extract_json
from app.llm.types import Message, ModelResponse, Usage

JsonMode = Literal["json_schema", "json_object", "none"]


def map_openai_error(provider: str, exc: Exception) -> ProviderError:
    return map_sdk_error(provider, exc, openai)


def _content(message: Message) -> str | list[dict[str, Any]]:
    """A turn's content: its text, or a text part then image_url parts (base64 data URLs)."""
    if not message.images:
        return message.content
    parts: list[dict[str, Any]] = [{"type": "text", "text": message.content}]
    for image in message.images:
        data = base64.b64encode(image.data).decode("ascii")
        url = f"data:{image.mime_type};base64,{data}"
        parts.append({"type": "image_url", "image_url": {"url": url}})
    return parts


class OpenAIChatModel:
    # OpenAI's chat models (gpt-4o and later) take images; a subclass for other servers
    # (openai_compatible) says whether its model does.
    capabilities: frozenset[Capability] = frozenset(
        {"solve", "verify", "evaluate", "analyze", "read_image"}
    )

    def __init__(
        self,
        sdk: AsyncOpenAI,
        model: str,
        *,
        provider: str = "openai",
        json_mode: JsonMode = "json_schema",
        token_param: str = "max_completion_tokens",
    ) -> None:
        self.sdk = sdk
        self.model = model
        self.provider = provider
        self.json_mode = json_mode
        self.token_param = token_param

    def _response_format(self, schema: dict[str, Any] | None) -> dict[str, Any] | None:
        if schema is None or self.json_mode == "none":
            return None
        if self.json_mode == "json_object":
            return {"type": "json_object"}
        name = str(schema.get("title", "output"))[:64]
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}

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
        kwargs: dict[str, Any] = {self.token_param: max_tokens}
        if seed is not None:
            kwargs["seed"] = seed
        response_format = self._response_format(json_schema)
        if response_format is not None:
            kwargs["response_format"] = response_format
        started = time.perf_counter()
        try:
            # The raw reply, read as JSON here: the SDK's typed ChatCompletion costs more CPU
            # than the rest of the call and three fields are used (errors are still the SDK's).
            raw = await self.sdk.chat.completions.with_raw_response.create(
                model=self.model,
                messages=[{"role": m.role, "content": _content(m)} for m in messages],  # type: ignore[misc]  # SDK TypedDicts
                temperature=temperature,
                timeout=timeout,
                **kwargs,
            )
            completion = read_body(self.provider, raw.content)
        except openai.OpenAIError as exc:
            raise map_openai_error(self.provider, exc) from exc
        try:
            text = completion["choices"][0]["message"]["content"] or ""
            if not isinstance(text, str):
                raise TypeError(f"content is {type(text).__name__}")
            usage = completion.get("usage") or {}
            tokens = Usage(
                token_count(usage.get("prompt_tokens")), token_count(usage.get("completion_tokens"))
            )
            model = model_name(completion.get("model"), self.model)
        except (IndexError, KeyError, AttributeError, TypeError) as exc:
            raise MalformedResponse(self.provider, f"unreadable reply: {exc!r}") from exc
        return ModelResponse(
            text=text,
            provider=self.provider,
            model=model,
            latency_s=time.perf_counter() - started,
            usage=tokens,
            data=extract_json(text) if json_schema is not None else None,
        )


def sdk_client(api_key: str, base_url: str | None) -> AsyncOpenAI:
    # One client per process, on the SDK's aiohttp transport (less CPU per call than httpx's
    # pool); retries and timeouts are ours (app.llm.resilience), so the SDK must not retry.
    return AsyncOpenAI(
        api_key=api_key, base_url=base_url, max_retries=0, http_client=DefaultAioHttpClient()
    )


async def close_sdk(sdk: AsyncOpenAI) -> None:
    await sdk.close()
