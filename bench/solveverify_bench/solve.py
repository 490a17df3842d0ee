"""`bench solve`: any JSONL of {"id", "problem", "answer"} through the service's own graph.

Each problem runs through the compiled graph of `open_resources` (as `bench gsm8k` does), and
the returned answer is graded against the gold one with the sandbox's equivalence. The figure
that matters is the precision of `verified` answers, with a Wilson lower bound: the service
promises that `verified` means right. GSM8K's own format (question, "#### answer") is read too.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.datasets import open_text
from app.pipeline.graph import run_pipeline
from app.pipeline.state import SolveState
from app.retrieval.gsm8k import parse_gsm8k

if TYPE_CHECKING:  # the service container; bench itself stays free of SQLAlchemy
    from app.resources import Resources

Z_95 = 1.959964


@dataclass(frozen=True, slots=True)
class Problem:
    id: str
    problem: str
    answer: str


def load_problems(path: Path, limit: int | None = None) -> list[Problem]:
    """{"id", "problem", "answer"} lines, or GSM8K's {"question", "answer": "… #### 18"}."""
    problems = list(_read(path))
    return problems[:limit] if limit is not None else problems


def _read(path: Path) -> Iterator[Problem]:
    with open_text(path) as handle:
        first = next((line for line in handle if line.strip()), "")
    if first and "question" in json.loads(first):
        for row in parse_gsm8k(path, source="bench"):
            yield Problem(row["external_id"], row["question"], row["final_answer"])
        return
    with open_text(path) as handle:
        for line_no, line in enumerate(handle, 1):
            if not line.strip():
                continue
            record = json.loads(line)
            try:
                yield Problem(str(record["id"]), str(record["problem"]), str(record["answer"]))
            except KeyError as exc:
                raise ValueError(f"{path}:{line_no}: missing field {exc}") from exc


def wilson_lower(successes: int, n: int, z: float = Z_95) -> float | None:
    """Lower end of the Wilson score interval for a proportion (None without trials)."""
    if n == 0:
        return None
    p = successes / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n)


def deciding_method(state: SolveState) -> str | None:
    """The verification method that decided the returned answer (its last attempt)."""
    if not state.attempts:
        return None
    decisive = [v for v in state.attempts[-1].verdicts if v.decisive]
    return decisive[0].method if decisive else None


async def solve_one(services: Resources, problem: Problem) -> dict[str, Any]:
    started = time.perf_counter()
    state = await run_pipeline(
        services.graph, services.pipeline, SolveState(problem_text=problem.problem)
    )
    latency = time.perf_counter() - started
    answer = state.solution.final_answer if state.solution else None
    correct = None
    if answer:
        correct = await services.sandbox.equivalent(problem.answer, answer, problem.problem)
    return {
        "id": problem.id,
        "problem": problem.problem,
        "gold": problem.answer,
        "answer": answer,
        "correct": correct,
        "status": state.verification_status,
        "method": deciding_method(state),
        "provider": state.provider,
        "caution_reason": state.caution_reason,
        # Model calls: each solve tried, plus each model verdict asked for.
        "calls": len(state.provider_history)
        + sum(v.method == "llm" for a in state.attempts for v in a.verdicts),
        "latency_s": round(latency, 3),
    }


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    answered = [r for r in records if r["answer"]]
    verified = [r for r in records if r["status"] == "verified"]
    verified_correct = sum(r["correct"] is True for r in verified)
    lower = wilson_lower(verified_correct, len(verified))
    methods: dict[str, Counter[str]] = {}
    for r in records:
        methods.setdefault(r["method"] or "none", Counter())[r["status"]] += 1
    n = len(records)
    return {
        "n": n,
        "answered": len(answered),
        "verified": len(verified),
        "verified_correct": verified_correct,
        "verified_precision": round(verified_correct / len(verified), 4) if verified else None,
        "verified_precision_lower95": None if lower is None else round(lower, 4),
        "coverage": round(len(verified) / n, 4) if n else None,
        "answered_accuracy": round(sum(r["correct"] is True for r in answered) / len(answered), 4)
        if answered
        else None,
        "caution": sum(r["status"] == "caution" for r in records),
        "unverified": sum(r["status"] == "unverified" for r in records),
        "by_method": {m: dict(c) for m, c in sorted(methods.items())},
        "calls_per_problem": round(sum(r.get("calls", 0) for r in records) / n, 2) if n else None,
        # The promise is broken by each of these: listed so nobody has to dig for them.
        "verified_wrong": [
            {"id": r["id"], "problem": r["problem"], "gold": r["gold"], "answer": r["answer"]}
            for r in verified
            if r["correct"] is not True
        ],
    }


async def run_solve_bench(
    services: Resources, problems: list[Problem], out_dir: Path
) -> dict[str, Any]:
    out_dir.mkdir(parents=True, exist_ok=True)
    records: list[dict[str, Any]] = []
    with (out_dir / "results.jsonl").open("w", encoding="utf-8") as results:
        for problem in problems:
            record = await solve_one(services, problem)
            records.append(record)
            results.write(json.dumps(record, ensure_ascii=False) + "\n")
            results.flush()
    summary = summarize(records)
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False))
    return summary
