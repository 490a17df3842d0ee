"""Calibration: fitted models improve ECE/Brier over raw signals; save/load; metrics by hand."""

from __future__ import annotations

import random

import pytest

from app.verification.calibration import Calibrator, brier, ece, reliability_bins, signals


def test_metrics_by_hand() -> None:
    probabilities, labels = [0.9, 0.9, 0.1, 0.6], [True, False, False, True]
    assert brier(probabilities, labels) == pytest.approx((0.01 + 0.81 + 0.01 + 0.16) / 4)
    # bins: 0.1 → acc 0 (gap .1, 1/4), 0.6 → acc 1 (gap .4, 1/4), 0.9 ×2 → acc .5 (gap .4, 2/4)
    assert ece(probabilities, labels) == pytest.approx(0.1 / 4 + 0.4 / 4 + 0.4 / 2)
    assert reliability_bins(probabilities, labels) == [(0.1, 0.0, 1), (0.6, 1.0, 1), (0.9, 0.5, 2)]


def synthetic(n: int, seed: int) -> tuple[list[dict[str, float]], list[bool]]:
    """An overconfident verifier: it says 0.95 whether right (70%) or wrong (30%); a
    programmatic check, when it ran, is always right."""
    rng = random.Random(seed)
    rows, labels = [], []
    for _ in range(n):
        correct = rng.random() < 0.7
        programmatic = rng.choice([None, "approve" if correct else "reject"])
        votes = {
            "strict": correct if rng.random() < 0.9 else not correct,
            "lenient": True if rng.random() < 0.8 else correct,
        }
        rows.append(signals(approvals=votes, programmatic=programmatic, quick_confidence=0.95))
        labels.append(correct)
    return rows, labels


def test_logistic_calibration_beats_the_raw_signal() -> None:
    rows, labels = synthetic(600, 1)
    test_rows, test_labels = synthetic(400, 2)
    raw = [r["quick_confidence"] for r in test_rows]
    model = Calibrator.fit_logistic(rows, labels)
    calibrated = [model.predict(r) for r in test_rows]
    assert ece(calibrated, test_labels) < ece(raw, test_labels) / 3
    assert brier(calibrated, test_labels) < brier(raw, test_labels)
    assert model.weights[model.features.index("programmatic")] > 1  # it learned to trust it


def test_isotonic_is_monotone_and_round_trips(tmp_path) -> None:
    rows, labels = synthetic(500, 3)
    model = Calibrator.fit_isotonic(rows, labels, signal="approval_fraction")
    assert model.knots_y == sorted(model.knots_y)
    assert model.predict({"approval_fraction": 0.0}) < model.predict({"approval_fraction": 1.0})
    model.save(tmp_path / "calibration.json")
    loaded = Calibrator.load(tmp_path / "calibration.json")
    assert loaded == model
    logistic = Calibrator.fit_logistic(rows, labels)
    logistic.save(tmp_path / "l.json")
    assert Calibrator.load(tmp_path / "l.json").predict(rows[0]) == logistic.predict(rows[0])
