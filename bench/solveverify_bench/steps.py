"""`bench steps`: the step checks on ProcessBench's format (issue 30).

Data: a JSON list (or JSONL) of {"id", "problem", "steps": [...], "label": index of the first
wrong step or -1, "final_answer_correct", "generator"?, "subset"?}. The subset is the item's
`subset`, else its id's prefix ("gsm8k-12" → gsm8k), else the file's name.

Reported per subset and overall:
- ProcessBench's F1: the harmonic mean of the accuracy on erroneous samples (the predicted
  first wrong step is the label) and on correct ones (no step predicted wrong); a sample the
  checks abstain on counts as "no error found", as in ProcessBench. The prediction is the
  service's `first_error_step` (`processbench`), and beside it the first step found wrong at
  all (`processbench_first_flagged`, the service's `first_flagged_step`).
- The symbolic checks alone: their first-error claims (`symbolic_flags`: a first wrong step
  every step before which was shown right, what `first_error_step` says without a model) and
  their first flags whatever came before (`symbolic_first_flags`), each with precision (right
  only on the labelled first wrong step), recall over erroneous samples, flags before the
  first error (steps labelled right), and the share of correct solutions with no flag.
- Coverage: the share of steps each method decided (ok or wrong), and what the model did:
  flagged / no_error (its claim stood), below_bar (a readable claim the judge set aside),
  abstained (nothing readable, an error, a timeout), not_asked.
Backends: `stub` (symbolic only, no model), a configured provider (`openai_compatible`, …)
whose verify model runs the critique, or `replay` (recorded replies,
solveverify_bench/steps_replay.py); a model never judges steps it generated itself. The
critique's claims are judged by the calibrator given (else their stated confidence against the
raw bar), and `fit_calibration` fits one on the run's labelled claims.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.llm.base import ModelClient
from app.symbolic.sandbox import SymbolicSandbox
from app.symbolic.step_sandbox import check_steps
from app.verification.calibration import Calibrator, brier, ece
from app.verification.step_critique import (
    StepCritique,
    critique_signals,
    critique_steps,
)
from app.verification.step_verdicts import combine, first_error, first_flagged
from solveverify_bench.metrics import auroc

CRITIQUE_TIMEOUT_S = 120.0
CONCURRENCY = 4
MIN_FIT_CLAIMS = 10  # fewer readable claims (or one kind of outcome): no calibrator is fitted


@dataclass(frozen=True, slots=True)
class StepSample:
    id: str
    subset: str
    problem: str
    steps: list[str]
    label: int
    generator: str | None = None


def _subset(item: dict[str, Any], fallback: str) -> str:
    if isinstance(item.get("subset"), str):
        return str(item["subset"])
    ident = str(item.get("id", ""))
    return ident.rsplit("-", 1)[0] if "-" in ident else fallback


def load_samples(path: Path, limit: int | None = None) -> list[StepSample]:
    """Raises ValueError naming the first item that is not in ProcessBench's format."""
    text = path.read_text(encoding="utf-8")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError:
        raw = [json.loads(line) for line in text.splitlines() if line.strip()]
    if not isinstance(raw, list):
        raise ValueError(f"{path}: expected a JSON list of samples")
    samples: list[StepSample] = []
    for n, item in enumerate(raw[:limit] if limit else raw):
        steps = item.get("steps") if isinstance(item, dict) else None
        label = item.get("label") if isinstance(item, dict) else None
        if not (
            isinstance(item, dict)
            and isinstance(item.get("problem"), str)
            and isinstance(steps, list)
            and steps
            and all(isinstance(s, str) for s in steps)
            and isinstance(label, int)
            and -1 <= label < len(steps)
        ):
            raise ValueError(f"{path}: item {n} is not {{problem, steps[], label}}")
        samples.append(
            StepSample(
                id=str(item.get("id", n)),
                subset=_subset(item, path.stem),
                problem=item["problem"],
                steps=list(steps),
                label=label,
                generator=item.get("generator"),
            )
        )
    return samples


@dataclass(frozen=True, slots=True)
class CritiqueJudge:
    """How the critique's claims are judged: the fitted calibrator (None: not fitted) and the
    raw `verified_threshold` that stands in before one is."""

    calibrator: Calibrator | None
    raw_bar: float


