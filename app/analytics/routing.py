"""Data-driven routing (design-notes §6): once a subject has enough judged attempts, SOLVE asks
the model provider whose attempts were approved most often first (app/analytics/queries.py
`best_providers`; the symbolic solver is no model and is never ranked); until then, the
static order stands."""

from __future__ import annotations

import logging

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.analytics.queries import best_providers
from app.db.transaction import reading
from app.llm.registry import ProviderRegistry

log = logging.getLogger(__name__)


async def best_provider_for(
    session: AsyncSession, subject: str, min_samples: int = 500
) -> str | None:
    return (await best_providers(session, min_samples)).get(subject)


async def refresh_routing(
    sessionmaker: async_sessionmaker[AsyncSession], registry: ProviderRegistry, min_samples: int
) -> dict[str, str]:
    async with reading(sessionmaker) as session:
        best = await best_providers(session, min_samples)
    registry.prefer({s: p for s, p in best.items() if p in registry})
    return registry.preferred
