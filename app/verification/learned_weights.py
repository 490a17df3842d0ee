"""Consensus weights learned online from agreed outcomes (design-notes, DELLM fitness).

Each agreed outcome tells whether a provider's answer was in the agreed group; its weight is
the log-odds of that agreement rate (Laplace-smoothed): for independent voters, the weighted
vote with log-odds weights is the most accurate one (Nitzan–Paroush), so one reliable
provider outvotes two weak ones that share a wrong answer. A provider at or below chance
gets no vote.

The prior (pseudo-counts) decides what an unseen provider weighs: Laplace's (1 of 2, chance)
gives it no vote, as the offline replay wants; the live tier-2 check starts every provider
slightly above chance (`SOLVEVERIFY_VERIFY_CONSENSUS_PRIOR_AGREEMENT`), so that before any
outcome is known the weighted stages behave as an equal-weight majority.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from app.verification.consensus import normalize_answer


@dataclass(slots=True)
class OnlineWeights:
    agreed: dict[str, int] = field(default_factory=dict)
    seen: dict[str, int] = field(default_factory=dict)
    prior_agreed: float = 1.0  # pseudo-counts: Laplace smoothing by default
    prior_seen: float = 2.0

    @classmethod
    def from_counts(
        cls, counts: Mapping[str, tuple[int, int]], prior_agreement: float = 0.5
    ) -> OnlineWeights:
        """Weights from stored (agreed, seen) counts per provider, with a prior agreement
        rate worth two observations."""
        return cls(
            agreed={p: agreed for p, (agreed, _) in counts.items()},
            seen={p: seen for p, (_, seen) in counts.items()},
            prior_agreed=2.0 * prior_agreement,
            prior_seen=2.0,
        )

    def observe(self, provider: str, agreed: bool) -> None:
        self.seen[provider] = self.seen.get(provider, 0) + 1
        self.agreed[provider] = self.agreed.get(provider, 0) + int(agreed)

    def accuracy(self, provider: str) -> float:
        agreed = self.agreed.get(provider, 0) + self.prior_agreed
        return agreed / (self.seen.get(provider, 0) + self.prior_seen)

    def weight(self, provider: str) -> float:
        p = min(self.accuracy(provider), 1 - 1e-9)  # a zero prior must not divide by zero
        return max(0.0, math.log(p / (1 - p))) if p > 0 else 0.0


def _groups(answers: Mapping[str, str]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for provider, answer in answers.items():
        groups.setdefault(normalize_answer(answer), []).append(provider)
    return groups


def _strictly_ahead(scored: list[tuple[float, str]]) -> str | None:
    """The top key when strictly ahead of the second: a tie decides nothing."""
    scored.sort(reverse=True)
    if not scored or (len(scored) > 1 and scored[0][0] <= scored[1][0] + 1e-12):
        return None
    return scored[0][1]


def majority_vote(answers: Mapping[str, str]) -> str | None:
    """Plain majority: the answer most providers gave, strictly ahead; else None."""
    return _strictly_ahead([(len(ps), key) for key, ps in _groups(answers).items()])


def weighted_vote(answers: Mapping[str, str], weights: OnlineWeights) -> str | None:
    """The answer with the most learned weight, strictly ahead; else None."""
    scored = [(sum(weights.weight(p) for p in ps), k) for k, ps in _groups(answers).items()]
    return _strictly_ahead(scored)
