"""`--backend stub`: a deterministic model for dry runs of every pattern without a model.

It answers each prompt kind the patterns send (grounded answers, claim checks, critiques,
quick verification, aspect verdicts, MARS scores, solutions, arbitration) from the prompt
alone. Every reply is a pure function of (run seed, call seed, temperature, prompt), so the
same seed reproduces a run byte for byte and another seed gives other candidates. Grounded
answers are built from the evidence in the prompt; at temperature > 0 they are perturbed
(a wrong citation, a dropped citation, an unsupported sentence), so candidates differ and
the verifiers have errors to find. Claim checks compare the claim's words with the evidence.
Math verdicts are seeded coin flips: the stub exercises the plumbing, it measures nothing.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable, Sequence
from typing import Any

from app.llm.base import Capability
from app.llm.delimit import unwrap
from app.llm.structured import extract_json
from app.llm.types import Message, ModelResponse, Usage

_EVIDENCE = re.compile(r"\[([^\]\s]+)\] <evidence>\n(.*?)\n</evidence>", re.S)
_WORD = re.compile(r"[a-z0-9]+")
# Too common to say whether a claim is grounded.
_STOP_WORDS = (
    "a an the of to in on at is are was were be by for and or it its this that with as "
    "from do does did what which who how why when where they their there than then so"
)
_STOP = frozenset(_STOP_WORDS.split(" "))
UNSUPPORTED_SENTENCES = (
    "This was first measured in 1850.",
    "Scientists agree it is the only possible explanation.",
    "It happens exactly twice as fast in winter.",
    "Most textbooks describe it as a rare event.",
)


def content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 2}


def overlap(claim: str, evidence: str) -> float:
    """The share of the claim's content words that the evidence contains."""
    words = content_words(claim)
    return len(words & content_words(evidence)) / len(words) if words else 0.0


def _evidence(prompt: str) -> list[tuple[str, str]]:
    return [(i, t.strip()) for i, t in _EVIDENCE.findall(prompt)]


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s+", text.strip())[0].rstrip(".!?")


def _grounded_answer(prompt: str, rng: random.Random, temperature: float) -> str:
    evidence = _evidence(prompt)
    if not evidence:
        return "I cannot tell from the evidence."
    question = unwrap("question", prompt) or ""
    ranked = sorted(evidence, key=lambda e: -overlap(question, e[1]))
    best_id, best_text = ranked[0]
    sentence, cite = _first_sentence(best_text), best_id
    revising = "Only state what these snippets support" in prompt or "Fix these issues" in prompt
    noise = 0.0 if revising else min(0.9, temperature)
    roll = rng.random()
    if roll < noise * 0.25 and len(evidence) > 1:
        cite = rng.choice([i for i, _ in evidence if i != best_id])  # wrong citation
    elif roll < noise * 0.5:
        return f"{sentence}."  # the citation is omitted
    elif roll < noise * 0.75 and len(ranked) > 1:
        sentence, cite = _first_sentence(ranked[1][1]), ranked[1][0]  # the wrong passage
    answer = f"{sentence} [cite:{cite}]."
    if not revising and rng.random() < noise * 0.4:
        answer += f" {rng.choice(UNSUPPORTED_SENTENCES)}"
    return answer


def _claim_verdict(prompt: str, rng: random.Random) -> str:
    claim = unwrap("claim", prompt) or ""
    support = max((overlap(claim, t) for _, t in _evidence(prompt)), default=0.0)
    if rng.random() < 0.05:
        return "UNCERTAIN"  # a little noise, as a real judge has
    if support >= 0.6:
        return "SUPPORTED"
    return "UNSUPPORTED" if support < 0.3 else "UNCERTAIN"


def _critique(prompt: str, rng: random.Random) -> str:
    answer = unwrap("answer", prompt) or ""
    evidence = [t for _, t in _evidence(prompt)]
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", answer) if len(s) > 3]
    unsupported = [
        s for s in sentences if max((overlap(s, t) for t in evidence), default=0.0) < 0.3
    ]
    others = unwrap("other_answers", prompt) or ""
    contradictions = ["disagrees with another sample"] if others and rng.random() < 0.1 else []
    return json.dumps(
        {
            "contradictions": contradictions,
            "missing_citations": [s for s in sentences if "[cite:" not in s],
            "unsupported_claims": unsupported,
        }
    )


