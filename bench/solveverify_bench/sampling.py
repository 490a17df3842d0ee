"""Seeded, diverse sampling of N candidates (design-notes, the verifier benchmark harness).

Each candidate gets its own sampling seed, derived from the run's `--seed`, the example and
the candidate's index, and the run's temperature: the same seed reproduces the same
candidates (on providers that honour a seed), another seed draws others, and N candidates of
one example are N different samples rather than N copies of the greedy answer.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sample:
    seed: int
    temperature: float


def sampling_plan(run_seed: int, example_id: str, n: int, temperature: float) -> list[Sample]:
    def seed_of(index: int) -> int:
        digest = hashlib.sha256(f"{run_seed}:{example_id}:{index}".encode()).hexdigest()
        return int(digest[:8], 16) & 0x7FFFFFFF  # providers take a non-negative 31-bit seed

    return [Sample(seed_of(i), temperature) for i in range(n)]
