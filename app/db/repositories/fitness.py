"""Provider fitness: moved atomically by validated outcomes; its agreement counts
(`n_correct` of `n_validated`) are what the tier-2 consensus weights are learned from."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ProviderFitness

DEFAULT_FITNESS = 0.5


class FitnessRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def weights(self, subject: str, providers: Iterable[str]) -> dict[str, float]:
        """Mean fitness per provider for a subject (over its models); 0.5 when unseen."""
        names = list(providers)
        rows = await self.session.execute(
            select(ProviderFitness.provider, func.avg(ProviderFitness.fitness))
            .where(ProviderFitness.subject == subject, ProviderFitness.provider.in_(names))
            .group_by(ProviderFitness.provider)
        )
        found = {provider: float(value) for provider, value in rows}
        return {name: found.get(name, DEFAULT_FITNESS) for name in names}

    async def agreement_counts(
        self, subject: str, providers: Iterable[str]
    ) -> dict[str, tuple[int, int]]:
        """(n_correct, n_validated) per provider for a subject, summed over its models;
        providers never validated are left out (the prior speaks for them)."""
        rows = await self.session.execute(
            select(
                ProviderFitness.provider,
                func.sum(ProviderFitness.n_correct),
                func.sum(ProviderFitness.n_validated),
            )
            .where(
                ProviderFitness.subject == subject, ProviderFitness.provider.in_(list(providers))
            )
            .group_by(ProviderFitness.provider)
        )
        return {provider: (int(correct), int(seen)) for provider, correct, seen in rows}

    async def apply(
        self,
        *,
        provider: str,
        model: str,
        subject: str,
        delta: float,
        correct: bool,
        counted: bool = True,
    ) -> None:
        """One upsert: concurrent jobs cannot lose each other's updates. `counted`: the
        outcome is credible (a proof, an agreement, a credible spot-check panel) and joins the
        agreement counts the consensus weights learn from; one arbiter's opinion moves the
        fitness score only."""
        seen, right = (1, int(correct)) if counted else (0, 0)
        postgres = self.session.get_bind().dialect.name == "postgresql"
        insert = (postgresql if postgres else sqlite).insert(ProviderFitness)
        clamp_low, clamp_high = (func.greatest, func.least) if postgres else (func.max, func.min)
        start = min(1.0, max(0.0, DEFAULT_FITNESS + delta))
        statement = insert.values(
            provider=provider,
            model=model,
            subject=subject,
            fitness=start,
            n_validated=seen,
            n_correct=right,
        ).on_conflict_do_update(
            index_elements=["provider", "model", "subject"],
            set_={
                "fitness": clamp_high(1.0, clamp_low(0.0, ProviderFitness.fitness + delta)),
                "n_validated": ProviderFitness.n_validated + seen,
                "n_correct": ProviderFitness.n_correct + right,
                "updated_at": func.now(),
            },
        )
        await self.session.execute(statement)
