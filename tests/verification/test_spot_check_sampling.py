"""The spot-check sampler hits the design's rates over 10,000 draws."""

from __future__ import annotations

import random

import pytest

from app.verification.spot_check_sampling import draw_spot_check, spot_check_rate

DRAWS = 10_000


@pytest.mark.parametrize(
    ("kwargs", "rate"),
    [
        ({"subject": "math", "confidence": 1.0, "provider_results": 500, "uncertain": False}, 0.10),
        (
            {
                "subject": "medicine",
                "confidence": 1.0,
                "provider_results": 500,
                "uncertain": False,
                "high_stakes": {"medicine"},
            },
            1.0,
        ),
        ({"subject": "math", "confidence": 0.7, "provider_results": 500, "uncertain": False}, 0.50),
        ({"subject": "math", "confidence": 0.9, "provider_results": 10, "uncertain": False}, 0.20),
        ({"subject": "math", "confidence": 0.9, "provider_results": 500, "uncertain": True}, 1.0),
    ],
)
def test_sampling_rates(kwargs: dict, rate: float) -> None:
    rng = random.Random(42)
    hits = sum(draw_spot_check(rng, **kwargs)[0] for _ in range(DRAWS))
    # three standard deviations of a binomial proportion
    tolerance = 3 * (rate * (1 - rate) / DRAWS) ** 0.5 + 1e-9
    assert abs(hits / DRAWS - rate) <= tolerance, (hits / DRAWS, rate)


def test_the_highest_rate_and_its_reason_win() -> None:
    rate, reason = spot_check_rate(
        subject="math", confidence=0.5, provider_results=3, uncertain=False
    )
    assert rate == 0.5 and "confidence" in reason
