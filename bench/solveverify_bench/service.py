"""`bench service`: a recorded run through the service path, with a fitted precision promise.

The fit problems (a seeded `fit_fraction` of the run, or a whole other recorded run:
`--fit-run`, as a deployment fits on yesterday's outcomes) go through the real graph first
(no calibrator), `fit_passes` times, each pass serving candidates not served before: every
attempt's verification signals, labelled by grading its answer against the gold one, fit the
combiner (app/verification/calibration.py) on one part and choose the threshold by
Learn-then-Test (app/verification/precision.py) on the other. The measured problems then run
through the graph with that calibrator, exactly as a server that loaded it would; their badges
are what `summary.json` reports.

Grading: an answer written the same as the gold one (string-identical, or the same decimal
number up to a currency sign and trailing zeros: `\\$2.50` and `2.5`) is always right;
otherwise the chosen grader decides what is reported, and both graders' verdicts are reported
side by side. The fit learns from labels where either grader's acceptance counts (`either`):
each grader only misses equivalences (MAV's string grader: `\\frac{411}{333}` against
`\\frac{137}{111}`; math-verify: an answer against itself), so a wrong label would teach the
combiner that shared right answers are wrong, and the promise would be fitted on errors of
the grader, not of the service.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from app.pipeline.context import PipelineContext
from app.pipeline.exploration import Exploration
from app.pipeline.graph import build_graph, run_pipeline
from app.pipeline.nodes.quick_verify import calibration_signals
from app.pipeline.state import SolveState
from app.settings import VerifySettings
from app.symbolic.sandbox import SymbolicSandbox
from app.verification.calibration import Calibrator, fit_evidence_model
from solveverify_bench.metrics import brier, ece
from solveverify_bench.plots import write_plots
from solveverify_bench.recorded import RecordedProblem
from solveverify_bench.replay_providers import ReplayBook, replay_registry

Grade = Callable[[str, str], Awaitable[bool | None]]
# One aspect key per replay verifier: each recorded verifier id is one panel member.
REPLAY_ASPECT = "general_correctness:direct_approval"


@dataclass(frozen=True, slots=True)
class ServiceBenchConfig:
    fit_fraction: float = 0.33
    seed: int = 0
    target_precision: float = 0.97  # the default promise (settings.verify.target_precision)
    delta: float = 0.05
    quick_verifier: str | None = None  # a recorded verifier id answering QUICK_VERIFY
    max_attempts: int = 2
    evidence: str | None = None  # an evidence spec ("samples:3+panel:6"); None: all verifiers
    fit_passes: int = 1  # passes over the fit problems, each from another first candidate
    measure_passes: int = 1  # passes over the measured problems (the first one is the summary)
    # The promise's bound counts a problem's outcomes as dependent (precision.clustered_lower)
    cluster_by_problem: bool = False


_CURRENCY = re.compile(r"\\?\$|\\,|,")
_DECIMAL = re.compile(r"-?\d+(?:\.\d+)?")


def written_alike(gold: str, answer: str) -> bool:
    """The same text, or the same decimal number written with or without a currency sign,
    thousands commas and trailing zeros."""
    if gold.strip() == answer.strip():
        return True
    a, b = (_CURRENCY.sub("", x).strip() for x in (gold, answer))
    return bool(_DECIMAL.fullmatch(a) and _DECIMAL.fullmatch(b)) and Decimal(a) == Decimal(b)


def identical_first(grade: Grade) -> Grade:
    """An answer written alike is right whatever the grader says (math-verify rejects
    `\\frac{\\sqrt{3}}{2}` against itself: wrong labels would teach calibration wrong)."""

    async def graded(gold: str, answer: str) -> bool | None:
        if written_alike(gold, answer):
            return True
        return await grade(gold, answer)

    return graded


def either(grade: Grade, other: Grade) -> Grade:
    """Right when either grader accepts the answer (each only misses equivalences)."""

    async def graded(gold: str, answer: str) -> bool | None:
        return bool(await grade(gold, answer)) or bool(await other(gold, answer))

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
    # As deployed: every k-th scan buys all its evidence (app/pipeline/exploration.py).
    exploration = Exploration(settings.evidence_exploration_every)
    context = PipelineContext(registry, sandbox, settings, exploration=exploration)
    return context, book


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
        book.tokens[p.id] = 0
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
                    "proof_only": a.proof_only,
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
                "tokens": book.tokens[p.id],
                "attempt_signals": attempts,
            }
        )
    return records


def fit_promise(records: list[dict[str, Any]], config: ServiceBenchConfig) -> Calibrator:
    """THE combiner (app/verification/calibration.py `fit_evidence_model`, the one the daily
    refit uses too) on every attempt of the fit problems, labelled by grading: a logistic
    model over the ledger's features, isotonic recalibration of cross-fitted scores, and the
    threshold by Learn-then-Test on the model-only outcomes; answers only a proof may verify
    set only the confidence shown for such answers. Too little evidence to fit: a promise with
    no threshold (only proofs verify)."""
    rows = [
        (a["signals"], bool(a["correct"]), r.get("id"), a.get("proof_only") is not None)
        for r in records
        for a in r["attempt_signals"]
    ]
    return fit_evidence_model(
        [x for x, *_ in rows],
        [c for _, c, *_ in rows],
        target=config.target_precision,
        delta=config.delta,
        seed=config.seed + 1,
        clusters=[problem for _, _, problem, _ in rows] if config.cluster_by_problem else None,
        # Cross-fitted by problem: a problem's other outcomes never score it.
        problems=[i if problem is None else problem for i, (_, _, problem, _) in enumerate(rows)],
        proof_only=[only for *_, only in rows],
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
        "tokens_per_scan": round(sum(r.get("tokens", 0) for r in records) / n, 1) if n else None,
        "verified_wrong": sum(1 for r in verified if not r["correct"]),
        "ece": round(ece(probabilities, labels), 4) if labels else None,
        "brier": round(brier(probabilities, labels), 4) if labels else None,
        "threshold": calibrator.threshold,
        "target_precision": calibrator.target_precision,
        "threshold_evidence": calibrator.evidence,
        "precision_lower_bound": calibrator.precision_lower_bound,
    }


async def _passes(
    problems: list[RecordedProblem],
    ctx: PipelineContext,
    book: ReplayBook,
    grade: Grade,
    passes: int,
    other: Grade | None = None,
) -> list[list[dict[str, Any]]]:
    """The problems through the graph `passes` times, pass k serving the recorded candidates
    cyclically from offset k × (candidates ÷ passes): with as many passes as candidates, every
    recorded solution is once the first answer (its followers the samples)."""
    per_pass = max(1, min(len(p.candidates) for p in problems) // max(1, passes))
    runs = []
    for k in range(passes):
        book.replay_from(k * per_pass)
        runs.append(await _run(problems, ctx, book, grade, other))
    book.replay_from(0)
    return runs


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
    labels = either(grade, other) if other is not None else grade
    fit_runs = await _passes(fit, ctx, book, labels, config.fit_passes)
    fit_records = [r for run in fit_runs for r in run]
    fitted = fit_promise(fit_records, config)
    ctx = replace(ctx, calibrator=fitted)
    runs = await _passes(test, ctx, book, grade, max(1, config.measure_passes), other)
    records = runs[0]
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, rows in (
        ("fit_records.jsonl", fit_records),
        ("results.jsonl", records),
        ("results_all_passes.jsonl", [r for run in runs for r in run]),
    ):
        with (out_dir / name).open("w", encoding="utf-8") as handle:
            for r in rows:
                handle.write(json.dumps(r, ensure_ascii=False) + "\n")
    fitted.save(out_dir / "calibration.json")
    summary = {
        **summarize(records, fitted),
        "fit_problems": len(fit),
        "fit_passes": config.fit_passes,
        "fit_outcomes": len(fit_records),
        "fit_ece": fitted.ece,
        "evidence": config.evidence,
        "seed": config.seed,
    }
    if len(runs) > 1:
        # Every pass over the measured problems: the same figures on passes × problems scans
        # (75 scans are too few to tell an ECE of 0.03 from 0.06; more scans can).
        everything = summarize([r for run in runs for r in run], fitted)
        summary["all_passes"] = {"passes": len(runs)} | {
            k: everything[k]
            for k in (
                "n",
                "verified",
                "verified_precision",
                "coverage",
                "right_shown_as_caution",
                "verified_wrong",
                "calls_per_scan",
                "tokens_per_scan",
                "ece",
                "brier",
            )
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
