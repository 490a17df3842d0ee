"""Tier-2 consensus weighted by what each provider's agreement on credible outcomes taught
(`provider_fitness` counts → log-odds weights), on SQLite and Postgres."""

from __future__ import annotations

import uuid

from sqlalchemy import select

from app.db.models import ProviderFitness
from app.db.repositories.fitness import FitnessRepository
from app.resources import Resources
from app.worker.tasks import TASKS
from tests.fixtures.providers import solver
from tests.solutions.test_consensus_checks import stored, tier_rows


def names() -> dict[str, str]:
    """Fresh provider names: the database is shared by the tests of one run."""
    tag = uuid.uuid4().hex[:6]
    return {k: f"{k}_{tag}" for k in ("strong1", "strong2", "weak1", "weak2")}


async def learned(services: Resources, counts: dict[str, tuple[int, int]]) -> None:
    """Stored agreement counts, as earlier credible outcomes would have left them."""
    async with services.sessionmaker() as session:
        session.add_all(
            ProviderFitness(
                provider=p, model="m", subject="math", n_correct=c, n_validated=n, fitness=0.5
            )
            for p, (c, n) in counts.items()
        )
        await session.commit()


async def four_way(services: Resources, p: dict[str, str]) -> tuple[str, dict]:
    """Two reliable providers say 86 (in different words), two weak ones share 91: no exact
    majority, two equal semantic groups: only weights can decide."""
    return await stored(
        services,
        solver(p["strong1"], "86"),
        solver(p["strong2"], "86 muffins"),
        solver(p["weak1"], "91"),
        solver(p["weak2"], "91 muffins"),
    )


async def test_learned_weights_decide_an_even_split(services: Resources) -> None:
    p = names()
    await learned(
        services,
        {p["strong1"]: (45, 50), p["strong2"]: (44, 50), p["weak1"]: (9, 40), p["weak2"]: (8, 40)},
    )
    solution_id, ctx = await four_way(services, p)
    outcome = await TASKS["consensus_check"](ctx, solution_id)
    assert outcome.startswith("approve (semantic_aggregation)")
    (row,) = await tier_rows(services, solution_id, "consensus")
    assert row.verdict == "approve"
    async with services.sessionmaker() as session:
        counts = await FitnessRepository(session).agreement_counts("math", p.values())
    # Nothing outside the vote confirmed 86 (no proof, no independent verifier): the weights
    # decided the answer, but the outcome teaches them nothing (no reward before validation;
    # tests/solutions/test_consensus_checks.py has the validated case).
    assert counts[p["strong1"]] == (45, 50) and counts[p["weak1"]] == (9, 40)


async def test_without_learned_weights_an_even_split_is_no_decision(services: Resources) -> None:
    p = names()  # nothing learned yet: every provider at the prior, equal weights
    solution_id, ctx = await four_way(services, p)
    outcome = await TASKS["consensus_check"](ctx, solution_id)
    assert outcome.startswith("abstain (no_consensus)")


async def test_a_lone_heavy_answer_never_wins_on_weight(services: Resources) -> None:
    p = names()
    # one very reliable provider against two at chance (weight 0): its answer stands alone
    await learned(services, {p["strong1"]: (99, 100), p["weak1"]: (20, 40), p["weak2"]: (20, 40)})
    solution_id, ctx = await stored(
        services,
        solver(p["strong1"], "86"),
        solver(p["weak1"], "91"),
        solver(p["weak2"], "92"),
    )
    outcome = await TASKS["consensus_check"](ctx, solution_id)
    assert outcome.startswith("abstain (no_consensus)")


async def test_an_uncounted_outcome_moves_fitness_but_not_the_counts(
    services: Resources,
) -> None:
    provider = f"arbitrated_{uuid.uuid4().hex[:6]}"
    async with services.sessionmaker() as session:
        repo = FitnessRepository(session)
        await repo.apply(
            provider=provider, model="m", subject="math", delta=0.1, correct=True, counted=False
        )
        await repo.apply(provider=provider, model="m", subject="math", delta=0.1, correct=True)
        await session.commit()
        stored_row = await session.scalar(
            select(ProviderFitness).where(ProviderFitness.provider == provider)
        )
    assert stored_row is not None
    assert (stored_row.n_correct, stored_row.n_validated) == (1, 1)
    assert abs(stored_row.fitness - 0.7) < 1e-9