@dataclass(slots=True)
class SampleResult:
    sample: StepSample
    symbolic_first: int | None  # the first symbolic flag, whatever came before it
    symbolic_claim: int | None  # the same, when every step before it was shown right
    predicted: int  # first_error_step after combining, -1 for none
    flagged: int  # first_flagged_step after combining, -1 for none
    methods: list[str | None]  # the deciding method per step (None: unchecked)
    model: str  # flagged | no_error | below_bar | abstained | not_asked
    critique: StepCritique | None = None
    # what the first symbolic flag read, and why it is false (to classify each flag)
    flag_claim: str | None = None
    flag_why: str | None = None

    def row(self) -> dict[str, object]:
        c = self.critique
        return {
            "id": self.sample.id,
            "subset": self.sample.subset,
            "label": self.sample.label,
            "symbolic_first": self.symbolic_first,
            "symbolic_claim": self.symbolic_claim,
            "predicted": self.predicted,
            "flagged": self.flagged,
            "methods": self.methods,
            "flag": None
            if self.symbolic_first is None
            else {"step": self.symbolic_first, "claim": self.flag_claim, "why": self.flag_why},
            "model": self.model,
            "critique": None
            if c is None
            else {
                "claimed": c.claimed,
                "confidence": c.confidence,
                "probability": c.probability,
                "calibrated": c.calibrated,
                "stands": c.earliest_error is not None,
            },
        }


def _model_state(critique: StepCritique | None) -> str:
    if critique is None:
        return "not_asked"
    if critique.earliest_error is not None:
        return "no_error" if critique.earliest_error < 0 else "flagged"
    return "abstained" if critique.claimed is None else "below_bar"


async def judge(
    sandbox: SymbolicSandbox,
    model: ModelClient | None,
    sample: StepSample,
    critic: CritiqueJudge,
) -> SampleResult:
    findings = await check_steps(sandbox, sample.problem, sample.steps)
    symbolic = combine(findings, None)
    symbolic_first = first_flagged(symbolic)
    critique: StepCritique | None = None
    own_steps = (
        model is not None
        and sample.generator is not None
        and (sample.generator.lower() in model.model.lower())
    )
    if model is not None and not own_steps and symbolic_first != 0:
        critique = await critique_steps(
            model,
            sample.problem,
            sample.steps,
            timeout=CRITIQUE_TIMEOUT_S,
            calibrator=critic.calibrator,
            raw_bar=critic.raw_bar,
        )
    outcomes = combine(findings, critique)
    first, flagged = first_error(outcomes), first_flagged(outcomes)
    methods = [o.method if o.verdict != "unchecked" else None for o in outcomes]
    flag = None if symbolic_first is None else findings[symbolic_first]
    return SampleResult(
        sample,
        symbolic_first,
        first_error(symbolic),
        -1 if first is None else first,
        -1 if flagged is None else flagged,
        methods,
        _model_state(critique),
        critique,
        None if flag is None else flag.claim,
        None if flag is None else flag.detail,
    )


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


@dataclass(slots=True)
class _Flags:
    """One kind of symbolic flag: the first claimed error, or the first flag at all."""

    flags: int = 0
    on_label: int = 0
    before_label: int = 0  # on a step labelled right: an unsound flag
    on_correct: int = 0  # in a solution labelled correct

    def add(self, flag: int | None, label: int) -> None:
        if flag is None:
            return
        self.flags += 1
        self.on_label += flag == label
        self.before_label += label == -1 or flag < label
        self.on_correct += label == -1

    def summary(self, erroneous: int, correct: int) -> dict[str, object]:
        return {
            "flags": self.flags,
            "precision": _ratio(self.on_label, self.flags),
            "recall": _ratio(self.on_label, erroneous),
            "on_a_step_labelled_right": self.before_label,
            "after_the_first_error": self.flags - self.on_label - self.before_label,
            "correct_solutions_without_a_flag": _ratio(correct - self.on_correct, correct),
        }


def _processbench(
    error_hits: int, erroneous: int, correct_hits: int, correct: int
) -> dict[str, float | None]:
    acc_error = _ratio(error_hits, erroneous)
    acc_correct = _ratio(correct_hits, correct)
    f1 = (
        round(2 * acc_error * acc_correct / (acc_error + acc_correct), 4)
        if acc_error is not None and acc_correct is not None and acc_error + acc_correct
        else None
    )
    return {"accuracy_erroneous": acc_error, "accuracy_correct": acc_correct, "f1": f1}


