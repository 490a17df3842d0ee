"""Analyst queries over the views (migration 0004); the same data as /v1/analytics."""

from __future__ import annotations

from typing import Any, Literal

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

Breakdown = Literal["subject", "difficulty"]


def _rows(result: Any) -> list[dict[str, Any]]:
    return [dict(row._mapping) for row in result]


async def accuracy(session: AsyncSession, by: Breakdown = "subject") -> list[dict[str, Any]]:
    view = {
        "subject": "v_provider_accuracy_by_subject",
        "difficulty": "v_provider_accuracy_by_difficulty",
    }[by]
    result = await session.execute(
        text(f"SELECT * FROM {view} ORDER BY {by}, verified_rate DESC, n DESC")
    )
    return _rows(result)


async def daily_trend(session: AsyncSession, days: int = 30) -> list[dict[str, Any]]:
    result = await session.execute(
        text("SELECT * FROM v_daily_quality ORDER BY day DESC LIMIT :days"), {"days": days}
    )
    return list(reversed(_rows(result)))


async def suggestions(session: AsyncSession, limit: int = 20) -> list[dict[str, Any]]:
    result = await session.execute(
        text("SELECT * FROM v_improvement_suggestions ORDER BY n DESC, suggestion LIMIT :limit"),
        {"limit": limit},
    )
    return _rows(result)


async def best_providers(session: AsyncSession, min_samples: int) -> dict[str, str]:
    """Per subject, the provider with the best verified rate among those with enough data."""
    result = await session.execute(
        text(
            "SELECT subject, provider, SUM(n) AS n, "
            "SUM(verified_rate * n) / SUM(n) AS verified_rate "
            "FROM v_provider_accuracy_by_subject GROUP BY subject, provider "
            "HAVING SUM(n) >= :min_samples ORDER BY subject, verified_rate DESC, n DESC"
        ),
        {"min_samples": min_samples},
    )
    best: dict[str, str] = {}
    for row in result:
        best.setdefault(row.subject, row.provider)
    return best
