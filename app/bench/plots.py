"""The four standard plots (seed: verifier-benchmark-harness.md), as PNGs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt

from app.bench.metrics import coverage_accuracy, pr_curve, reliability_bins, roc_curve

SIZE = (6, 4.5)
DPI = 100


def _save(figure: plt.Figure, path: Path) -> None:
    figure.tight_layout()
    figure.savefig(path, dpi=DPI)
    plt.close(figure)


def write_plots(
    out_dir: Path,
    *,
    probabilities: Sequence[float],
    correct: Sequence[bool],
    raw_probabilities: Sequence[float] | None = None,
    title: str = "",
    label: str = "verifier score",
) -> list[Path]:
    """calibration.png, pr_curve.png, roc_curve.png, coverage_accuracy.png under out_dir/plots.

    PR/ROC treat error detection as the task: positive = wrong answer, score = 1 − P(correct).
    """
    plots = out_dir / "plots"
    plots.mkdir(parents=True, exist_ok=True)
    errors = [not c for c in correct]
    detector = [1 - p for p in probabilities]
    paths = []

    figure, axis = plt.subplots(figsize=SIZE)
    axis.plot([0, 1], [0, 1], "--", color="grey", label="perfect calibration")
    for name, values in ((label, probabilities), ("raw approval fraction", raw_probabilities)):
        if values is None:
            continue
        bins = reliability_bins(values, correct)
        axis.plot([b[0] for b in bins], [b[1] for b in bins], "o-", label=name)
    axis.set(
        xlabel="predicted P(correct)",
        ylabel="observed accuracy",
        xlim=(0, 1),
        ylim=(0, 1),
        title=f"Reliability diagram {title}".strip(),
    )
    axis.legend()
    _save(figure, plots / "calibration.png")
    paths.append(plots / "calibration.png")

    figure, axis = plt.subplots(figsize=SIZE)
    points = pr_curve(detector, errors)
    axis.plot([p[0] for p in points], [p[1] for p in points], "-", drawstyle="steps-post")
    axis.set(
        xlabel="recall (errors caught)",
        ylabel="precision",
        xlim=(0, 1),
        ylim=(0, 1.05),
        title=f"Error detection: precision-recall {title}".strip(),
    )
    _save(figure, plots / "pr_curve.png")
    paths.append(plots / "pr_curve.png")

    figure, axis = plt.subplots(figsize=SIZE)
    points = roc_curve(detector, errors)
    axis.plot([p[0] for p in points], [p[1] for p in points], "-")
    axis.plot([0, 1], [0, 1], "--", color="grey")
    axis.set(
        xlabel="false positive rate",
        ylabel="true positive rate",
        xlim=(0, 1),
        ylim=(0, 1.05),
        title=f"Error detection: ROC {title}".strip(),
    )
    _save(figure, plots / "roc_curve.png")
    paths.append(plots / "roc_curve.png")

    figure, axis = plt.subplots(figsize=SIZE)
    points = coverage_accuracy(probabilities, correct)
    axis.plot([p[0] for p in points], [p[1] for p in points], "-")
    axis.set(
        xlabel="coverage (fraction answered)",
        ylabel="accuracy of answered",
        xlim=(0, 1),
        ylim=(0, 1.05),
        title=f"Coverage vs accuracy {title}".strip(),
    )
    _save(figure, plots / "coverage_accuracy.png")
    paths.append(plots / "coverage_accuracy.png")
    return paths