@dataclass(slots=True)
class _Tally:
    erroneous: int = 0
    correct: int = 0
    error_hits: int = 0  # erroneous, predicted == label
    correct_hits: int = 0  # correct, nothing predicted
    flagged_error_hits: int = 0  # the same for the first flagged step
    flagged_correct_hits: int = 0
    claims: _Flags = field(default_factory=_Flags)
    first_flags: _Flags = field(default_factory=_Flags)
    steps: int = 0
    decided: Counter[str] = field(default_factory=Counter)
    model: Counter[str] = field(default_factory=Counter)

    def add(self, r: SampleResult) -> None:
        label = r.sample.label
        if label >= 0:
            self.erroneous += 1
            self.error_hits += r.predicted == label
            self.flagged_error_hits += r.flagged == label
        else:
            self.correct += 1
            self.correct_hits += r.predicted == -1
            self.flagged_correct_hits += r.flagged == -1
        self.claims.add(r.symbolic_claim, label)
        self.first_flags.add(r.symbolic_first, label)
        self.steps += len(r.methods)
        self.decided.update(m for m in r.methods if m is not None)
        self.model[r.model] += 1

    def summary(self) -> dict[str, object]:
        return {
            "samples": self.erroneous + self.correct,
            "erroneous": self.erroneous,
            "correct": self.correct,
            "processbench": _processbench(
                self.error_hits, self.erroneous, self.correct_hits, self.correct
            ),
            "processbench_first_flagged": _processbench(
                self.flagged_error_hits, self.erroneous, self.flagged_correct_hits, self.correct
            ),
            "symbolic_flags": self.claims.summary(self.erroneous, self.correct),
            "symbolic_first_flags": self.first_flags.summary(self.erroneous, self.correct),
            "coverage_of_steps": {
                "steps": self.steps,
                **{m: _ratio(n, self.steps) for m, n in sorted(self.decided.items())},
                "unchecked": _ratio(self.steps - sum(self.decided.values()), self.steps),
            },
            "model": dict(sorted(self.model.items())),
        }


def summarize(results: Sequence[SampleResult]) -> dict[str, object]:
    overall = _Tally()
    subsets: dict[str, _Tally] = defaultdict(_Tally)
    for r in results:
        overall.add(r)
        subsets[r.sample.subset].add(r)
    per_subset = {name: t.summary() for name, t in sorted(subsets.items())}
    f1s = [s["processbench"]["f1"] for s in per_subset.values()]  # type: ignore[index]
    return {
        "overall": overall.summary(),
        "subsets": per_subset,
        "average_f1_over_subsets": round(sum(f1s) / len(f1s), 4)
        if f1s and all(isinstance(f, float) for f in f1s)
        else None,
    }


def labelled_claims(results: Sequence[SampleResult]) -> tuple[list[dict[str, float]], list[bool]]:
    """(features, right?) for every readable claim of the critique, whether or not it stood:
    the labelled outcomes its calibrator is fitted on (right: the claim is the label)."""
    rows: list[dict[str, float]] = []
    labels: list[bool] = []
    for r in results:
        c = r.critique
        if c is not None and c.claimed is not None:
            rows.append(critique_signals(c.claimed, c.confidence))
            labels.append(c.claimed == r.sample.label)
    return rows, labels


def fit_calibration(
    results: Sequence[SampleResult],
    *,
    target: float,
    delta: float,
    holdout_fraction: float,
    seed: int = 0,
    fitted_at: str | None = None,
    measured_on: str | None = None,
) -> Calibrator:
    """The critique's calibrator, fitted as the answers' is (app/verification/outcomes.py
    `fit_with_promise`): logistic on a seeded part of the labelled claims, the threshold for
    the promised precision chosen by Learn-then-Test on the held-out rest. Too few claims
    (or only one kind of outcome): a promise with no threshold, so no claim stands. Its AUROC
    on the held-out claims, with the model it was `measured_on`, is what admits the critique
    (app/verification/admission.py `critique_admitted`)."""
    rows, labels = labelled_claims(results)
    empty = Calibrator(
        target_precision=target, delta=delta, n_samples=len(rows), measured_on=measured_on
    )
    if len(rows) < MIN_FIT_CLAIMS or len(set(labels)) < 2:
        return empty
    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    cut = round(len(order) * holdout_fraction)
    held, fit = order[:cut], order[cut:]
    if len({labels[i] for i in fit}) < 2:
        return empty
    model = Calibrator.fit_logistic([rows[i] for i in fit], [labels[i] for i in fit])
    model = model.with_promise([rows[i] for i in held], [labels[i] for i in held], target, delta)
    measured = held or fit
    predicted = [model.predict(rows[i]) for i in measured]
    right = [labels[i] for i in measured]
    model.ece, model.brier = ece(predicted, right), brier(predicted, right)
    model.auroc = auroc(predicted, right)
    model.fitted_at, model.measured_on = fitted_at, measured_on
    model.sources = {"step_critique": len(rows)}
    return model


async def run_steps_bench(
    sandbox: SymbolicSandbox,
    model: ModelClient | None,
    samples: Sequence[StepSample],
    critic: CritiqueJudge,
    out_dir: Path | None = None,
) -> tuple[dict[str, object], list[SampleResult]]:
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(sample: StepSample) -> SampleResult:
        async with gate:
            return await judge(sandbox, model, sample, critic)

    results = await asyncio.gather(*(one(s) for s in samples))
    summary = summarize(results)
    summary["backend"] = "stub" if model is None else f"{model.provider}:{model.model}"
    summary["critique_calibrated"] = critic.calibrator is not None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        with (out_dir / "results.jsonl").open("w", encoding="utf-8") as f:
            for r in results:
                f.write(json.dumps(r.row()) + "\n")
        (out_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary, list(results)
