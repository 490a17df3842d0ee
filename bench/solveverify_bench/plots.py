"""The four standard plots (seed: design-notes, benchmark harness), as PNGs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from solveverify_bench.metrics import coverage_accuracy, pr_curve, reliability_bins, roc_curve

SIZE = (6, 4.5)
DPI = 100


def _save(figure: Figure, path: Path) -> None:
    figure.tight_layout()
    figure.savefig(path, dpi=DPI)
    plt.close(figure)


def _curve(
    path: Path,
    points: Sequence[tuple[float, float]],
    xlabel: str,
    ylabel: str,
    title: str,
    *,
    diagonal: bool = False,
) -> Path:
    figure, axis = plt.subplots(figsize=SIZE)
    axis.plot([p[0] for p in points], [p[1] for p in points], "-")
    if diagonal:
        axis.plot([0, 1], [0, 1], "--", color="grey")
    axis.set(xlabel=xlabel, ylabel=ylabel, xlim=(0, 1), ylim=(0, 1.05), title=title)
    _save(figure, path)
    return path


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

    curves = [
        (
            "pr_curve.png",
            pr_curve(detector, errors),
            "recall (errors caught)",
            "precision",
            "Error detection: precision-recall",
            False,
        ),
        (
            "roc_curve.png",
            roc_curve(detector, errors),
            "false positive rate",
            "true positive rate",
            "Error detection: ROC",
            True,
        ),
        (
            "coverage_accuracy.png",
            coverage_accuracy(probabilities, correct),
            "coverage (fraction answered)",
            "accuracy of answered",
            "Coverage vs accuracy",
            False,
        ),
    ]
    for name, points, xlabel, ylabel, heading, diagonal in curves:
        paths.append(
            _curve(
                plots / name,
                points,
                xlabel,
                ylabel,
                f"{heading} {title}".strip(),
                diagonal=diagonal,
            )
        )
    return paths
