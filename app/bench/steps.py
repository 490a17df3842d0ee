"""`bench steps`: the step checks on ProcessBench's format (issue 30).

Data: a JSON list (or JSONL) of {"id", "problem", "steps": [...], "label": index of the first
wrong step or -1, "final_answer_correct", "generator"?, "subset"?}. The subset is the item's
`subset`, else its id's prefix ("gsm8k-12" → gsm8k), else the file's name.

Reported per subset and overall:
- ProcessBench's F1: the harmonic mean of the accuracy on erroneous samples (the predicted
  first wrong step is the label) and on correct ones (no step predicted wrong); a sample the
  checks abstain on counts as "no error found", as in ProcessBench.
- The symbolic flags alone: precision (a flag counts as right only on the labelled first wrong
  step), recall over erroneous samples, flags before the first error (steps labelled right),
  and the share of correct solutions with no flag.
- Coverage: the share of steps each method decided (ok or wrong), and how often the model
  abstained.
Backends: `stub` (symbolic only, no model) or a configured provider (`openai_compatible`, …)
whose verify model runs the critique; a model never judges steps it generated itself.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.llm.base import ModelClient
from app.symbolic.sandbox import SymbolicSandbox
from app.symbolic.step_sandbox import check_steps
from app.verification.step_critique import StepCritique, critique_steps
from app.verification.step_verdicts import combine, first_wrong

CRITIQUE_TIMEOUT_S = 120.0
CONCURRENCY = 4


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


@dataclass(slots=True)
class SampleResult:
    sample: StepSample
    symbolic_first: int | None  # the first symbolic flag
    predicted: int  # the first wrong step after combining, -1 for none
    methods: list[str | None]  # the deciding method per step (None: unchecked)
    model: str  # flagged | no_error | abstained | not_asked

    def row(self) -> dict[str, object]:
        return {
            "id": self.sample.id,
            "subset": self.sample.subset,
            "label": self.sample.label,
            "symbolic_first": self.symbolic_first,
            "predicted": self.predicted,
            "methods": self.methods,
            "model": self.model,
        }


async def judge(
    sandbox: SymbolicSandbox, model: ModelClient | None, sample: StepSample
) -> SampleResult:
    findings = await check_steps(sandbox, sample.problem, sample.steps)
    symbolic_first = first_wrong(f.verdict for f in findings)
    critique: StepCritique | None = None
    state = "not_asked"
    own_steps = (
        model is not None
        and sample.generator is not None
        and (sample.generator.lower() in model.model.lower())
    )
    if model is not None and not own_steps and symbolic_first != 0:
        critique = await critique_steps(
            model, sample.problem, sample.steps, timeout=CRITIQUE_TIMEOUT_S
        )
        if critique.earliest_error is None:
            state = "abstained"
        else:
            state = "no_error" if critique.earliest_error < 0 else "flagged"
    outcomes = combine(findings, critique)
    first = first_wrong(o.verdict for o in outcomes)
    methods = [o.method if o.verdict != "unchecked" else None for o in outcomes]
    return SampleResult(sample, symbolic_first, -1 if first is None else first, methods, state)


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


@dataclass(slots=True)
class _Tally:
    erroneous: int = 0
    correct: int = 0
    error_hits: int = 0  # erroneous, predicted == label
    correct_hits: int = 0  # correct, nothing predicted
    flags: int = 0  # samples with a symbolic flag
    flags_on_label: int = 0
    flags_before_label: int = 0  # on a step labelled right: an unsound flag
    flagged_correct: int = 0
    steps: int = 0
    decided: Counter[str] = field(default_factory=Counter)
    model: Counter[str] = field(default_factory=Counter)

    def add(self, r: SampleResult) -> None:
        label = r.sample.label
        if label >= 0:
            self.erroneous += 1
            self.error_hits += r.predicted == label
        else:
            self.correct += 1
            self.correct_hits += r.predicted == -1
        if r.symbolic_first is not None:
            self.flags += 1
            self.flags_on_label += r.symbolic_first == label
            self.flags_before_label += label == -1 or r.symbolic_first < label
            self.flagged_correct += label == -1
        self.steps += len(r.methods)
        self.decided.update(m for m in r.methods if m is not None)
        self.model[r.model] += 1

    def summary(self) -> dict[str, object]:
        acc_error = _ratio(self.error_hits, self.erroneous)
        acc_correct = _ratio(self.correct_hits, self.correct)
        f1 = (
            round(2 * acc_error * acc_correct / (acc_error + acc_correct), 4)
            if acc_error is not None and acc_correct is not None and acc_error + acc_correct
            else None
        )
        return {
            "samples": self.erroneous + self.correct,
            "erroneous": self.erroneous,
            "correct": self.correct,
            "processbench": {
                "accuracy_erroneous": acc_error,
                "accuracy_correct": acc_correct,
                "f1": f1,
            },
            "symbolic_flags": {
                "flags": self.flags,
                "precision": _ratio(self.flags_on_label, self.flags),
                "recall": _ratio(self.flags_on_label, self.erroneous),
                "on_a_step_labelled_right": self.flags_before_label,
                "after_the_first_error": self.flags - self.flags_on_label - self.flags_before_label,
                "correct_solutions_without_a_flag": _ratio(
                    self.correct - self.flagged_correct, self.correct
                ),
            },
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


async def run_steps_bench(
    sandbox: SymbolicSandbox,
    model: ModelClient | None,
    samples: Sequence[StepSample],
    out_dir: Path | None = None,
) -> dict[str, object]:
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(sample: StepSample) -> SampleResult:
        async with gate:
            return await judge(sandbox, model, sample)

    results = await asyncio.gather(*(one(s) for s in samples))
    summary = summarize(results)
    summary["backend"] = "stub" if model is None else f"{model.provider}:{model.model}"
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        with (out_dir / "results.jsonl").open("w", encoding="utf-8") as f:
            for r in results:
                f.write(json.dumps(r.row()) + "\n")
        (out_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary
