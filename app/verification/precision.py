"""The precision promise: which calibrated probability is high enough to say `verified`.

`verified` must mean right. The threshold is chosen on labelled outcomes (proofs, ground-truth
matches, consensus and spot checks) so that the precision of the answers at or above it is at
least `target` with confidence `1 - delta`: Learn-then-Test with fixed-sequence testing.
Thresholds are tested from the strictest down; each test asks whether the one-sided
Clopper–Pearson lower bound of the precision above it reaches the target; the first failure
stops the sequence (which is what keeps the family-wise error at `delta` without a multiple-
testing correction). The chosen threshold is the last one that passed. The tested
thresholds form a grid fixed by the scores alone (every k-th answer by score), so a first
test on a handful of answers cannot end the sequence by bad luck.

Outcomes of one problem are not independent (sixteen students asking one problem, a recorded
run's passes over it: a shared error is wrong sixteen times). Given each outcome's cluster,
the bound counts the selected outcomes at Kish's effective sample size, (Σ m)² / Σ m² for m
outcomes per cluster: as many trials as clusters when they are equal, and the bound no
longer grows with repeats of one problem.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np


def binomial_sf(k: int, n: int, p: float) -> float:
    """P(X ≥ k) for X ~ Binomial(n, p)."""
    if k <= 0:
        return 1.0
    if k > n or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    log_factorial = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, n + 1)))])
    i = np.arange(k, n + 1)
    log_pmf = (
        log_factorial[n]
        - log_factorial[i]
        - log_factorial[n - i]
        + i * math.log(p)
        + (n - i) * math.log1p(-p)
    )
    return float(min(1.0, np.exp(log_pmf).sum()))


def clopper_pearson_lower(successes: int, n: int, delta: float = 0.05) -> float:
    """One-sided (1 − delta) lower confidence bound of a binomial proportion: the p at which
    seeing `successes` or more has probability delta (0 without trials or successes)."""
    if n == 0 or successes == 0:
        return 0.0
    low, high = 0.0, 1.0
    for _ in range(60):  # bisection: P(X ≥ k | p) grows with p
        mid = (low + high) / 2
        if binomial_sf(successes, n, mid) < delta:
            low = mid
        else:
            high = mid
    return low


@dataclass(frozen=True, slots=True)
class PrecisionThreshold:
    threshold: float | None  # None: no threshold keeps the promise on this evidence
    target: float
    delta: float
    evidence: int  # labelled outcomes it was chosen on
    selected: int  # of them, at or above the threshold
    correct: int  # of those, right
    precision_lower_bound: float

    @property
    def coverage(self) -> float:
        return self.selected / self.evidence if self.evidence else 0.0


def effective_size(clusters: Sequence[Hashable]) -> float:
    """Kish's effective sample size of outcomes in these clusters: (Σ m)² / Σ m² for m
    outcomes a cluster (sixteen copies of one problem are about one trial)."""
    sizes = Counter(clusters)
    return len(clusters) ** 2 / sum(m * m for m in sizes.values())


def clustered_lower(selected: Sequence[tuple[bool, Hashable]], delta: float) -> float:
    """The Clopper–Pearson lower bound of the precision of `selected` (right?, cluster) at
    their effective sample size (Kish): the observed precision over (Σ m)² / Σ m² trials,
    successes rounded down and trials up (both make it stricter)."""
    n = len(selected)
    effective = effective_size([cluster for _, cluster in selected])
    right = sum(c for c, _ in selected)
    return clopper_pearson_lower(
        math.floor(right / n * effective + 1e-9), math.ceil(effective - 1e-9), delta
    )


def choose_threshold(
    probabilities: Sequence[float],
    correct: Sequence[bool],
    *,
    target: float = 0.95,
    delta: float = 0.05,
    grid_points: int = 20,
    clusters: Sequence[Hashable] | None = None,
) -> PrecisionThreshold:
    """The lowest threshold reached by fixed-sequence testing from the highest score down.

    Tested thresholds select k, 2k, 3k, … of the answers (k = n / grid_points, at least the
    fewest that could pass at all): a grid fixed by the scores alone, never the labels.
    `clusters`: each outcome's problem (None: every outcome its own).
    """
    keys: Sequence[Hashable] = list(range(len(correct))) if clusters is None else clusters
    triples = sorted(zip(probabilities, correct, keys, strict=True), key=lambda t: -t[0])
    pairs = [(p, c) for p, c, _ in triples]
    n = len(pairs)
    chosen = PrecisionThreshold(None, target, delta, n, 0, 0, 0.0)
    fewest = math.ceil(math.log(delta) / math.log(target)) if 0 < target < 1 else n
    step = max(fewest, math.ceil(n / grid_points), 1)
    hits = list(itertools.accumulate(int(c) for _, c in pairs))
    size = step
    while size <= n:
        # A threshold selects every tied score or none of them.
        while size < n and pairs[size][0] == pairs[size - 1][0]:
            size += 1
        if clusters is None:
            lower = clopper_pearson_lower(hits[size - 1], size, delta)
        else:
            lower = clustered_lower([(c, k) for _, c, k in triples[:size]], delta)
        if lower < target:
            break  # the first failure ends the sequence (that is what makes it valid)
        chosen = PrecisionThreshold(
            pairs[size - 1][0], target, delta, n, size, hits[size - 1], lower
        )
        size += step
    return chosen


def choose_evidence_against(
    probabilities: Sequence[float],
    correct: Sequence[bool],
    *,
    delta: float = 0.05,
    clusters: Sequence[Hashable] | None = None,
) -> float:
    """The P(correct) below which an answer is shown as caution: the calibrated levels below
    0.5, tested in fixed sequence from the lowest up, each kept while its outcomes are wrong
    more often than right with confidence 1 − delta. Returns the first level that fails (so
    nothing at or above it is evidence against), or 0.5 when every level below 0.5 passes.

    A level whose outcomes are right about half the time (P = 0.49 of a coin flip) is not
    enough evidence either way: shown as caution, its right answers would be called suspect
    for lack of evidence. `clusters`: each outcome's problem, as in `choose_threshold`.
    """
    keys: Sequence[Hashable] = list(range(len(correct))) if clusters is None else clusters
    levels: dict[float, list[tuple[bool, Hashable]]] = {}
    for p, c, k in zip(probabilities, correct, keys, strict=True):
        levels.setdefault(p, []).append((not c, k))  # a success here is a wrong answer
    for level in sorted(v for v in levels if v < 0.5):
        wrong = levels[level]
        if clusters is None:
            lower = clopper_pearson_lower(sum(w for w, _ in wrong), len(wrong), delta)
        else:
            lower = clustered_lower(wrong, delta)
        if lower <= 0.5:
            return level
    return 0.5
