"""BoN-MAV, self-consistency, and verifier engineering (design-notes, MAV).

BoN-MAV scores each of N candidates by approvals ÷ verifiers and picks the best, ties to the
earliest. Self-consistency (the baseline) picks the most common final answer. Verifier
engineering picks, per subject, the subset of verifiers whose BoN-MAV selection is most often
correct on labelled outcomes.
"""

from __future__ import annotations

import asyncio
import itertools
import random
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
    # The paper's ranking score, approvals ÷ verifiers (a rank, never a badge: panels that
    # decide a badge score over decisive verdicts, app/verification/panel.py).
    scores = [p.approvals / p.total if p.total else 0.0 for p in panels]
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
            best = key

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


# ------------------------------------------------------------ engineering from service outcomes


@dataclass(frozen=True, slots=True)
class VerifierOutcome:
    """One stored answer whose correctness is known, with each verifier's approval of it."""

    subject: str
    correct: bool
    approvals: Approvals


@dataclass(frozen=True, slots=True)
class EngineeredSet:
    verifiers: list[str]
    selection_accuracy: float
    all_accuracy: float  # the whole pool (MAV-All), for comparison
    problems: int


def pairwise_problems(
    outcomes: Sequence[VerifierOutcome], *, max_pairs: int = 2000
) -> list[LabelledProblem]:
    """Selection problems from single answers: every (wrong, right) pair of one subject is a
    two-candidate problem, the wrong answer first, so a subset that cannot tell them apart
    (a tie) selects the wrong one and earns nothing. Beyond `max_pairs`, a fixed-seed sample
    keeps the exhaustive search cheap and the choice reproducible."""
    right = [o for o in outcomes if o.correct]
    wrong = [o for o in outcomes if not o.correct]
    pairs = list(itertools.product(wrong, right))
    if len(pairs) > max_pairs:
        pairs = random.Random(0).sample(pairs, max_pairs)
    return [LabelledProblem([False, True], [w.approvals, r.approvals]) for w, r in pairs]


def engineer_per_subject(
    outcomes: Sequence[VerifierOutcome], *, min_outcomes: int = 20, exhaustive_limit: int = 12
) -> dict[str, EngineeredSet]:
    """Per subject with enough labelled answers of both kinds: the verifier subset with the
    best selection accuracy (design-notes, MAV: verifier engineering)."""
    sets: dict[str, EngineeredSet] = {}
    for subject in sorted({o.subject for o in outcomes}):
        mine = [o for o in outcomes if o.subject == subject]
        if len(mine) < min_outcomes or len({o.correct for o in mine}) < 2:
            continue
        pool = sorted({k for o in mine for k in o.approvals})
        problems = pairwise_problems(mine)
        chosen, accuracy = engineer_verifiers(problems, pool, exhaustive_limit=exhaustive_limit)
        sets[subject] = EngineeredSet(
            chosen, accuracy, selection_accuracy(problems, pool), len(problems)
        )
    return sets
