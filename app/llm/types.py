"""Value types shared by every provider: messages in, a ModelResponse out."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["system", "user", "assistant"]

# NUL (Postgres refuses it in text) and lone surrogates (no UTF-8 for them: the response could
# not be encoded). Model text is stored and sent, so neither may pass.
_UNSAFE = re.compile("[\x00\ud800-\udfff]")


def safe_text(text: str) -> str:
    return _UNSAFE.sub("\ufffd", text) if _UNSAFE.search(text) else text


@dataclass(frozen=True, slots=True)
class Image:
    """A picture sent with a message (a photo of the problem): raw bytes and their type."""

    data: bytes
    mime_type: str  # image/png or image/jpeg: what the upload check admits


@dataclass(frozen=True, slots=True)
class Message:
    role: Role
    content: str
    # Pictures that go with the text (user turns only), for a client with `read_image`; each
    # provider sends them in its own API's form.
    images: tuple[Image, ...] = ()


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

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", safe_text(self.text))  # frozen: set once, here
