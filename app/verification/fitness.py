"""Provider fitness deltas (design-notes, DELLM, calculate_fitness_delta), kept exactly."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Quality = Literal["excellent", "good", "minimal"]
Speed = Literal["fast", "average", "slow"]


@dataclass(frozen=True, slots=True)
class FitnessDelta:
    correctness_reward: float
    speed_bonus: float
    reasoning_bonus: float
    confidence_penalty: float

    @property
    def total(self) -> float:
        return round(
            self.correctness_reward
            + self.speed_bonus
            + self.reasoning_bonus
            + self.confidence_penalty,
            6,
        )


def latency_rating(seconds: float, fast_s: float = 2.0, slow_s: float = 10.0) -> Speed:
    return "fast" if seconds < fast_s else "average" if seconds < slow_s else "slow"


def fitness_delta(
    *,
    correct: bool,
    reasoning: Quality = "minimal",
    speed: Speed = "average",
    overconfident: bool = False,
) -> FitnessDelta:
    reward = {"excellent": 0.05, "good": 0.045, "minimal": 0.03}[reasoning] if correct else -0.03
    return FitnessDelta(
        correctness_reward=reward,
        speed_bonus={"fast": 0.01, "average": 0.0, "slow": -0.005}[speed],
        reasoning_bonus={"excellent": 0.01, "good": 0.005, "minimal": 0.0}[reasoning],
        confidence_penalty=-0.01 if overconfident else 0.0,
    )
