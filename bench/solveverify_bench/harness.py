"""`bench verifiers`: run a pattern over a dataset, resumably, and write the design's artifacts.

results.jsonl gets one record per example as soon as it is done; a rerun with the same
out-dir skips the examples already there. summary.json and plots/ are rebuilt from the full
results file at the end. Records are written in dataset order (finished ones wait for the
ones before them), so a seeded run with a deterministic backend reproduces results.jsonl
byte for byte. Grounded-QA correctness and failure buckets come from error labels
(solveverify_bench/labels.py); the summary says how many labels were token-F1 fallbacks.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

from tqdm import tqdm

from solveverify_bench.context import PatternContext
from solveverify_bench.datasets import Example, load_dataset
from solveverify_bench.labels import BUCKETS, ERROR_LABELS, F1_THRESHOLD
from solveverify_bench.patterns import run_pattern
from solveverify_bench.plots import write_plots
from solveverify_bench.replay import classifier_metrics


def _done(results: Path, pattern: str) -> set[str]:
    if not results.is_file():
        return set()
    done = set()
    for line in results.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            if record.get("pattern") == pattern:
                done.add(record["id"])
    return done


async def run_benchmark(
    data: Path,
    pattern: str,
    out_dir: Path,
    ctx: PatternContext,
    *,
    max_examples: int | None = None,
    concurrency: int = 4,
    progress: bool = True,
) -> dict[str, Any]:
    """The run's seed is `ctx.seed` (each candidate's sampling seed derives from it)."""
    examples = load_dataset(data, max_examples)
    out_dir.mkdir(parents=True, exist_ok=True)
    results = out_dir / "results.jsonl"
    done = _done(results, pattern)
    todo = [e for e in examples if e.id not in done]
    semaphore = asyncio.Semaphore(concurrency)
    bar = tqdm(
        total=len(examples), initial=len(done), desc=pattern, disable=not progress, unit="ex"
    )
    finished: dict[int, dict[str, Any]] = {}
    written = 0

    def flush() -> None:
        # In dataset order: a record waits for those before it, then all are appended at once.
        nonlocal written
        with results.open("a", encoding="utf-8") as handle:
            while written in finished:
                handle.write(json.dumps(finished.pop(written), ensure_ascii=False) + "\n")
                written += 1

    async def one(index: int, example: Example) -> None:
        async with semaphore:
            record = await run_pattern(pattern, example, ctx)
        finished[index] = {**record, "seed": ctx.seed}
        flush()
        bar.update(1)

    try:
        await asyncio.gather(*(one(i, e) for i, e in enumerate(todo)))
    finally:
        bar.close()
    return summarize(out_dir, pattern, {e.id for e in examples})


def summarize(out_dir: Path, pattern: str, ids: set[str]) -> dict[str, Any]:
    records = [
        json.loads(line)
        for line in (out_dir / "results.jsonl").read_text().splitlines()
        if line.strip()
    ]
    records = [r for r in records if r["pattern"] == pattern and r["id"] in ids]
    scores = [s for r in records for s in r["verifier_scores"]]
    labels = [c for r in records for c in r["candidate_correct"]]
    total = len(records) or 1
    summary: dict[str, Any] = {
        "pattern": pattern,
        "n_examples": len(records),
        "selection": {
            "pass@1": round(100 * sum(r["candidate_correct"][0] for r in records) / total, 2),
            "best_of_n": round(100 * sum(r["correct"] for r in records) / total, 2),
            "oracle": round(100 * sum(any(r["candidate_correct"]) for r in records) / total, 2),
        },
        "verifier": classifier_metrics(scores, labels) if scores else {},
        "calls": sum(r.get("calls", 0) for r in records),
    }
    labelled = [r for r in records if "error_labels" in r]
    if labelled:
        summary.update(_label_summary(labelled))
    grounded = [r for r in records if "claim_checks" in r]
    if grounded:
        summary["grounding"] = {
            key: round(sum(r[key] for r in grounded) / len(grounded), 4)
            for key in ("citation_coverage", "supported_claim_rate", "citation_precision")
        }
    if labelled:
        summary.setdefault("grounding", {})["revisions"] = sum(
            r.get("revision_used", False) for r in labelled
        )
    gated = [r for r in records if "critique" in r]
    if gated:
        summary["critique"] = {
            "gate": gated[0]["gate"],
            "passed": sum(r["verifier_pass"] for r in gated),
            "passed_and_correct": sum(r["verifier_pass"] and r["correct"] for r in gated),
            "mean_score": round(sum(r["critique"]["score"] for r in gated) / len(gated), 4),
        }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False))
    if scores:
        write_plots(out_dir, probabilities=scores, correct=labels, title=f"({pattern})")
    return summary


def _label_summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Failure buckets of the selected wrong answers, from their error labels; how often the
    verifier flagged (score < 0.5) each kind of error; and where the labels came from."""
    sources = Counter(s for r in records for s in r["label_sources"])
    buckets = Counter(b for r in records if not r["correct"] for b in r["failure_buckets"])
    flagged: dict[str, list[bool]] = {label: [] for label in ERROR_LABELS}
    for r in records:
        for label, score in zip(r["error_labels"], r["verifier_scores"], strict=False):
            flagged[label].append(score < 0.5)
    return {
        "labels": {
            "correct_means": "error label 'supported'",
            "from_dataset": sources.get("dataset", 0),
            "token_f1_fallback": sources.get("token_f1", 0),
            "fallback_rule": f"token F1 >= {F1_THRESHOLD} with the gold citation "
            "(unlabelled answers only)",
            "counts": dict(Counter(label for r in records for label in r["error_labels"])),
        },
        "failure_buckets": {b: buckets.get(b, 0) for b in BUCKETS.values()},
        "flagged_rate_by_label": {
            label: round(sum(f) / len(f), 4) if f else None for label, f in flagged.items()
        },
    }
