"""Engineered verifiers vs all verifiers on recorded MAV runs (the paper's engineered set
against its MAV-All; design-notes, MAV): the subset is chosen on a seeded third of the
problems and both are scored on the rest, so the comparison is not in-sample."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from app.verification.bon_mav import LabelledProblem, engineer_verifiers, selection_accuracy
from solveverify_bench.replay import ReplayProblem


def engineered_vs_all(problems: Sequence[ReplayProblem], seed: int) -> dict[str, Any]:
    order = list(range(len(problems)))
    random.Random(seed).shuffle(order)
    cut = max(1, len(problems) // 3)
    labelled = [LabelledProblem(p.correct, p.approvals) for p in problems]
    fit = [labelled[i] for i in order[:cut]]
    test = [labelled[i] for i in order[cut:]] or fit
    pool = sorted({k for p in problems for a in p.approvals for k in a})
    chosen, fit_accuracy = engineer_verifiers(fit, pool)
    return {
        "fit_problems": len(fit),
        "test_problems": len(test),
        "search": "exhaustive" if len(pool) <= 12 else "greedy",
        "engineered_verifiers": chosen,
        "engineered_fit_accuracy": round(100 * fit_accuracy, 2),
        "engineered": round(100 * selection_accuracy(test, chosen), 2),
        "all_verifiers": round(100 * selection_accuracy(test, pool), 2),
        "n_all": len(pool),
    }
