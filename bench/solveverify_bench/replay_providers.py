"""Providers that answer from a recorded run (solveverify_bench/recorded.py), so the real graph,
validator, panel, consensus and calibration run offline on real model behaviour.

- `ReplaySolver`: SOLVE attempt k for a problem returns candidate k (one shared cursor per
  problem, whichever solver slot asks; `samples(problem, n)` returns the next n).
- `ReplayVerifier`: bound to one recorded verifier id. Asked a MAV aspect question it answers
  "FINAL VERIFICATION ANSWER: True/False" from the candidate's `verdicts`, or nothing (an
  abstention) when the id is absent or null; the candidate is the one the prompt carries.
  Asked QUICK_VERIFY's JSON question it answers
  only if it is the configured quick verifier (`quick=True`), else abstains.
Every call is counted per problem (`ReplayBook.calls`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.llm.base import Capability
from app.llm.delimit import unwrap, wrap
from app.llm.errors import CannotAnswer
from app.llm.registry import Provider, ProviderRegistry
from app.llm.types import Message, ModelResponse
from solveverify_bench.recorded import Candidate, RecordedProblem

_TAGS = ("problem", "question")  # SOLVE / QUICK_VERIFY prompts; MAV aspect prompts


@dataclass(slots=True)
class ReplayBook:
    """The run, indexed by problem text as the prompts carry it, with cursors and counts."""

    problems: list[RecordedProblem]
    by_text: dict[str, RecordedProblem] = field(default_factory=dict)
    served: dict[str, list[int]] = field(default_factory=dict)  # problem id → candidates given
    calls: Counter[str] = field(default_factory=Counter)
    # Tokens per problem, estimated (a recorded run has no usage): prompt and reply, 4
    # characters a token.
    tokens: Counter[str] = field(default_factory=Counter)
    offset: int = 0  # the first candidate each problem serves (see replay_from)

    def __post_init__(self) -> None:
        for p in self.problems:
            for tag in _TAGS:
                key = unwrap(tag, wrap(tag, p.problem))
                if key is not None:
                    self.by_text[key.strip()] = p

    def find(self, messages: Sequence[Message]) -> RecordedProblem:
        text = messages[-1].content if messages else ""
        for m in messages:
            if m.role == "user":
                text = m.content
                break
        for tag in _TAGS:
            found = unwrap(tag, text)
            if found is not None and found.strip() in self.by_text:
                return self.by_text[found.strip()]
        raise CannotAnswer("replay", "this problem is not in the recorded run")

    def replay_from(self, offset: int) -> None:
        """Serve every problem again from candidate `offset` on (another pass over the same
        run: more labelled outcomes to fit on, each from candidates not served before)."""
        self.served.clear()
        self.offset = offset

    def next_candidates(self, problem: RecordedProblem, n: int = 1) -> list[Candidate]:
        given = self.served.setdefault(problem.id, [])
        total = len(problem.candidates)
        # Cyclic from the pass's offset: every pass can serve as many candidates as the run
        # holds, each once (a pass from offset k serves k, k+1, …, wrapping to 0, 1, …).
        picked = [(self.offset + j) % total for j in range(len(given), min(len(given) + n, total))]
        given.extend(picked)
        return [problem.candidates[i] for i in picked]

    def judged(self, problem: RecordedProblem, messages: Sequence[Message]) -> Candidate | None:
        """The served candidate a verifier's prompt carries (samples may have been served
        after it: the service judges the best-supported one, not the last one drawn)."""
        text = "\n".join(m.content for m in messages)
        for index in reversed(self.served.get(problem.id, [])):
            candidate = problem.candidates[index]
            if candidate.solution and candidate.solution in text:
                return candidate
        return self.current(problem)

    def current(self, problem: RecordedProblem) -> Candidate | None:
        given = self.served.get(problem.id)
        return problem.candidates[given[-1]] if given else None


def _response(
    text: str, provider: str, model: str, data: dict[str, Any] | None = None
) -> ModelResponse:
    return ModelResponse(text=text, provider=provider, model=model, latency_s=0.0, data=data)


def estimated_tokens(messages: Sequence[Message], reply: str) -> int:
    """Prompt and reply at 4 characters a token (a recorded run carries no usage)."""
    return (sum(len(m.content) for m in messages) + len(reply)) // 4


class ReplaySolver:
    capabilities: frozenset[Capability] = frozenset({"solve"})

    def __init__(self, book: ReplayBook, slot: str) -> None:
        self.book, self.provider, self.model = book, slot, "recorded"

    async def generate(self, messages: Sequence[Message], **_: Any) -> ModelResponse:
        problem = self.book.find(messages)
        self.book.calls[problem.id] += 1
        picked = self.book.next_candidates(problem)
        if not picked:
            raise CannotAnswer(self.provider, "no recorded candidate left")
        c = picked[0]
        data = {"steps": [{"description": c.solution}], "final_answer": c.final_answer or ""}
        text = json.dumps(data)
        self.book.tokens[problem.id] += estimated_tokens(messages, text)
        return _response(text, c.provider, c.model, data)


class ReplayVerifier:
    capabilities: frozenset[Capability] = frozenset({"verify"})

    def __init__(self, book: ReplayBook, verifier_id: str, *, quick: bool = False) -> None:
        self.book, self.verifier_id, self.quick = book, verifier_id, quick
        self.provider, self.model = "replay", verifier_id

    def _recorded(self, messages: Sequence[Message]) -> tuple[Candidate | None, bool | None]:
        problem = self.book.find(messages)
        self.book.calls[problem.id] += 1
        candidate = self.book.judged(problem, messages)
        return candidate, None if candidate is None else candidate.verdicts.get(self.verifier_id)

    async def generate(
        self, messages: Sequence[Message], *, json_schema: dict[str, Any] | None = None, **_: Any
    ) -> ModelResponse:
        reply = await self._generate(messages, json_schema)
        self.book.tokens[self.book.find(messages).id] += estimated_tokens(messages, reply.text)
        return reply

    async def _generate(
        self, messages: Sequence[Message], json_schema: dict[str, Any] | None
    ) -> ModelResponse:
        candidate, verdict = self._recorded(messages)
        if json_schema is not None:  # QUICK_VERIFY's independent recomputation
            if not self.quick or verdict is None or candidate is None:
                return _response("no recorded verdict", self.provider, self.model)
            data = {
                "is_correct": verdict,
                "confidence": 0.9,
                # a recorded approval carries the candidate's answer as its own; a rejection none
                "independent_answer": candidate.final_answer if verdict else None,
                "error_description": "" if verdict else "recorded rejection",
            }
            return _response(json.dumps(data), self.provider, self.model, data)
        if verdict is None:
            return _response("(no recorded verdict)", self.provider, self.model)
        return _response(f"FINAL VERIFICATION ANSWER: {verdict}", self.provider, self.model)


def replay_registry(
    book: ReplayBook, verifier_ids: Sequence[str], *, solver_slots: int, quick_verifier: str | None
) -> ProviderRegistry:
    """Solver slots first (each a "provider" the retry edge can move to), then the quick
    verifier (asked first by QUICK_VERIFY), then one verifier per recorded id (the panel)."""
    providers: list[Provider] = [
        Provider(f"replay_solver_{i + 1}", {"strong": ReplaySolver(book, f"replay_solver_{i + 1}")})
        for i in range(solver_slots)
    ]
    if quick_verifier is not None:
        providers.append(
            Provider("replay_quick", {"strong": ReplayVerifier(book, quick_verifier, quick=True)})
        )
    providers += [
        Provider(f"replay_verifier_{i + 1}", {"strong": ReplayVerifier(book, vid)})
        for i, vid in enumerate(verifier_ids)
    ]
    return ProviderRegistry(providers, [p.name for p in providers])
