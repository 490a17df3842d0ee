"""`bench consensus`: the product's consensus on recorded answers of several real models.

Input: one problem a line, `{"id", "problem", "gold_answer", "candidates": [{"source",
"answer", "is_correct", ...}]}` (the four-model GSM8K set's format). A seeded half of the
problems teaches each source's fitness — from outcomes validated against the gold answer
(a proof), never from agreement alone; the other half is measured: the product's consensus
cascade (app/verification/consensus.py) with those learned weights and the answers'
equivalence, and the best-supported candidate (app/verification/selection.py) when it cannot
decide. Beside it: plain majority, the best single source (best on the fit half), the oracle.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.verification.answers import Equivalence
from app.verification.consensus import ConsensusBuilder, NodeAnswer
from app.verification.learned_weights import OnlineWeights, majority_vote
from app.verification.selection import best_supported


@dataclass(frozen=True, slots=True)
class Answered:
    source: str
    answer: str
    correct: bool


@dataclass(frozen=True, slots=True)
class MultiProblem:
    id: str
    problem: str
    answers: list[Answered]


def load_multi(path: Path) -> list[MultiProblem]:
    problems = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            raw = json.loads(line)
            answers = [
                Answered(str(c["source"]), str(c.get("answer") or ""), bool(c["is_correct"]))
                for c in raw["candidates"]
            ]
            problems.append(MultiProblem(str(raw["id"]), str(raw["problem"]), answers))
    return problems


def _rate(hits: int, n: int) -> float | None:
    return round(100 * hits / n, 1) if n else None


async def run_consensus_bench(
    problems: list[MultiProblem],
    *,
    fit_fraction: float = 0.5,
    seed: int = 0,
    equivalent: Equivalence | None = None,
) -> dict[str, Any]:
    order = list(range(len(problems)))
    random.Random(seed).shuffle(order)
    cut = round(len(problems) * fit_fraction)
    fit, test = [problems[i] for i in order[:cut]], [problems[i] for i in order[cut:]]
    weights = OnlineWeights()  # Laplace prior: an unseen source gets no vote
    for p in fit:
        for a in p.answers:
            weights.observe(a.source, a.correct)  # validated against the gold answer
    sources = sorted({a.source for p in problems for a in p.answers})
    best_source = max(sources, key=lambda s: (weights.accuracy(s), s))
    builder = ConsensusBuilder(equivalent=equivalent)
    hits = {"consensus": 0, "consensus_decided": 0, "majority": 0, "best_single": 0, "oracle": 0}
    decided = abstained = 0
    methods: dict[str, int] = {}
    for p in test:
        nodes = [NodeAnswer(a.source, a.answer, weights.weight(a.source)) for a in p.answers]
        result = await builder.build(p.problem, nodes)
        methods[result.method] = methods.get(result.method, 0) + 1
        pick = best_supported(result, nodes)
        if pick is None:
            abstained += 1
        elif p.answers[pick].correct:
            hits["consensus"] += 1
        if result.decided and result.supporters:
            decided += 1
            hits["consensus_decided"] += p.answers[result.supporters[0]].correct
        voted = majority_vote({a.source: a.answer for a in p.answers})
        hits["majority"] += any(
            a.correct and a.answer.strip() == (voted or "\0") for a in p.answers
        )
        hits["best_single"] += any(a.correct for a in p.answers if a.source == best_source)
        hits["oracle"] += any(a.correct for a in p.answers)
    n = len(test)
    return {
        "n": n,
        "fit_problems": len(fit),
        "consensus_accuracy": _rate(hits["consensus"], n),
        "consensus_abstained": abstained,
        "consensus_decided": decided,
        "consensus_decided_precision": _rate(hits["consensus_decided"], decided),
        "majority_accuracy": _rate(hits["majority"], n),
        "best_single": best_source,
        "best_single_accuracy": _rate(hits["best_single"], n),
        "oracle_accuracy": _rate(hits["oracle"], n),
        "methods": methods,
        "learned_accuracy": {s: round(weights.accuracy(s), 3) for s in sources},
    }
