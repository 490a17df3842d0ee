"""BoN-MAV (mav-paper §2.3), self-consistency, and verifier engineering (§2.4).

BoN-MAV scores each of N candidates by approvals ÷ verifiers and picks the best, ties to the
earliest. Self-consistency (the baseline) picks the most common final answer. Verifier
engineering picks, per subject, the subset of verifiers whose BoN-MAV selection is most often
correct on labelled outcomes.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.verification.answers import normalize_math_answer
from app.verification.aspects import AspectVerifier
from app.verification.panel import PanelResult, run_panel

Approvals = Mapping[str, bool | None]  # verifier id → approval (None: abstained)


def mav_score(approvals: Approvals, verifiers: Sequence[str] | None = None) -> float:
    keys = list(verifiers) if verifiers is not None else list(approvals)
    if not keys:
        return 0.0
    return sum(approvals.get(k) is True for k in keys) / len(keys)


def select_best(scores: Sequence[float]) -> int:
    """Index of the highest score; ties go to the earliest candidate."""
    if not scores:
        raise ValueError("no candidates")
    return max(range(len(scores)), key=lambda i: (scores[i], -i))


def bon_mav_select(
    approvals: Sequence[Approvals], verifiers: Sequence[str] | None = None
) -> tuple[int, list[float]]:
    scores = [mav_score(a, verifiers) for a in approvals]
    return select_best(scores), scores


def self_consistency(answers: Sequence[str | None], *, normalize: bool = False) -> int | None:
    """The first candidate holding the most common answer (exact strings, as in the paper)."""
    keys = [normalize_math_answer(a) if normalize else a for a in answers]
    counts = Counter(k for k in keys if k)
    if not counts:
        return None
    top = max(counts.values())
    return next(i for i, k in enumerate(keys) if k and counts[k] == top)


@dataclass(slots=True)
class BonMavResult:
    index: int
    scores: list[float]
    panels: list[PanelResult]


async def bon_mav(
    question: str,
    solutions: Sequence[str],
    verifiers: Sequence[AspectVerifier],
    *,
    timeout: float = 60.0,
) -> BonMavResult:
    """Every verifier on every candidate, concurrently (no early stop: ranks need full scores)."""

    async def panel(solution: str) -> PanelResult:
        checks = [lambda v=v: v.verify(question, solution, timeout=timeout) for v in verifiers]
        return await run_panel(checks, early_stop=False)

    panels = list(await asyncio.gather(*(panel(s) for s in solutions)))
    scores = [p.score for p in panels]
    return BonMavResult(select_best(scores), scores, panels)


@dataclass(frozen=True, slots=True)
class LabelledProblem:
    """One problem's candidates: which are correct, and what each verifier said of each."""

    correct: Sequence[bool]
    approvals: Sequence[Approvals]


def selection_accuracy(problems: Sequence[LabelledProblem], verifiers: Sequence[str]) -> float:
    if not problems:
        return 0.0
    hits = sum(p.correct[bon_mav_select(p.approvals, verifiers)[0]] for p in problems)
    return hits / len(problems)


def engineer_verifiers(
    problems: Sequence[LabelledProblem], pool: Sequence[str], *, exhaustive_limit: int = 12
) -> tuple[list[str], float]:
    """The subset of `pool` with the best selection accuracy (ties: fewer verifiers, then
    pool order). Exhaustive for small pools, greedy forward selection beyond."""
    best: tuple[float, int, list[str]] = (-1.0, 0, [])

    def consider(subset: list[str]) -> None:
        nonlocal best
        key = (selection_accuracy(problems, subset), -len(subset), subset)
        if key[:2] > best[:2]:
            best = key  # type: ignore[assignment]

    if len(pool) <= exhaustive_limit:
        for size in range(1, len(pool) + 1):
            for subset in itertools.combinations(pool, size):
                consider(list(subset))
    else:
        chosen: list[str] = []
        while len(chosen) < len(pool):
            before = best[0]
            for candidate in (v for v in pool if v not in chosen):
                consider([*chosen, candidate])
            if best[0] <= before and chosen:
                break
            chosen = list(best[2])
    return best[2], best[0]
