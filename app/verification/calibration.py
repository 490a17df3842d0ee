"""From raw verification signals to a calibrated P(correct).

Signals: the approval fraction (over decisive verdicts), which verifiers approved (+1/-1/0
each), the programmatic result (+1 approve, -1 reject, 0 none) and the quick-verify
confidence. `Calibrator` fits a
logistic model (L2-regularised, Newton/IRLS) on all of them, or isotonic regression (pool
adjacent violators) on one scalar signal. It is saved as JSON and loaded by the service; once
fitted, its output is what `verification_confidence` means. ECE and Brier measure it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

Signals = Mapping[str, float]


class VerdictLike(Protocol):
    """A verdict (app/verification/verdict.py) or a stored verdict row."""

    @property
    def verdict(self) -> str: ...
    @property
    def method(self) -> str: ...
    @property
    def verifier_id(self) -> str: ...
    @property
    def score(self) -> float | None: ...


def signals(
    *,
    approvals: Mapping[str, bool | None] | None = None,
    programmatic: str | None = None,
    quick_confidence: float | None = None,
) -> dict[str, float]:
    """The feature row for one verified answer."""
    row: dict[str, float] = {}
    decisive = [v for v in (approvals or {}).values() if v is not None]
    if decisive:
        # Over decisive verdicts: an abstention is no evidence, never a rejection.
        row["approval_fraction"] = sum(decisive) / len(decisive)
    if approvals:
        for vid, vote in approvals.items():
            row[f"verifier:{vid}"] = 0.0 if vote is None else (1.0 if vote else -1.0)
    if programmatic is not None:
        row["programmatic"] = {"approve": 1.0, "reject": -1.0}.get(programmatic, 0.0)
    if quick_confidence is not None:
        row["quick_confidence"] = quick_confidence
    return row


def verdict_signals(verdicts: Iterable[VerdictLike]) -> dict[str, float]:
    """Every verdict of one attempt (quick verify and any panel) as calibration features:
    the same row at response time and when recalibrating from stored verdicts."""
    listed = list(verdicts)
    programmatic = next((v for v in listed if v.method == "programmatic"), None)
    model = next((v for v in listed if v.verifier_id.endswith(":quick_verify")), None)
    sampled = next((v for v in listed if v.verifier_id.endswith(":self_consistency")), None)
    row = signals(
        approvals={
            v.verifier_id: None if v.verdict == "abstain" else v.verdict == "approve"
            for v in listed
        },
        programmatic=programmatic.verdict if programmatic else None,
        quick_confidence=model.score if model and model.score is not None else None,
    )
    if sampled is not None and sampled.score is not None:
        row["self_consistency"] = sampled.score  # the agreement fraction, not just ±1
    return row


@dataclass(slots=True)
class Calibrator:
    kind: Literal["logistic", "isotonic"] = "logistic"
    features: list[str] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)
    bias: float = 0.0
    # isotonic: a step function over one signal
    signal: str = "approval_fraction"
    knots_x: list[float] = field(default_factory=list)
    knots_y: list[float] = field(default_factory=list)
    n_samples: int = 0
    # The precision promise (app/verification/precision.py), fitted with the calibrator:
    # verified ⇔ P(correct) ≥ threshold. target_precision None: an older file without one.
    threshold: float | None = None
    target_precision: float | None = None
    delta: float = 0.05
    evidence: int = 0
    precision_lower_bound: float | None = None
    # How good the fit is, measured on the threshold's held-out outcomes (else the fit set),
    # when it was fitted (ISO 8601, UTC), and the labelled outcomes by source.
    ece: float | None = None
    brier: float | None = None
    fitted_at: str | None = None
    sources: dict[str, int] = field(default_factory=dict)

    # ------------------------------------------------------------------ fitting
    @classmethod
    def fit_logistic(
        cls, rows: Sequence[Signals], labels: Sequence[bool], l2: float = 1.0, iterations: int = 50
    ) -> Calibrator:
        features = sorted({k for row in rows for k in row})
        x = np.array([[row.get(f, 0.0) for f in features] for row in rows], dtype=float)
        x = np.hstack([x, np.ones((len(rows), 1))])
        y = np.array(labels, dtype=float)
        w = np.zeros(x.shape[1])
        penalty = np.full(x.shape[1], l2)
        penalty[-1] = 0.0  # the bias is not regularised
        for _ in range(iterations):
            p = 1 / (1 + np.exp(-np.clip(x @ w, -50, 50)))
            gradient = x.T @ (p - y) + penalty * w
            hessian = (x.T * (p * (1 - p))) @ x + np.diag(penalty) + 1e-9 * np.eye(len(w))
            step = np.linalg.solve(hessian, gradient)
            w -= step
            if np.max(np.abs(step)) < 1e-8:
                break
        return cls("logistic", features, w[:-1].tolist(), float(w[-1]), n_samples=len(rows))

    @classmethod
    def fit_isotonic(
        cls, rows: Sequence[Signals], labels: Sequence[bool], signal: str = "approval_fraction"
    ) -> Calibrator:
        pairs = sorted(
            (row.get(signal, 0.0), float(label)) for row, label in zip(rows, labels, strict=True)
        )
        # Pool adjacent violators: blocks of (sum_y, count, x_max), merged while decreasing.
        blocks: list[list[float]] = []
        for x, y in pairs:
            blocks.append([y, 1.0, x])
            while (
                len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]
            ):
                y2, n2, x2 = blocks.pop()
                blocks[-1][0] += y2
                blocks[-1][1] += n2
                blocks[-1][2] = x2
        return cls(
            "isotonic",
            signal=signal,
            knots_x=[b[2] for b in blocks],
            knots_y=[b[0] / b[1] for b in blocks],
            n_samples=len(rows),
        )

    # ------------------------------------------------------------------ use
    def predict(self, row: Signals) -> float:
        if self.kind == "isotonic":
            value = row.get(self.signal, 0.0)
            for x, y in zip(self.knots_x, self.knots_y, strict=True):
                if value <= x:
                    return y
            return self.knots_y[-1] if self.knots_y else 0.5
        z = self.bias + sum(
            w * row.get(f, 0.0) for f, w in zip(self.features, self.weights, strict=True)
        )
        return 1 / (1 + math.exp(-max(min(z, 50), -50)))

    def with_promise(
        self, rows: Sequence[Signals], labels: Sequence[bool], target: float, delta: float = 0.05
    ) -> Calibrator:
        """This calibrator with the threshold that keeps `target` precision on (rows, labels)
        (labelled outcomes the calibrator was not fitted on, where there are enough)."""
        from dataclasses import replace

        from app.verification.precision import choose_threshold

        chosen = choose_threshold(
            [self.predict(r) for r in rows], labels, target=target, delta=delta
        )
        return replace(
            self,
            threshold=chosen.threshold,
            target_precision=target,
            delta=delta,
            evidence=chosen.evidence,
            precision_lower_bound=chosen.precision_lower_bound,
        )

    def save(self, path: Path) -> None:
        from dataclasses import asdict

        path.write_text(json.dumps(asdict(self), indent=2))

    @classmethod
    def load(cls, path: Path) -> Calibrator:
        return cls(**json.loads(path.read_text()))


# ---------------------------------------------------------------------- metrics


def brier(probabilities: Sequence[float], labels: Sequence[bool]) -> float:
    p, y = np.asarray(probabilities, float), np.asarray(labels, float)
    return float(np.mean((p - y) ** 2)) if len(p) else 0.0


def reliability_bins(
    probabilities: Sequence[float], labels: Sequence[bool], bins: int = 10
) -> list[tuple[float, float, int]]:
    """(mean predicted, observed accuracy, count) per equal-width bin with data."""
    p, y = np.asarray(probabilities, float), np.asarray(labels, float)
    index = np.minimum((p * bins).astype(int), bins - 1)
    out = []
    for b in range(bins):
        mask = index == b
        if mask.any():
            out.append((float(p[mask].mean()), float(y[mask].mean()), int(mask.sum())))
    return out


def ece(probabilities: Sequence[float], labels: Sequence[bool], bins: int = 10) -> float:
    """Expected calibration error: Σ_bins |accuracy − confidence| × share of samples."""
    total = len(probabilities)
    if not total:
        return 0.0
    return sum(
        abs(acc - conf) * n / total
        for conf, acc, n in reliability_bins(probabilities, labels, bins)
    )
