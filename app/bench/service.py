"""`bench service`: a recorded run through the service path, with a fitted precision promise.

A seeded `fit_fraction` of the problems runs through the real graph first (no calibrator):
every attempt's verification signals, labelled by grading its answer against the gold one,
fit the calibrator on one part and choose the threshold (app/verification/precision.py) on
the other. The remaining problems then run through the graph with that calibrator, exactly
as a server that loaded it would; their badges are what `summary.json` reports.
"""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from app.bench.metrics import brier, ece
from app.bench.plots import write_plots
from app.bench.recorded import RecordedProblem
from app.bench.replay_providers import ReplayBook, replay_registry
from app.pipeline.context import PipelineContext
from app.pipeline.graph import build_graph, run_pipeline
from app.pipeline.nodes.quick_verify import calibration_signals
from app.pipeline.state import SolveState
from app.settings import VerifySettings
from app.symbolic.sandbox import SymbolicSandbox
from app.verification.calibration import Calibrator

Grade = Callable[[str, str], Awaitable[bool | None]]
# One aspect key per replay verifier: each recorded verifier id is one panel member.
REPLAY_ASPECT = "general_correctness:direct_approval"


@dataclass(frozen=True, slots=True)
class ServiceBenchConfig:
    fit_fraction: float = 0.33
    seed: int = 0
    target_precision: float = 0.95
    delta: float = 0.05
    quick_verifier: str | None = None  # a recorded verifier id answering QUICK_VERIFY
    max_attempts: int = 2


def split(
    problems: list[RecordedProblem], fraction: float, seed: int
) -> tuple[list[RecordedProblem], list[RecordedProblem]]:
    order = list(range(len(problems)))
    random.Random(seed).shuffle(order)
    cut = max(1, round(len(problems) * fraction))
    return [problems[i] for i in order[:cut]], [problems[i] for i in order[cut:]]


def service_context(
    problems: list[RecordedProblem],
    sandbox: SymbolicSandbox,
    verify: VerifySettings,
    config: ServiceBenchConfig,
) -> tuple[PipelineContext, ReplayBook]:
    book = ReplayBook(problems)
    ids = sorted({v for p in problems for v in p.verifier_ids} - {config.quick_verifier or ""})
    registry = replay_registry(
        book, ids, solver_slots=config.max_attempts, quick_verifier=config.quick_verifier
    )
    settings = verify.model_copy(
        update={
            "evidence": {"*": f"panel:{len(ids)}"} if ids else {},
            "aspect_sets": {"*": [REPLAY_ASPECT]},
            "max_attempts": config.max_attempts,
        }
    )
    return PipelineContext(registry=registry, sandbox=sandbox, verify=settings), book


async def _run(
    problems: list[RecordedProblem], ctx: PipelineContext, book: ReplayBook, grade: Grade
) -> list[dict[str, Any]]:
    graph = build_graph()
    records = []
    for p in problems:
        state = await run_pipeline(
            graph, ctx, SolveState(problem_text=p.problem, subject_hint=p.subject)
        )
        answer = state.solution.final_answer if state.solution else None
        attempts = []
        for a in state.attempts:
            right = bool(p.answer and a.final_answer and await grade(p.answer, a.final_answer))
            attempts.append({"signals": calibration_signals(a.verdicts), "correct": right})
        correct = bool(p.answer and answer and await grade(p.answer, answer))
        records.append(
            {
                "id": p.id,
                "gold": p.answer,
                "answer": answer,
                "correct": correct,
                "status": state.verification_status,
                "confidence": round(state.verify_confidence, 6),
                "calibrated": state.verify_calibrated,
                "method": state.verify_method,
                "attempts": len(state.attempts),
                "calls": book.calls[p.id],
                "attempt_signals": attempts,
            }
        )
    return records


def fit_promise(records: list[dict[str, Any]], config: ServiceBenchConfig) -> Calibrator:
    """Calibrator on one half of the fit problems' attempts, threshold on the other half.
    Too little evidence to fit: a promise with no threshold (only proofs verify)."""
    rows = [a for r in records for a in r["attempt_signals"]]
    if len(rows) < 4 or len({a["correct"] for a in rows}) < 2:
        return Calibrator(target_precision=config.target_precision, delta=config.delta)
    random.Random(config.seed + 1).shuffle(rows)
    half = len(rows) // 2
    fit, hold = rows[:half], rows[half:]
    model = Calibrator.fit_logistic([a["signals"] for a in fit], [a["correct"] for a in fit])
    return model.with_promise(
        [a["signals"] for a in hold],
        [a["correct"] for a in hold],
        target=config.target_precision,
        delta=config.delta,
    )


def summarize(records: list[dict[str, Any]], calibrator: Calibrator) -> dict[str, Any]:
    n = len(records)
    verified = [r for r in records if r["status"] == "verified"]
    answered = [r for r in records if r["answer"]]
    right = sum(r["correct"] for r in verified)
    probabilities = [r["confidence"] for r in answered]
    labels = [r["correct"] for r in answered]
    return {
        "n": n,
        "answered": len(answered),
        "verified": len(verified),
        "verified_precision": round(right / len(verified), 4) if verified else None,
        "coverage": round(len(verified) / n, 4) if n else None,
        "accuracy": round(sum(r["correct"] for r in answered) / n, 4) if n else None,
        "caution": sum(r["status"] == "caution" for r in records),
        "unverified": sum(r["status"] == "unverified" for r in records),
        "calls_per_scan": round(sum(r["calls"] for r in records) / n, 3) if n else None,
        "ece": round(ece(probabilities, labels), 4) if labels else None,
        "brier": round(brier(probabilities, labels), 4) if labels else None,
        "threshold": calibrator.threshold,
        "target_precision": calibrator.target_precision,
        "threshold_evidence": calibrator.evidence,
        "precision_lower_bound": calibrator.precision_lower_bound,
    }


async def run_service_bench(
    problems: list[RecordedProblem],
    out_dir: Path,
    sandbox: SymbolicSandbox,
    verify: VerifySettings,
    grade: Grade,
    config: ServiceBenchConfig,
) -> dict[str, Any]:
    fit, test = split(problems, config.fit_fraction, config.seed)
    ctx, book = service_context(problems, sandbox, verify, config)
    fitted = fit_promise(await _run(fit, ctx, book, grade), config)
    ctx = replace(ctx, calibrator=fitted)
    records = await _run(test, ctx, book, grade)
    out_dir.mkdir(parents=True, exist_ok=True)
    with (out_dir / "results.jsonl").open("w", encoding="utf-8") as handle:
        for r in records:
            handle.write(json.dumps(r, ensure_ascii=False) + "\n")
    summary = {
        **summarize(records, fitted),
        "fit_problems": len(fit),
        "seed": config.seed,
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    answered = [r for r in records if r["answer"]]
    if answered:
        write_plots(
            out_dir,
            probabilities=[r["confidence"] for r in answered],
            correct=[r["correct"] for r in answered],
            title="(service, held-out)",
            label="verification_confidence",
        )
    return summary