def _numbers(text: str) -> list[str]:
    return re.findall(r"-?\d+(?:\.\d+)?(?:/\d+)?", text)


def _solution(prompt: str, rng: random.Random) -> str:
    numbers = _numbers(unwrap("problem", prompt) or prompt) or ["0"]
    answer = rng.choice([*numbers, str(rng.randint(1, 30))])
    steps = [{"description": f"Use the numbers {', '.join(numbers[:3])}."}]
    return json.dumps({"steps": steps, "final_answer": answer})


def _quick_verdict(prompt: str, rng: random.Random) -> str:
    answer = unwrap("answer", prompt) or ""
    ok = rng.random() < 0.6
    independent = answer if ok else str(rng.randint(1, 99))
    confidence = round(rng.uniform(0.6, 0.95), 2)
    return json.dumps(
        {"independent_answer": independent, "is_correct": ok, "confidence": confidence}
    )


def _mars_scores(rng: random.Random) -> str:
    scores = {
        d: round(rng.uniform(0.3, 1.0), 2)
        for d in ("correctness", "reasoning", "completeness", "clarity")
    }
    return json.dumps({**scores, "feedback": "check the arithmetic of the last step"})


def _arbitration(prompt: str, rng: random.Random) -> str:
    lines = [line for line in prompt.splitlines() if ":" in line and "<" not in line[:1]]
    answers = re.findall(r"<answer_\w+>\n(.*?)\n</answer_\w+>", prompt, re.S) or [
        line.split(":", 1)[1].strip() for line in lines[:1]
    ]
    pick = rng.choice(answers) if answers else "unknown"
    return f"ANSWER: {pick}\nREASONING: seeded stub choice\nCONFIDENCE: 0.6"


# (marker in the prompt, reply) — the first marker found decides.
_RULES: tuple[tuple[str, Callable[[str, random.Random, float], str]], ...] = (
    ("Answer the question using only the evidence", _grounded_answer),
    ("Does the evidence support the claim?", lambda p, r, t: _claim_verdict(p, r)),
    ("Critique the answer", lambda p, r, t: _critique(p, r)),
    ("verifying another agent", lambda p, r, t: _mars_scores(r)),
    ("FINAL VERIFICATION ANSWER", lambda p, r, t: f"FINAL VERIFICATION ANSWER: {r.random() < 0.6}"),
    ("independent_answer", lambda p, r, t: _quick_verdict(p, r)),
    ("You must arbitrate", lambda p, r, t: _arbitration(p, r)),
    ("semantic similarity", lambda p, r, t: f"{r.choice((0.3, 0.7, 0.9, 1.0))}"),
    ("final_answer", lambda p, r, t: _solution(p, r)),
)


class StubModel:
    """A ModelClient whose replies depend only on (run seed, call seed, temperature, prompt)."""

    model = "stub-1"
    capabilities: frozenset[Capability] = frozenset({"solve", "verify", "evaluate"})

    def __init__(self, seed: int = 0, provider: str = "stub") -> None:
        self.seed = seed
        self.provider = provider
        self.calls = 0

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
        self.calls += 1
        prompt = "\n".join(m.content for m in messages)
        digest = hashlib.sha256(
            f"{self.provider}|{self.seed}|{seed}|{temperature:.3f}|{prompt}".encode()
        ).hexdigest()
        rng = random.Random(int(digest[:16], 16))
        text = next(
            (reply(prompt, rng, temperature) for marker, reply in _RULES if marker in prompt),
            "No comment.",
        )
        return ModelResponse(
            text=text,
            provider=self.provider,
            model=self.model,
            latency_s=0.0,
            usage=Usage(len(prompt) // 4, len(text) // 4),
            data=extract_json(text) if json_schema is not None else None,
        )
