"""`gemini`: Gemini through the official google-genai SDK (generateContent, JSON mode)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import httpx
from google import genai
from google.genai import errors, types

from app.llm.base import Capability
from app.llm.errors import (
    MalformedResponse,
    ProviderError,
    ProviderTimeout,
    ProviderUnavailable,
    RateLimited,
    retry_after_seconds,
)
from app.llm.structured import extract_json
from app.llm.types import Message, ModelResponse, Usage

PROVIDER = "gemini"


def _parts(message: Message) -> list[types.Part]:
    """A turn's parts: its images as inline data (the SDK sends them base64 with their MIME
    type), then its text."""
    images = [
        types.Part(inline_data=types.Blob(data=image.data, mime_type=image.mime_type))
        for image in message.images
    ]
    return [*images, types.Part(text=message.content)]


def _map_error(exc: Exception) -> ProviderError:
    if isinstance(exc, errors.APIError):
        headers = getattr(exc.response, "headers", None)
        if exc.code == 429:
            return RateLimited(PROVIDER, str(exc), retry_after=retry_after_seconds(headers))
        kind = ProviderUnavailable if (exc.code or 0) >= 500 else ProviderError
        return kind(PROVIDER, str(exc), status=exc.code)
    if isinstance(exc, httpx.TimeoutException | TimeoutError):
        return ProviderTimeout(PROVIDER, "request timed out")
    if isinstance(exc, httpx.TransportError):
        return ProviderUnavailable(PROVIDER, f"connection failed: {exc}")
    return MalformedResponse(PROVIDER, f"unreadable reply: {type(exc).__name__}: {exc}")


class GeminiModel:
    provider = PROVIDER
    capabilities: frozenset[Capability] = frozenset(
        {"solve", "verify", "evaluate", "analyze", "read_image"}
    )

    def __init__(self, sdk: genai.Client, model: str) -> None:
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
        contents = [
            types.Content(
                role="model" if m.role == "assistant" else "user",
                parts=_parts(m),
            )
            for m in messages
            if m.role != "system"
        ]
        config = types.GenerateContentConfig(
            system_instruction=system or None,
            temperature=temperature,
            max_output_tokens=max_tokens,
            seed=seed,
            response_mime_type="application/json" if json_schema is not None else None,
            response_json_schema=json_schema,
            http_options=types.HttpOptions(timeout=int(timeout * 1000)) if timeout else None,
        )
        started = time.perf_counter()
        try:
            response = await self.sdk.aio.models.generate_content(
                model=self.model, contents=contents, config=config
            )
            text = response.text or ""
            meta = response.usage_metadata
        except Exception as exc:  # the SDK raises httpx, pydantic and json errors as they come
            raise _map_error(exc) from exc
        return ModelResponse(
            text=text,
            provider=PROVIDER,
            model=response.model_version or self.model,
            latency_s=time.perf_counter() - started,
            usage=Usage(meta.prompt_token_count or 0, meta.candidates_token_count or 0)
            if meta
            else Usage(),
            data=extract_json(text) if json_schema is not None else None,
        )


def sdk_client(api_key: str, base_url: str | None) -> genai.Client:
    options = types.HttpOptions(base_url=base_url, api_version="v1beta") if base_url else None
    return genai.Client(api_key=api_key, http_options=options)


async def close_sdk(sdk: genai.Client) -> None:
    await sdk.aio.aclose()
