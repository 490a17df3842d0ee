"""`bench verifiers`: run a pattern over a dataset, resumably, and write the design's artifacts.

results.jsonl gets one record per example as soon as it is done; a rerun with the same
out-dir skips the examples already there. summary.json and plots/ are rebuilt from the full
results file at the end.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from tqdm import tqdm

from app.bench.datasets import load_dataset
from app.bench.patterns import PatternContext, run_pattern
from app.bench.plots import write_plots
from app.bench.replay import classifier_metrics

BUCKETS = ("unsupported claim", "wrong citation", "overgeneralization", "evidence omission")


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
    seed: int = 0,
    max_examples: int | None = None,
    concurrency: int = 4,
    progress: bool = True,
) -> dict[str, Any]:
    random.seed(seed)
    examples = load_dataset(data, max_examples)
    out_dir.mkdir(parents=True, exist_ok=True)
    results = out_dir / "results.jsonl"
    done = _done(results, pattern)
    todo = [e for e in examples if e.id not in done]
    semaphore = asyncio.Semaphore(concurrency)
    bar = tqdm(
        total=len(examples), initial=len(done), desc=pattern, disable=not progress, unit="ex"
    )

    async def one(example) -> None:  # type: ignore[no-untyped-def]
        async with semaphore:
            record = await run_pattern(pattern, example, ctx)
        with results.open("a", encoding="utf-8") as handle:  # appended as soon as it is done
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        bar.update(1)

    try:
        await asyncio.gather(*(one(e) for e in todo))
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
    grounded = [r for r in records if "claim_checks" in r]
    if grounded:
        summary["grounding"] = {
            key: round(sum(r[key] for r in grounded) / len(grounded), 4)
            for key in ("citation_coverage", "supported_claim_rate", "citation_precision")
        }
        summary["grounding"]["revisions"] = sum(r.get("revision_used", False) for r in grounded)
        counts = Counter(b for r in grounded if not r["correct"] for b in r["failure_buckets"])
        summary["failure_buckets"] = {b: counts.get(b, 0) for b in BUCKETS}
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False))
    if scores:
        write_plots(out_dir, probabilities=scores, correct=labels, title=f"({pattern})")
    return summary
