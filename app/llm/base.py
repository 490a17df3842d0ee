"""The one interface the pipeline, the verifiers and the worker use to talk to any model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol, runtime_checkable

from app.llm.types import Message, ModelResponse

# What a client can be asked to do. The symbolic solver only solves; LLMs do everything
# ("analyze": subject, grade and difficulty labels, knowledge points and a hint;
# "read_image": it takes pictures in a message, so it can read a photo of the problem).
Capability = Literal["solve", "verify", "evaluate", "analyze", "read_image"]


@runtime_checkable
class ModelClient(Protocol):
    # Read-only: wrappers (Resilient) forward them as properties.
    @property
    def provider(self) -> str: ...

    @property
    def model(self) -> str: ...

    @property
    def capabilities(self) -> frozenset[Capability]: ...

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
        """One completion. Raises ProviderError subclasses; never returns a partial reply.
        `seed`: the sampling seed, for reproducible samples where the provider supports one
        (OpenAI, OpenAI-compatible servers, llama.cpp, Gemini); others ignore it."""
        ...


class Wrapper:
    """A client around another (retries and budgets, a recorder): it answers to the wrapped
    client's name, model and capabilities."""

    inner: ModelClient

    @property
    def provider(self) -> str:
        return self.inner.provider

    @property
    def model(self) -> str:
        return self.inner.model

    @property
    def capabilities(self) -> frozenset[Capability]:
        return self.inner.capabilities
