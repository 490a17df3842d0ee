"""Reliability-weighted aggregation: verifier weights learned from labelled outcomes.

Each verifier's vote is weighed by how much it tells about correctness — the log-likelihood
ratio log P(vote | correct) / P(vote | incorrect), with Laplace smoothing — and the votes are
combined naive-Bayes style into P(correct). A verifier that approves everything gets weight ~0;
one whose rejections are reliable gets a large negative weight for "reject".
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

Approvals = Mapping[str, bool | None]


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-max(min(x, 50), -50)))


@dataclass(slots=True)
class VerifierWeights:
    prior_log_odds: float = 0.0
    approve: dict[str, float] = field(default_factory=dict)  # LLR of an approval
    reject: dict[str, float] = field(default_factory=dict)  # LLR of a rejection

    @classmethod
    def fit(cls, samples: Iterable[tuple[Approvals, bool]], alpha: float = 1.0) -> VerifierWeights:
        counts: dict[
            str, list[float]
        ] = {}  # vid → [approve|correct, reject|correct, approve|wrong, reject|wrong]
        n_correct = n_wrong = 0
        for approvals, correct in samples:
            n_correct += correct
            n_wrong += not correct
            for vid, vote in approvals.items():
                if vote is None:
                    continue
                slot = (0 if vote else 1) + (0 if correct else 2)
                counts.setdefault(vid, [0.0, 0.0, 0.0, 0.0])[slot] += 1
        weights = cls(prior_log_odds=math.log((n_correct + alpha) / (n_wrong + alpha)))
        for vid, (ac, rc, aw, rw) in counts.items():
            weights.approve[vid] = math.log((ac + alpha) / (ac + rc + 2 * alpha)) - math.log(
                (aw + alpha) / (aw + rw + 2 * alpha)
            )
            weights.reject[vid] = math.log((rc + alpha) / (ac + rc + 2 * alpha)) - math.log(
                (rw + alpha) / (aw + rw + 2 * alpha)
            )
        return weights

    def probability(self, approvals: Approvals) -> float:
        """P(correct) from the votes (unknown verifiers and abstentions carry no weight)."""
        log_odds = self.prior_log_odds
        for vid, vote in approvals.items():
            if vote is True:
                log_odds += self.approve.get(vid, 0.0)
            elif vote is False:
                log_odds += self.reject.get(vid, 0.0)
        return _sigmoid(log_odds)

    def save(self, path: Path) -> None:
        path.write_text(
            json.dumps(
                {
                    "prior_log_odds": self.prior_log_odds,
                    "approve": self.approve,
                    "reject": self.reject,
                },
                indent=2,
            )
        )

    @classmethod
    def load(cls, path: Path) -> VerifierWeights:
        data = json.loads(path.read_text())
        return cls(data["prior_log_odds"], data["approve"], data["reject"])


def select_by_clusters(clusters: list[list[int]], scores: list[float]) -> int:
    """Pick the answer class with the largest total score, then its best member (ties go to
    the earliest): several moderately approved candidates agreeing beat one lucky outlier."""

    def class_key(group: list[int]) -> tuple[float, int]:
        return sum(scores[i] for i in group), -min(group)

    best_group = max(clusters, key=class_key)
    return max(best_group, key=lambda i: (scores[i], -i))
