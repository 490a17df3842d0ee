"""Consensus weights learned online from agreed outcomes (design-notes, DELLM fitness).

Each agreed outcome tells whether a provider's answer was in the agreed group; its weight is
the log-odds of that agreement rate (Laplace-smoothed): for independent voters, the weighted
vote with log-odds weights is the most accurate one (Nitzan–Paroush), so one reliable
provider outvotes two weak ones that share a wrong answer. A provider at or below chance
gets no vote.
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

    def observe(self, provider: str, agreed: bool) -> None:
        self.seen[provider] = self.seen.get(provider, 0) + 1
        self.agreed[provider] = self.agreed.get(provider, 0) + int(agreed)

    def accuracy(self, provider: str) -> float:
        return (self.agreed.get(provider, 0) + 1) / (self.seen.get(provider, 0) + 2)

    def weight(self, provider: str) -> float:
        p = self.accuracy(provider)
        return max(0.0, math.log(p / (1 - p)))


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
