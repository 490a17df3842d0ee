"""Value types shared by every provider: messages in, a ModelResponse out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True, slots=True)
class Message:
    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass(frozen=True, slots=True)
class ModelResponse:
    text: str
    provider: str
    model: str
    latency_s: float
    usage: Usage = field(default_factory=Usage)
    # Parsed JSON when the caller asked for a json_schema and the reply could be parsed.
    data: dict[str, Any] | None = None
