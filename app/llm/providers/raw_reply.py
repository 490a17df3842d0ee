"""Reading a raw JSON reply of the openai and anthropic SDKs (`with_raw_response`: their typed
reply objects cost more CPU than the rest of a call). Every field is untrusted: a reply that
is not a JSON object is malformed, a token count that is not a count is 0, and a model name
that is not a short string is the configured one."""

from __future__ import annotations

import json
from typing import Any

from app.llm.errors import MalformedResponse

MODEL_NAME_MAX = 128  # the width of the model columns


def read_body(provider: str, content: bytes) -> dict[str, Any]:
    try:
        body = json.loads(content)
    except (ValueError, RecursionError) as exc:  # not JSON, or nested past the parser's depth
        raise MalformedResponse(provider, f"unreadable reply: {type(exc).__name__}") from exc
    if not isinstance(body, dict):
        raise MalformedResponse(provider, f"unreadable reply: a JSON {type(body).__name__}")
    return body


def token_count(value: Any) -> int:
    return value if type(value) is int and value >= 0 else 0


def model_name(value: Any, configured: str) -> str:
    if isinstance(value, str) and value.strip():
        return value.strip()[:MODEL_NAME_MAX]
    return configured
