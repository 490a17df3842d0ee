"""Recorded runs: real model behaviour, stored once, replayed offline through the service.

One problem a line (JSONL):

    {"id": "p1", "problem": "...", "answer": "42" (gold, optional), "subject": "math" (optional),
     "candidates": [{"provider": "openai", "model": "gpt-4o-mini", "solution": "...",
                     "final_answer": "42",
                     "verdicts": {"<verifier id>": true | false | null}}]}

Candidate k is what SOLVE attempt k gets; `verdicts` are what each verifier said about that
candidate (null: it gave no verdict). `convert_mav` turns an official MAV run directory
(per-problem JSON, see solveverify_bench/replay.py) into this format.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from solveverify_bench.replay import load_run


@dataclass(slots=True)
class Candidate:
    provider: str
    model: str
    solution: str
    final_answer: str | None
    verdicts: dict[str, bool | None] = field(default_factory=dict)


@dataclass(slots=True)
class RecordedProblem:
    id: str
    problem: str
    candidates: list[Candidate]
    answer: str | None = None
    subject: str | None = None

    @property
    def verifier_ids(self) -> list[str]:
        return sorted({v for c in self.candidates for v in c.verdicts})


class RecordedRunError(ValueError):
    pass


def _candidate(raw: dict[str, Any], where: str) -> Candidate:
    try:
        return Candidate(
            provider=str(raw["provider"]),
            model=str(raw["model"]),
            solution=str(raw["solution"]),
            final_answer=None if raw.get("final_answer") is None else str(raw["final_answer"]),
            verdicts={str(k): v for k, v in (raw.get("verdicts") or {}).items()},
        )
    except KeyError as exc:
        raise RecordedRunError(f"{where}: candidate without {exc}") from exc


def load_recorded(path: Path) -> list[RecordedProblem]:
    problems = []
    with path.open(encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, 1):
            if not line.strip():
                continue
            where = f"{path}:{line_no}"
            try:
                raw = json.loads(line)
                problems.append(
                    RecordedProblem(
                        id=str(raw["id"]),
                        problem=str(raw["problem"]),
                        candidates=[_candidate(c, where) for c in raw["candidates"]],
                        answer=None if raw.get("answer") is None else str(raw["answer"]),
                        subject=raw.get("subject"),
                    )
                )
            except (json.JSONDecodeError, KeyError, TypeError) as exc:
                raise RecordedRunError(f"{where}: {exc!r}") from exc
    if not problems:
        raise RecordedRunError(f"{path}: no problems")
    return problems


def save_recorded(problems: list[RecordedProblem], path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for p in problems:
            handle.write(json.dumps(asdict(p), ensure_ascii=False) + "\n")
    return len(problems)


def _split_mav_key(key: str) -> tuple[str, str]:
    """MAV names an approval "<model>_<verifier>"; the model is everything before the first
    "_" that follows the model name (model names hold "-" and ".", not "_")."""
    model, _, verifier = key.partition("_")
    return model, verifier or key


def convert_mav(directory: Path, *, provider: str = "mav") -> list[RecordedProblem]:
    """An official MAV run directory → recorded problems (solutions in recorded order)."""
    problems = []
    for record in load_run(directory):
        candidates = [
            Candidate(
                provider=provider,
                model=str(record.get("generator_model", record.get("model", "mav-generator"))),
                solution=str(solution),
                final_answer=None if answer is None else str(answer),
                verdicts={
                    ":".join(_split_mav_key(k)): (None if v is None else bool(v))
                    for k, v in approvals.items()
                },
            )
            for solution, answer, approvals in zip(
                record["solutions"],
                record["extracted_answers"],
                record["all_solution_vera_approvals"],
                strict=True,
            )
        ]
        problems.append(
            RecordedProblem(
                id=record["name"],
                problem=str(record["problem"]),
                candidates=candidates,
                answer=str(record["correct_answer"]),
                subject=record.get("subject") or "math",
            )
        )
    return problems


def gsm8k_recorded(
    sets_file: Path, *, verifiers: dict[str, tuple[float, float]], seed: int = 0
) -> list[RecordedProblem]:
    """A recorded run from `bench make-gsm8k-set` output. The candidates are real text (the
    GSM8K reference and its hard negatives); the verdicts are SIMULATED: verifier id →
    (P(approve | right), P(approve | wrong)), drawn with `seed`. Use it to exercise the
    service offline, not to measure a model."""
    rng = random.Random(seed)
    problems = []
    with sets_file.open(encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            raw = json.loads(line)
            order = list(raw["candidates"])
            rng.shuffle(order)
            candidates = []
            for c in order:
                answer = c["solution"].rsplit("Final answer:", 1)[-1].strip()
                verdicts: dict[str, bool | None] = {
                    vid: rng.random() < (tpr if c["correct"] else fpr)
                    for vid, (tpr, fpr) in verifiers.items()
                }
                candidates.append(
                    Candidate(c["source"], "gsm8k-set", c["solution"], answer, verdicts)
                )
            problems.append(
                RecordedProblem(
                    str(raw["id"]), raw["problem"], candidates, str(raw["gold_answer"]), "math"
                )
            )
    return problems
