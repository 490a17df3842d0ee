"""Which candidate to return when several providers answered (the best-supported one).

Consensus decides when it can (a proof, agreement, a weighted majority: app/verification/
consensus.py). When it cannot, the answer returned is still the best-supported candidate, not
the first one listed: the group carrying the most learned weight (the log-odds of each
provider's validated accuracy, app/verification/learned_weights.py), strictly ahead — a lone
answer of the fittest provider included. A tie names nobody: order never decides.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.verification.consensus import ConsensusResult, NodeAnswer


def best_supported(result: ConsensusResult, answers: Sequence[NodeAnswer]) -> int | None:
    """Index of the answer to return, or None when the evidence ties."""
    if result.supporters:
        return max(result.supporters, key=lambda i: (answers[i].weight, answers[i].confidence))
    groups = result.groups or [[i] for i in range(len(answers))]
    scored = sorted(
        ((sum(answers[i].weight for i in g if answers[i].proof != "refuted"), g) for g in groups),
        key=lambda wg: -wg[0],
    )
    if (
        not scored
        or scored[0][0] <= 0
        or (len(scored) > 1 and scored[0][0] <= scored[1][0] + 1e-12)
    ):
        return None
    group = scored[0][1]
    return max(group, key=lambda i: (answers[i].weight, answers[i].confidence))
