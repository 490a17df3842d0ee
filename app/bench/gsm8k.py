"""`bench gsm8k`: a seeded sample of GSM8K test problems through the full pipeline."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.pipeline.graph import run_pipeline
from app.pipeline.state import SolveState
from app.retrieval.gsm8k import parse_gsm8k

if TYPE_CHECKING:  # the service container; bench itself stays free of SQLAlchemy
    from app.resources import Resources


async def run_gsm8k(
    services: Resources, test_file: Path, n_problems: int, seed: int, out_dir: Path
) -> dict[str, Any]:
    problems = parse_gsm8k(test_file, source="gsm8k-test")
    sample = random.Random(seed).sample(problems, min(n_problems, len(problems)))
    out_dir.mkdir(parents=True, exist_ok=True)
    records = []
    for problem in sample:
        started = time.perf_counter()
        state = await run_pipeline(
            services.graph, services.pipeline, SolveState(problem_text=problem["question"])
        )
        latency = time.perf_counter() - started
        answer = state.solution.final_answer if state.solution else None
        correct = bool(answer) and bool(
            await services.sandbox.equivalent(problem["final_answer"], answer)
        )  # type: ignore[arg-type]
        llm_calls = sum(v.method == "llm" for a in state.attempts for v in a.verdicts)
        records.append(
            {
                "id": problem["external_id"],
                "gold": problem["final_answer"],
                "answer": answer,
                "correct": correct,
                "status": state.verification_status,
                "provider": state.provider,
                "solve_calls": len(state.provider_history),
                "verify_calls": llm_calls,
                "latency_s": round(latency, 3),
            }
        )
    (out_dir / "results.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    )
    verified = [r for r in records if r["status"] == "verified"]
    total = len(records) or 1
    summary = {
        "n_problems": len(records),
        "accuracy": round(100 * sum(r["correct"] for r in records) / total, 2),
        "verified_precision": round(100 * sum(r["correct"] for r in verified) / len(verified), 2)
        if verified
        else None,
        "coverage": round(100 * len(verified) / total, 2),
        "calls_per_problem": round(
            sum(r["solve_calls"] + r["verify_calls"] for r in records) / total, 2
        ),
        "latency_s_per_problem": round(sum(r["latency_s"] for r in records) / total, 3),
        "status": {
            s: sum(r["status"] == s for r in records) for s in ("verified", "unverified", "caution")
        },
        "seed": seed,
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary
