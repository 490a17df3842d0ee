"""Recorded step critiques: `bench steps --record FILE` keeps every reply a live critic gave,
`bench steps --backend replay --replay FILE` answers from them, offline, through the same
reading, calibration and judge (app/verification/step_critique.py).

One reply a line (JSONL), keyed by the critique prompt it answered (the messages' SHA-256, so
a changed prompt or changed steps never get another prompt's reply):

    {"key": "<sha256>", "id": "<sample id>", "provider": "openai_compatible",
     "model": "Qwen2.5-72B-Instruct", "text": "<the reply as sent>", "data": {...} | null,
     "input_tokens": 812, "output_tokens": 64}

A prompt with no recorded reply is a provider failure (`CannotAnswer`): the critique abstains
("critic unavailable"), as it would live. A failed live call is not recorded.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.llm.base import Capability, ModelClient, Wrapper
from app.llm.errors import CannotAnswer
from app.llm.types import Message, ModelResponse, Usage


class RecordedCritiqueError(ValueError):
    pass


def prompt_key(messages: Sequence[Message]) -> str:
    digest = hashlib.sha256()
    for m in messages:
        for part in (m.role, m.content):
            data = part.encode()
            digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class RecordedCritique:
    key: str
    provider: str
    model: str
    text: str
    data: dict[str, Any] | None = None
    id: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0

    def line(self) -> str:
        return json.dumps(
            {
                "key": self.key,
                "id": self.id,
                "provider": self.provider,
                "model": self.model,
                "text": self.text,
                "data": self.data,
                "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens,
            },
            ensure_ascii=False,
        )


def load_critiques(path: Path) -> list[RecordedCritique]:
    """Raises RecordedCritiqueError naming the first line that is not a recorded reply."""
    records: list[RecordedCritique] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            data = raw.get("data")
            records.append(
                RecordedCritique(
                    key=str(raw["key"]),
                    provider=str(raw["provider"]),
                    model=str(raw["model"]),
                    text=str(raw["text"]),
                    data=data if isinstance(data, dict) else None,
                    id=None if raw.get("id") is None else str(raw["id"]),
                    input_tokens=int(raw.get("input_tokens") or 0),
                    output_tokens=int(raw.get("output_tokens") or 0),
                )
            )
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RecordedCritiqueError(f"{path}:{n}: not a recorded critique ({exc})") from exc
    return records


class CritiqueReplay:
    """A verify-tier client that answers each critique prompt with its recorded reply. It
    stands for the recorded model (provider and model as recorded), so a sample that model
    generated is still not judged by it."""

    capabilities: frozenset[Capability] = frozenset({"verify"})

    def __init__(self, records: Sequence[RecordedCritique]) -> None:
        models = {(r.provider, r.model) for r in records}
        if len(models) != 1:
            found = ", ".join(sorted(f"{p}:{m}" for p, m in models)) or "none"
            raise RecordedCritiqueError(f"a replay is one critic's replies; found {found}")
        ((self.provider, self.model),) = models
        self.by_key = {r.key: r for r in records}
        self.served = 0

    async def generate(self, messages: Sequence[Message], **_: Any) -> ModelResponse:
        record = self.by_key.get(prompt_key(messages))
        if record is None:
            raise CannotAnswer(self.provider, "no recorded critique for this prompt")
        self.served += 1
        return ModelResponse(
            text=record.text,
            provider=record.provider,
            model=record.model,
            latency_s=0.0,
            usage=Usage(record.input_tokens, record.output_tokens),
            data=record.data,
        )


class CritiqueRecorder(Wrapper):
    """Wraps a live client: every reply is appended to `path` (one JSON line, flushed at
    once, so an interrupted run keeps what it paid for). `ids` names each prompt's sample."""

    def __init__(self, inner: ModelClient, path: Path, ids: Mapping[str, str]) -> None:
        self.inner, self.path, self.ids = inner, path, dict(ids)
        self._lock = asyncio.Lock()
        self.recorded = 0
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("", encoding="utf-8")

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
        response = await self.inner.generate(
            messages,
            json_schema=json_schema,
            temperature=temperature,
            max_tokens=max_tokens,
            timeout=timeout,
            seed=seed,
        )
        key = prompt_key(messages)
        record = RecordedCritique(
            key=key,
            provider=self.inner.provider,
            model=self.inner.model,
            text=response.text,
            data=response.data,
            id=self.ids.get(key),
            input_tokens=response.usage.input_tokens,
            output_tokens=response.usage.output_tokens,
        )
        async with self._lock:
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(record.line() + "\n")
            self.recorded += 1
        return response
