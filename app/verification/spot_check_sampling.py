"""Tier-3 spot-check sampling (design-notes, DELLM, "When to spot-check").

Random 10% of everything; 100% of high-stakes subjects; 50% when the confidence is below
0.75; 20% of a provider's first 100 results; every result flagged uncertain. The highest
applicable rate wins, and the reason is reported with the draw.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SpotCheckRates:
    base: float = 0.10
    low_confidence: float = 0.50
    low_confidence_below: float = 0.75
    new_provider: float = 0.20
    new_provider_results: int = 100


def spot_check_rate(
    *,
    subject: str,
    confidence: float,
    provider_results: int,
    uncertain: bool,
    high_stakes: Collection[str] = (),
    rates: SpotCheckRates = SpotCheckRates(),
) -> tuple[float, str]:
    if uncertain:
        return 1.0, "flagged uncertain"
    if subject in high_stakes:
        return 1.0, f"high-stakes subject {subject}"
    candidates = [(rates.base, "random sample")]
    if confidence < rates.low_confidence_below:
        candidates.append(
            (rates.low_confidence, f"confidence {confidence:.2f} < {rates.low_confidence_below}")
        )
    if provider_results < rates.new_provider_results:
        candidates.append(
            (
                rates.new_provider,
                f"one of the provider's first {rates.new_provider_results} results",
            )
        )
    return max(candidates)


def draw_spot_check(rng: random.Random, **kwargs: Any) -> tuple[bool, str]:
    rate, reason = spot_check_rate(**kwargs)
    return rng.random() < rate, reason
