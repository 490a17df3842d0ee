"""Fitness moves in the database: the design's worked examples through the real upsert
(design-notes, DELLM fitness), clamped to [0, 1], on SQLite and Postgres."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ProviderFitness
from app.db.repositories.fitness import FitnessRepository
from app.verification.fitness import fitness_delta


@pytest.mark.parametrize(
    ("old", "kwargs", "new"),
    [  # the design's worked examples, by its calculate_fitness_delta (the second example in the
        # seed's prose adds +0.05 for "good" reasoning where its own function gives +0.045)
        (0.87, {"correct": True, "reasoning": "excellent", "speed": "fast"}, 0.94),
        (0.82, {"correct": True, "reasoning": "good", "speed": "average"}, 0.87),
        (0.80, {"correct": True, "reasoning": "minimal", "speed": "slow"}, 0.825),
        (0.02, {"correct": False, "speed": "slow", "overconfident": True}, 0.0),  # clamped
        (0.99, {"correct": True, "reasoning": "excellent", "speed": "fast"}, 1.0),
    ],
)
async def test_fitness_deltas(session: AsyncSession, old: float, kwargs: dict, new: float) -> None:
    session.add(ProviderFitness(provider="p", model="m", subject="math", fitness=old))
    await session.flush()
    correct = kwargs["correct"]
    delta = fitness_delta(**kwargs).total
    await FitnessRepository(session).apply(
        provider="p", model="m", subject="math", delta=delta, correct=correct
    )
    row = await session.scalar(select(ProviderFitness).where(ProviderFitness.provider == "p"))
    assert row is not None
    await session.refresh(row)
    assert row.fitness == pytest.approx(new)
