"""`anthropic`: Claude through the official SDK (Messages API, native structured outputs)."""

from __future__ import annotations

import base64
import time
from collections.abc import Sequence
from typing import Any, cast

import anthropic
from anthropic import AsyncAnthropic, DefaultAioHttpClient

from app.llm.base import Capability
from app.llm.errors import MalformedResponse
from app.llm.providers.raw_reply import model_name, read_body, token_count
from app.llm.providers.sdk_errors import map_sdk_error
from app.llm.structured import extract_json
from app.llm.types import Message, ModelResponse, Usage

PROVIDER = "anthropic"


def _content(message: Message) -> str | list[dict[str, Any]]:
    """A turn's content: its text, or image blocks (base64 sources) before the text block."""
    if not message.images:
        return message.content
    images: list[dict[str, Any]] = [
        {
            "type": "image",
            "source": {
                "type": "base64",
                "media_type": image.mime_type,
                "data": base64.b64encode(image.data).decode("ascii"),
            },
        }
        for image in message.images
    ]
    return [*images, {"type": "text", "text": message.content}]


class AnthropicModel:
    provider = PROVIDER
    capabilities: frozenset[Capability] = frozenset(
        {"solve", "verify", "evaluate", "analyze", "read_image"}
    )

    def __init__(self, sdk: AsyncAnthropic, model: str) -> None:
        self.sdk = sdk
        self.model = model

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
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        # The SDK types turns as TypedDicts; ours are the same role/content pairs.
        turns = cast(
            "list[anthropic.types.MessageParam]",
            [{"role": m.role, "content": _content(m)} for m in messages if m.role != "system"],
        )
        kwargs: dict[str, Any] = {}
        if system:
            kwargs["system"] = system
        if json_schema is not None:
            kwargs["output_config"] = {"format": {"type": "json_schema", "schema": json_schema}}
        started = time.perf_counter()
        try:
            # The current Messages API takes no temperature or seed: sampling is the model's own.
            # The raw reply, read as JSON here: the SDK's typed Message costs more CPU than the
            # rest of the call and three fields are used (errors are still the SDK's).
            raw = await self.sdk.messages.with_raw_response.create(
                model=self.model,
                max_tokens=max_tokens,
                messages=turns,
                timeout=timeout,
                **kwargs,
            )
            message = read_body(PROVIDER, await raw.read())
        except anthropic.AnthropicError as exc:
            raise map_sdk_error(PROVIDER, exc, anthropic) from exc
        try:
            blocks = message["content"]
            text = "".join(b["text"] for b in blocks if b.get("type") == "text")
            counts = message.get("usage") or {}
            usage = Usage(
                token_count(counts.get("input_tokens")), token_count(counts.get("output_tokens"))
            )
            model = model_name(message.get("model"), self.model)
        except (KeyError, AttributeError, TypeError) as exc:
            raise MalformedResponse(PROVIDER, f"unreadable reply: {exc!r}") from exc
        return ModelResponse(
            text=text,
            provider=PROVIDER,
            model=model,
            latency_s=time.perf_counter() - started,
            usage=usage,
            data=extract_json(text) if json_schema is not None else None,
        )


def sdk_client(api_key: str, base_url: str | None) -> AsyncAnthropic:
    # One client per process, on the SDK's aiohttp transport (less CPU per call than httpx's
    # pool); retries and timeouts are ours (app.llm.resilience), so the SDK must not retry.
    return AsyncAnthropic(
        api_key=api_key, base_url=base_url, max_retries=0, http_client=DefaultAioHttpClient()
    )


async def close_sdk(sdk: AsyncAnthropic) -> None:
    await sdk.close()
