"""The precision promise on synthetic data whose true precision is known."""

from __future__ import annotations

import random

import pytest

from app.verification.calibration import Calibrator
from app.verification.precision import (
    binomial_sf,
    choose_evidence_against,
    choose_threshold,
    clopper_pearson_lower,
)


def test_clopper_pearson_matches_closed_forms() -> None:
    # All successes: the bound is delta^(1/n); none: 0.
    assert clopper_pearson_lower(20, 20, 0.05) == pytest.approx(0.05 ** (1 / 20), abs=1e-9)
    assert clopper_pearson_lower(0, 20) == 0.0
    # At the bound, seeing 8 or more of 10 has probability delta.
    lower = clopper_pearson_lower(8, 10, 0.05)
    assert binomial_sf(8, 10, lower) == pytest.approx(0.05, abs=1e-6)
    assert 0.49 < lower < 0.50  # scipy.stats.beta.ppf(0.05, 8, 3) = 0.4931


def draw(rng: random.Random, n: int) -> tuple[list[float], list[bool]]:
    """Score s ~ U(0, 1) and P(correct | s) = s: the precision of {s ≥ t} is (1 + t) / 2."""
    scores = [rng.random() for _ in range(n)]
    return scores, [rng.random() < s for s in scores]


def true_precision(threshold: float) -> float:
    return (1 + threshold) / 2


def test_the_promise_holds_on_fresh_draws_in_95_percent_of_repetitions() -> None:
    target, kept, repetitions = 0.9, 0, 100
    thresholds = []
    for seed in range(repetitions):
        scores, labels = draw(random.Random(seed), 3000)
        chosen = choose_threshold(scores, labels, target=target, delta=0.05)
        if chosen.threshold is None:  # nothing verified: the promise holds vacuously
            kept += 1
            continue
        thresholds.append(chosen.threshold)
        kept += true_precision(chosen.threshold) >= target
    assert kept / repetitions >= 0.95
    # ... and it is not bought by refusing everything: the ideal threshold is 0.8.
    assert len(thresholds) >= 0.9 * repetitions
    assert sum(thresholds) / len(thresholds) < 0.9


def test_no_threshold_when_the_evidence_cannot_keep_the_promise() -> None:
    scores, labels = draw(random.Random(1), 40)  # too few to show 0.95 at 95% confidence
    assert choose_threshold(scores, labels, target=0.95).threshold is None
    never = choose_threshold([0.9] * 100, [False] * 100, target=0.5)
    assert never.threshold is None and never.selected == 0


def test_the_calibrator_carries_its_promise(tmp_path) -> None:
    rng = random.Random(3)
    rows = [{"quick_confidence": rng.random()} for _ in range(400)]
    labels = [rng.random() < r["quick_confidence"] for r in rows]
    model = Calibrator.fit_logistic(rows, labels).with_promise(rows, labels, target=0.9)
    assert model.target_precision == 0.9 and model.evidence == 400
    assert model.threshold is not None and model.precision_lower_bound >= 0.9
    model.save(tmp_path / "c.json")
    assert Calibrator.load(tmp_path / "c.json") == model


def test_repeats_of_one_problem_count_once() -> None:
    """Sixteen right outcomes of one problem are one trial, not sixteen: a shared error would
    be wrong sixteen times just as they are right sixteen times."""
    from app.verification.precision import clustered_lower

    assert clustered_lower([(True, "p")] * 16, 0.05) == clopper_pearson_lower(1, 1, 0.05)
    independent = [(True, i) for i in range(16)]
    assert clustered_lower(independent, 0.05) == clopper_pearson_lower(16, 16, 0.05)
    # 4 problems × 16 outcomes, one problem wrong throughout: 3 of 4 trials right
    four = [(p != 3, p) for p in range(4) for _ in range(16)]
    assert clustered_lower(four, 0.05) == clopper_pearson_lower(3, 4, 0.05)


def test_a_clustered_promise_is_stricter_on_repeated_problems() -> None:
    """75 problems seen 16 times each, all right at the top: 1 200 independent outcomes would
    certify 95 %; 75 problems cannot (0.05^(1/75) = 0.961 > 0.95 at best, and the grid's
    lower thresholds take in wrong problems)."""
    rng = random.Random(3)
    scores, correct, problems = [], [], []
    for p in range(150):
        right = p < 110
        for _ in range(16):
            scores.append((0.6 if right else 0.4) + rng.random() * 0.4)
            correct.append(right)
            problems.append(p)
    flat = choose_threshold(scores, correct, target=0.95)
    clustered = choose_threshold(scores, correct, target=0.95, clusters=problems)
    assert flat.threshold is not None
    assert clustered.threshold is None or clustered.threshold > flat.threshold
    assert clustered.precision_lower_bound <= flat.precision_lower_bound


def level(p: float, right: int, n: int) -> tuple[list[float], list[bool]]:
    return [p] * n, [i < right for i in range(n)]


def levels(*spec: tuple[float, int, int]) -> tuple[list[float], list[bool]]:
    ps: list[float] = []
    cs: list[bool] = []
    for p, right, n in spec:
        more_p, more_c = level(p, right, n)
        ps += more_p
        cs += more_c
    return ps, cs


def test_caution_stops_at_the_first_level_not_credibly_wrong() -> None:
    # 10 % and 30 % right: credibly wrong; 49 % right is a coin flip, not evidence against.
    ps, cs = levels((0.1, 20, 200), (0.3, 30, 100), (0.49, 49, 100), (0.8, 80, 100))
    assert choose_evidence_against(ps, cs) == 0.49
    # Every level below 0.5 credibly wrong: the usual 0.5.
    ps, cs = levels((0.1, 20, 200), (0.3, 30, 100), (0.8, 80, 100))
    assert choose_evidence_against(ps, cs) == 0.5
    # Fixed sequence: a thin first level ends it, even with a clear level above it.
    ps, cs = levels((0.0, 0, 3), (0.2, 20, 100), (0.8, 80, 100))
    assert choose_evidence_against(ps, cs) == 0.0


def test_caution_counts_one_problems_outcomes_as_one_problem() -> None:
    # 60 wrong outcomes at P = 0.2, but of two problems: no evidence that such answers are
    # wrong more often than right.
    ps, cs = levels((0.2, 0, 60), (0.8, 80, 100))
    problems = ["a"] * 30 + ["b"] * 30 + [f"p{i}" for i in range(100)]
    assert choose_evidence_against(ps, cs) == 0.5
    assert choose_evidence_against(ps, cs, clusters=problems) == 0.2
