"""Metrics for verifiers as classifiers and as selectors (no scikit-learn needed).

Scores are P(correct) (or P(grounded)); for error detection the positive class is "has an
error", so the detector score is 1 − score.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from app.verification.calibration import brier, ece, reliability_bins

__all__ = [
    "auprc",
    "auroc",
    "brier",
    "coverage_accuracy",
    "detection",
    "ece",
    "pr_curve",
    "reliability_bins",
    "roc_curve",
]


def roc_curve(scores: Sequence[float], positives: Sequence[bool]) -> list[tuple[float, float]]:
    """(false positive rate, true positive rate) points, thresholds from high to low."""
    pairs = sorted(zip(scores, positives, strict=True), key=lambda p: -p[0])
    n_pos = sum(positives)
    n_neg = len(positives) - n_pos
    points = [(0.0, 0.0)]
    tp = fp = 0
    for i, (score, positive) in enumerate(pairs):
        tp += positive
        fp += not positive
        if i + 1 == len(pairs) or pairs[i + 1][0] != score:  # one point per distinct threshold
            points.append((fp / n_neg if n_neg else 0.0, tp / n_pos if n_pos else 0.0))
    return points


def auroc(scores: Sequence[float], positives: Sequence[bool]) -> float | None:
    if not any(positives) or all(positives):
        return None  # undefined with one class
    points = roc_curve(scores, positives)
    return sum((x2 - x1) * (y1 + y2) / 2 for (x1, y1), (x2, y2) in pairwise(points))


def pr_curve(scores: Sequence[float], positives: Sequence[bool]) -> list[tuple[float, float]]:
    """(recall, precision) points, thresholds from high to low."""
    pairs = sorted(zip(scores, positives, strict=True), key=lambda p: -p[0])
    n_pos = sum(positives)
    points: list[tuple[float, float]] = []
    tp = fp = 0
    for i, (score, positive) in enumerate(pairs):
        tp += positive
        fp += not positive
        if i + 1 == len(pairs) or pairs[i + 1][0] != score:
            points.append((tp / n_pos if n_pos else 0.0, tp / (tp + fp)))
    return points


def auprc(scores: Sequence[float], positives: Sequence[bool]) -> float | None:
    """Average precision: Σ (recall_k − recall_{k−1}) × precision_k."""
    if not any(positives):
        return None
    total, previous_recall = 0.0, 0.0
    for recall, precision in pr_curve(scores, positives):
        total += (recall - previous_recall) * precision
        previous_recall = recall
    return total


def detection(flagged: Sequence[bool], has_error: Sequence[bool]) -> dict[str, float | int]:
    """Precision/recall/F1 of a verifier flagging errors (positive = the answer is wrong)."""
    tp = sum(f and e for f, e in zip(flagged, has_error, strict=True))
    fp = sum(f and not e for f, e in zip(flagged, has_error, strict=True))
    fn = sum(not f and e for f, e in zip(flagged, has_error, strict=True))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "tp": tp, "fp": fp, "fn": fn}


def coverage_accuracy(
    scores: Sequence[float], correct: Sequence[bool]
) -> list[tuple[float, float]]:
    """Selective prediction: answer only the most confident fraction; (coverage, accuracy)."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    points, hits = [], 0
    for k, i in enumerate(order, 1):
        hits += correct[i]
        points.append((k / len(order), hits / k))
    return points
