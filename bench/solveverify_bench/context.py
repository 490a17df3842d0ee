"""What every benchmark pattern receives: the backend and the run's settings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from app.llm.base import ModelClient
from app.llm.types import Message, ModelResponse
from app.verification.answers import Equivalence
from app.verification.mars import MarsConfig


@dataclass(slots=True)
class PatternContext:
    backend: ModelClient | None
    equivalent: Equivalence
    n: int = 4
    aspect_keys: Sequence[str] = ()
    revise: bool = True
    mars: MarsConfig = field(default_factory=MarsConfig)
    timeout: float = 60.0
    # Sampling (solveverify_bench/sampling.py): the run's seed and each candidate's temperature.
    seed: int = 0
    temperature: float = 0.7
    max_tokens: int = 400
    # Self-consistency's critique gate: the selected answer passes at this score or above.
    critique_gate: float = 0.7
    # Grounded QA: sample answers from the model, or take the dataset's labelled candidates.
    candidates: Literal["generate", "labelled"] = "generate"
    # MARS in the benchmark: distinct agents (other providers); empty → one model, renamed.
    mars_agents: Sequence[ModelClient] = ()

    def model(self, pattern: str) -> ModelClient:
        if self.backend is None:
            raise ValueError(f"pattern {pattern!r} needs a model backend (--backend)")
        return self.backend


class Counted:
    """A model whose calls are counted (each record reports the calls it cost)."""

    def __init__(self, inner: ModelClient) -> None:
        self.inner, self.calls = inner, 0
        self.provider, self.model = inner.provider, inner.model
        self.capabilities = inner.capabilities

    async def generate(self, messages: Sequence[Message], **kwargs: Any) -> ModelResponse:
        self.calls += 1
        return await self.inner.generate(messages, **kwargs)


def make_record(
    example_id: str,
    pattern: str,
    answers: Sequence[str | None],
    correct: list[bool],
    scores: list[float],
    selected: int,
    calls: int,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "id": example_id,
        "pattern": pattern,
        "candidates": list(answers),
        "candidate_correct": correct,
        "verifier_scores": [round(s, 4) for s in scores],
        "selected_index": selected,
        "selected_answer": answers[selected],
        "verifier_score": round(scores[selected], 4),
        "verifier_pass": scores[selected] >= 0.5,
        "correct": correct[selected],
        "calls": calls,
        **extra,  # may override verifier_pass (self-consistency's critique gate)
    }
