"""`bench service`: a recorded run through the service path, with a fitted precision promise.

The fit problems (a seeded `fit_fraction` of the run, or a whole other recorded run:
`--fit-run`, as a deployment fits on yesterday's outcomes) go through the real graph first
(no calibrator), `fit_passes` times, each pass serving candidates not served before: every
attempt's verification signals, labelled by grading its answer against the gold one, fit the
combiner (app/verification/calibration.py) on one part and choose the threshold by
Learn-then-Test (app/verification/precision.py) on the other. The measured problems then run
through the graph with that calibrator, exactly as a server that loaded it would; their badges
are what `summary.json` reports.

Grading: a string-identical answer is always right; otherwise the chosen grader decides (the
labels the fit learns from). Both graders' verdicts are reported side by side.
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
from app.verification.precision import choose_threshold

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
    evidence: str | None = None  # an evidence spec ("samples:3+panel:6"); None: all verifiers
    fit_passes: int = 1  # passes over the fit problems, each from fresh candidates
    features: str = "summary"  # "summary" (SUMMARY_FEATURES) or "all" (per-verifier votes too)


def identical_first(grade: Grade) -> Grade:
    """A string-identical answer is right whatever the grader says (math-verify rejects
    `\\frac{\\sqrt{3}}{2}` against itself: wrong labels would teach calibration wrong)."""

    async def graded(gold: str, answer: str) -> bool | None:
        if gold.strip() == answer.strip():
            return True
        return await grade(gold, answer)

    return graded


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
    spec = config.evidence or (f"panel:{len(ids)}" if ids else None)
    settings = verify.model_copy(
        update={
            "evidence": {"*": spec} if spec else {},
            "aspect_sets": {"*": [REPLAY_ASPECT]},
            "max_attempts": config.max_attempts,
        }
    )
    return PipelineContext(registry=registry, sandbox=sandbox, verify=settings), book


async def _run(
    problems: list[RecordedProblem],
    ctx: PipelineContext,
    book: ReplayBook,
    grade: Grade,
    other: Grade | None = None,
) -> list[dict[str, Any]]:
    graph = build_graph()
    records = []
    for p in problems:
        book.calls[p.id] = 0
        state = await run_pipeline(
            graph, ctx, SolveState(problem_text=p.problem, subject_hint=p.subject)
        )
        answer = state.solution.final_answer if state.solution else None
        attempts = []
        for a in state.attempts:
            right = bool(p.answer and a.final_answer and await grade(p.answer, a.final_answer))
            attempts.append(
                {
                    "signals": calibration_signals(a.verdicts),
                    "correct": right,
                    "answer": a.final_answer,
                }
            )
        correct = bool(p.answer and answer and await grade(p.answer, answer))
        also = bool(p.answer and answer and other and await other(p.answer, answer))
        records.append(
            {
                "correct_other_grader": also if other else None,
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


# The combiner's summary features: they mean the same whichever verifiers sat on the panel,
# so they generalise from a few dozen problems; per-verifier votes need far more outcomes.
SUMMARY_FEATURES = ("approval_fraction", "self_consistency", "quick_confidence", "programmatic")


def _features(signals: dict[str, float], config: ServiceBenchConfig) -> dict[str, float]:
    if config.features == "all":
        return signals
    return {k: v for k, v in signals.items() if k in SUMMARY_FEATURES}


MAX_FOLDS = 2000  # leave-one-out up to this many outcomes (near-identical fold models)


def fit_promise(records: list[dict[str, Any]], config: ServiceBenchConfig) -> Calibrator:
    """The combiner fitted on the fit problems' attempts; the threshold chosen by
    Learn-then-Test on cross-fitted probabilities: each outcome scored by a model fitted
    without it (leave-one-out; folds beyond MAX_FOLDS outcomes), so every labelled outcome
    tests the threshold without having taught the model that scores it. Scores are rounded to
    0.01 first (a label-free step, finer than any difference that matters: one evidence
    pattern is not split into arbitrary slices by fit noise). The model kept is fitted on all
    outcomes. Too little evidence to fit: a promise with no threshold (only proofs verify)."""
    rows = [
        (_features(a["signals"], config), bool(a["correct"]))
        for r in records
        for a in r["attempt_signals"]
    ]
    empty = Calibrator(target_precision=config.target_precision, delta=config.delta)
    if len(rows) < 10 or len({c for _, c in rows}) < 2:
        return empty
    random.Random(config.seed + 1).shuffle(rows)
    folds = min(len(rows), MAX_FOLDS)
    scores: list[float] = []
    labels: list[bool] = []
    for k in range(folds):
        train = [r for i, r in enumerate(rows) if i % folds != k]
        test = [r for i, r in enumerate(rows) if i % folds == k]
        if len({c for _, c in train}) < 2:
            return empty
        model = Calibrator.fit_logistic([x for x, _ in train], [c for _, c in train])
        scores += [round(model.predict(x), 2) for x, _ in test]
        labels += [c for _, c in test]
    model = Calibrator.fit_logistic([x for x, _ in rows], [c for _, c in rows])
    chosen = choose_threshold(scores, labels, target=config.target_precision, delta=config.delta)
    return replace(
        model,
        threshold=chosen.threshold,
        target_precision=config.target_precision,
        delta=config.delta,
        evidence=chosen.evidence,
        precision_lower_bound=chosen.precision_lower_bound,
    )


def summarize(records: list[dict[str, Any]], calibrator: Calibrator) -> dict[str, Any]:
    n = len(records)
    verified = [r for r in records if r["status"] == "verified"]
    answered = [r for r in records if r["answer"]]
    right = sum(r["correct"] for r in verified)
    right_answers = [r for r in records if r["correct"]]
    other = [r for r in records if r.get("correct_other_grader") is not None]
    other_right = sum(r["correct_other_grader"] for r in verified if r in other)
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
        "right_shown_as_caution": round(
            sum(r["status"] == "caution" for r in right_answers) / len(right_answers), 4
        )
        if right_answers
        else None,
        "other_grader": {
            "verified_precision": round(other_right / len(verified), 4) if verified else None,
            "accuracy": round(sum(r["correct_other_grader"] for r in other) / n, 4),
        }
        if other and n
        else None,
        "unverified": sum(r["status"] == "unverified" for r in records),
        "calls_per_scan": round(sum(r["calls"] for r in records) / n, 3) if n else None,
        "ece": round(ece(probabilities, labels), 4) if labels else None,
        "brier": round(brier(probabilities, labels), 4) if labels else None,
        "threshold": calibrator.threshold,
        "target_precision": calibrator.target_precision,
        "threshold_evidence": calibrator.evidence,
        "precision_lower_bound": calibrator.precision_lower_bound,
    }


async def _fit_records(
    fit: list[RecordedProblem],
    ctx: PipelineContext,
    book: ReplayBook,
    grade: Grade,
    config: ServiceBenchConfig,
) -> list[dict[str, Any]]:
    """The fit problems through the graph `fit_passes` times, each pass from fresh candidates."""
    per_pass = max(1, min(len(p.candidates) for p in fit) // max(1, config.fit_passes))
    records = []
    for k in range(config.fit_passes):
        book.replay_from(k * per_pass)
        records += await _run(fit, ctx, book, grade)
    book.replay_from(0)
    return records


async def run_service_bench(
    problems: list[RecordedProblem],
    out_dir: Path,
    sandbox: SymbolicSandbox,
    verify: VerifySettings,
    grade: Grade,
    config: ServiceBenchConfig,
    *,
    fit_problems: list[RecordedProblem] | None = None,
    other_grade: Grade | None = None,
) -> dict[str, Any]:
    """`fit_problems`: fit on them (another recorded run) and measure on all of `problems`;
    None: a seeded `fit_fraction` of `problems` fits, the rest is measured."""
    grade = identical_first(grade)
    other = identical_first(other_grade) if other_grade is not None else None
    if fit_problems is None:
        fit, test = split(problems, config.fit_fraction, config.seed)
    else:
        fit, test = fit_problems, problems
    ctx, book = service_context([*fit, *test], sandbox, verify, config)
    fitted = fit_promise(await _fit_records(fit, ctx, book, grade, config), config)
    ctx = replace(ctx, calibrator=fitted)
    records = await _run(test, ctx, book, grade, other)
    out_dir.mkdir(parents=True, exist_ok=True)
    with (out_dir / "results.jsonl").open("w", encoding="utf-8") as handle:
        for r in records:
            handle.write(json.dumps(r, ensure_ascii=False) + "\n")
    summary = {
        **summarize(records, fitted),
        "fit_problems": len(fit),
        "fit_passes": config.fit_passes,
        "evidence": config.evidence,
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
