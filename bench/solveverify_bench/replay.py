"""Replay recorded MAV runs (the official repository's per-problem JSON) through the library.

Each file holds `problem`, `correct_answer`, `solutions` (N), `extracted_answers` (N, may be
null) and `all_solution_vera_approvals` (N dicts "<model>_<verifier>" → bool). No model is
called: the recorded approvals are the verifiers. Reported for n = 1, 2, 4, 8, 16: pass@1,
mean pass@1, cons@n (exact-string majority, as in the paper), equivalence-class majority,
BoN-MAV@n and oracle@n; detection and calibration metrics of the approval fraction; and, on a
seeded held-out split (fit on 1/3), what learned verifier weights, answer clustering and a
fitted calibrator add.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.verification.answers import Equivalence, cluster_answers, normalize_math_answer
from app.verification.bon_mav import bon_mav_select, select_best
from app.verification.calibration import Calibrator, signals
from app.verification.reliability import VerifierWeights, select_by_clusters
from solveverify_bench.metrics import auprc, auroc, brier, coverage_accuracy, detection, ece
from solveverify_bench.plots import write_plots

NS = (1, 2, 4, 8, 16)
REQUIRED = (
    "problem",
    "correct_answer",
    "solutions",
    "extracted_answers",
    "all_solution_vera_approvals",
)


class ReplayFormatError(ValueError):
    pass


@dataclass(slots=True)
class ReplayProblem:
    name: str
    problem: str
    correct_answer: str
    answers: list[str | None]
    approvals: list[dict[str, bool]]
    correct: list[bool]
    clusters: list[list[int]]

    @property
    def n(self) -> int:
        return len(self.answers)


def load_run(directory: Path) -> list[dict[str, Any]]:
    files = sorted(directory.glob("*.json"))
    if not files:
        raise ReplayFormatError(f"{directory}: no per-problem *.json files")
    records = []
    for path in files:
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ReplayFormatError(f"{path}: not JSON ({exc})") from exc
        missing = [k for k in REQUIRED if k not in record]
        if missing:
            raise ReplayFormatError(f"{path}: missing keys {missing}")
        n = len(record["solutions"])
        if not (
            len(record["extracted_answers"]) == len(record["all_solution_vera_approvals"]) == n
        ):
            raise ReplayFormatError(
                f"{path}: solutions, extracted_answers and approvals differ in length"
            )
        records.append({"name": path.stem, **record})
    return records


async def label(
    records: Sequence[dict[str, Any]], equivalent: Equivalence, *, normalize: bool = True
) -> list[ReplayProblem]:
    """Which candidates are correct (normalizer, then `equivalent`: math-verify by default;
    `--grader mav` passes the paper's own is_equiv with normalize=False), and answer classes."""

    async def same(gold: str, answer: str | None) -> bool:
        if answer is None:
            return False
        if normalize and normalize_math_answer(gold) == normalize_math_answer(answer):
            return True
        return bool(await equivalent(gold, answer))

    async def one(record: dict[str, Any]) -> ReplayProblem:
        answers = [None if a is None else str(a) for a in record["extracted_answers"]]
        gold = str(record["correct_answer"])
        correct = list(await asyncio.gather(*(same(gold, a) for a in answers)))
        return ReplayProblem(
            name=record["name"],
            problem=record["problem"],
            correct_answer=gold,
            answers=answers,
            approvals=[dict(a) for a in record["all_solution_vera_approvals"]],
            correct=correct,
            clusters=await cluster_answers(answers, equivalent),
        )

    return list(await asyncio.gather(*(one(r) for r in records)))


def _cons(answers: Sequence[str | None]) -> int | None:
    counts = Counter(a for a in answers if a is not None)
    if not counts:
        return None
    top = max(counts.values())
    return next(i for i, a in enumerate(answers) if a is not None and counts[a] == top)


def _class_majority(clusters: list[list[int]], n: int) -> int:
    prefix = [[i for i in group if i < n] for group in clusters]
    prefix = [g for g in prefix if g]
    best: list[int] = max(prefix, key=_largest_then_earliest)
    return min(best)


def _largest_then_earliest(group: list[int]) -> tuple[int, int]:
    return len(group), -min(group)


def _prefix_clusters(clusters: list[list[int]], n: int) -> list[list[int]]:
    return [g for g in ([i for i in group if i < n] for group in clusters) if g]


def selection(problems: Sequence[ReplayProblem], ns: Sequence[int] = NS) -> dict[str, float]:
    """Selection accuracies in percent."""
    out: dict[str, float] = {}
    total = len(problems)

    def pct(hits: float) -> float:
        return round(100 * hits / total, 2) if total else 0.0

    out["pass@1"] = pct(sum(p.correct[0] for p in problems))
    out["mean_pass@1"] = pct(sum(sum(p.correct) / p.n for p in problems))
    for n in ns:
        if any(p.n < n for p in problems):
            continue
        cons = [_cons(p.answers[:n]) for p in problems]
        out[f"cons@{n}"] = pct(
            sum(c is not None and p.correct[c] for c, p in zip(cons, problems, strict=True))
        )
        out[f"class_majority@{n}"] = pct(
            sum(p.correct[_class_majority(p.clusters, n)] for p in problems)
        )
        out[f"bon_mav@{n}"] = pct(
            sum(p.correct[bon_mav_select(p.approvals[:n])[0]] for p in problems)
        )
        out[f"oracle@{n}"] = pct(sum(any(p.correct[:n]) for p in problems))
    return out


def _candidates(problems: Sequence[ReplayProblem]) -> tuple[list[float], list[bool]]:
    scores, labels = [], []
    for p in problems:
        for approvals, correct in zip(p.approvals, p.correct, strict=True):
            scores.append(sum(approvals.values()) / len(approvals) if approvals else 0.0)
            labels.append(correct)
    return scores, labels


def classifier_metrics(scores: Sequence[float], correct: Sequence[bool]) -> dict[str, Any]:
    errors = [not c for c in correct]
    detector = [1 - s for s in scores]
    curve = coverage_accuracy(scores, correct)
    step = max(1, len(curve) // 10)
    return {
        "n_candidates": len(scores),
        "error_rate": round(sum(errors) / len(errors), 4) if errors else 0.0,
        "detection@0.5": detection([s < 0.5 for s in scores], errors),
        "auroc": auroc(detector, errors),
        "auprc": auprc(detector, errors),
        "ece": ece(scores, correct),
        "brier": brier(scores, correct),
        "coverage_accuracy": [(round(c, 3), round(a, 4)) for c, a in curve[step - 1 :: step]],
    }


def held_out(problems: Sequence[ReplayProblem], seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    order = list(range(len(problems)))
    random.Random(seed).shuffle(order)
    cut = max(1, len(problems) // 3)
    fit = [problems[i] for i in order[:cut]]
    test = [problems[i] for i in order[cut:]] or fit
    samples = [(a, c) for p in fit for a, c in zip(p.approvals, p.correct, strict=True)]
    weights = VerifierWeights.fit(samples)
    rows = [signals(approvals=a) for a, _ in samples]
    calibrator = Calibrator.fit_logistic(rows, [c for _, c in samples])
    n = min(p.n for p in test)

    def pct(hits: int) -> float:
        return round(100 * hits / len(test), 2)

    weighted = clustered = mav = 0
    for p in test:
        probabilities = [weights.probability(a) for a in p.approvals[:n]]
        weighted += p.correct[select_best(probabilities)]
        clustered += p.correct[select_by_clusters(_prefix_clusters(p.clusters, n), probabilities)]
        mav += p.correct[bon_mav_select(p.approvals[:n])[0]]
    raw, labels = _candidates(test)
    calibrated = [calibrator.predict(signals(approvals=a)) for p in test for a in p.approvals]
    report = {
        "fit_problems": len(fit),
        "test_problems": len(test),
        "n": n,
        f"bon_mav@{n}": pct(mav),
        f"weighted@{n}": pct(weighted),
        f"weighted_clustered@{n}": pct(clustered),
    }
    calibration = {
        "ece": ece(calibrated, labels),
        "brier": brier(calibrated, labels),
        "raw_ece": ece(raw, labels),
        "raw_brier": brier(raw, labels),
        "held_out_candidates": len(labels),
    }
    return report, {
        "calibration": calibration,
        "calibrated": calibrated,
        "raw": raw,
        "labels": labels,
    }


def report(problems: Sequence[ReplayProblem], out_dir: Path, seed: int = 0) -> dict[str, Any]:
    """results.jsonl, summary.json and the plots for labelled problems."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with (out_dir / "results.jsonl").open("w", encoding="utf-8") as handle:
        for p in problems:
            index, scores = bon_mav_select(p.approvals)
            handle.write(
                json.dumps(
                    {
                        "id": p.name,
                        "correct_answer": p.correct_answer,
                        "answers": p.answers,
                        "correct": p.correct,
                        "mav_scores": scores,
                        "bon_mav_index": index,
                        "cons_index": _cons(p.answers),
                        "clusters": p.clusters,
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
    from solveverify_bench.engineering import engineered_vs_all  # imports this module

    scores, labels = _candidates(problems)
    held, extra = held_out(problems, seed)
    summary = {
        "n_problems": len(problems),
        "candidates_per_problem": max(p.n for p in problems),
        "verifiers": sorted({k for p in problems for a in p.approvals for k in a}),
        "selection": selection(problems),
        "approval_fraction": classifier_metrics(scores, labels),
        "held_out": held,
        "engineered_vs_all": engineered_vs_all(problems, seed),
        "calibration": extra["calibration"],
        "seed": seed,
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    write_plots(
        out_dir,
        probabilities=extra["calibrated"],
        correct=extra["labels"],
        raw_probabilities=extra["raw"],
        title="(held-out)",
        label="calibrated",
    )
    return summary
