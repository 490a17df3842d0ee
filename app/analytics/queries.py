"""Analyst queries over the views (migrations 0004 and 0007); the same data as /v1/analytics.

Quality per provider × model comes from `v_model_quality_by_subject|difficulty` (0007): every
stored verdict, so every solving attempt counts, not only each scan's final answer.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Literal

from sqlalchemy import bindparam, text
from sqlalchemy.ext.asyncio import AsyncSession

Breakdown = Literal["subject", "difficulty"]
# Providers that are no model: routing ranks model providers only (the symbolic solver's
# rate says what sympy can read, not which model to ask).
NOT_MODELS: tuple[str, ...] = ("symbolic",)


def _rows(result: Any) -> list[dict[str, Any]]:
    return [dict(row._mapping) for row in result]


def _view(by: Breakdown) -> str:
    return {"subject": "v_model_quality_by_subject", "difficulty": "v_model_quality_by_difficulty"}[
        by
    ]


async def accuracy(
    session: AsyncSession, by: Breakdown = "subject", tenant: str | None = None
) -> list[dict[str, Any]]:
    """The view's rows (one per tenant × provider × model × subject or difficulty)."""
    where = "WHERE tenant = :tenant" if tenant is not None else ""
    result = await session.execute(
        text(
            f"SELECT * FROM {_view(by)} {where} "
            f"ORDER BY {by}, quick_approve_rate DESC, attempts DESC, provider, model"
        ),
        {"tenant": tenant} if tenant is not None else {},
    )
    return _rows(result)


async def accuracy_all_tenants(
    session: AsyncSession, by: Breakdown = "subject"
) -> list[dict[str, Any]]:
    """Per provider × model × subject (or difficulty) over every tenant: the dashboard's bars
    (`n` is the number of returned answers the verified rate is of)."""
    result = await session.execute(
        text(
            f"SELECT provider, model, {by}, SUM(attempts) AS attempts, SUM(returned) AS n, "
            "SUM(verified_rate * returned) / NULLIF(SUM(returned), 0) AS verified_rate "
            f"FROM {_view(by)} GROUP BY provider, model, {by} HAVING SUM(returned) > 0 "
            f"ORDER BY {by}, provider, model"
        )
    )
    return _rows(result)


async def daily_trend(
    session: AsyncSession, days: int = 30, tenant: str | None = None
) -> list[dict[str, Any]]:
    """v_daily_quality's rows (every tenant), or the same computed over one tenant's scans."""
    if tenant is None:
        query = "SELECT * FROM v_daily_quality ORDER BY day DESC LIMIT :days"
    else:
        postgres = _is_postgres(session)
        day = "CAST(date_trunc('day', s.created_at) AS DATE)" if postgres else "date(s.created_at)"
        overall = f"CAST({_json_text('s.deep_evaluation', 'overall', postgres)} AS FLOAT)"
        query = (
            f"SELECT {day} AS day, COUNT(*) AS n, "
            "AVG(CASE WHEN s.verification_status = 'verified' THEN 1.0 ELSE 0.0 END) "
            "AS verified_rate, "
            "AVG(CASE WHEN s.verification_status = 'caution' THEN 1.0 ELSE 0.0 END) "
            f"AS caution_rate, AVG({overall}) AS mean_deep_overall "
            "FROM solutions s JOIN scans sc ON sc.id = s.scan_id WHERE sc.tenant = :tenant "
            f"GROUP BY {day} ORDER BY day DESC LIMIT :days"
        )
    result = await session.execute(text(query), {"days": days, "tenant": tenant})
    return list(reversed(_rows(result)))


async def suggestions(
    session: AsyncSession, limit: int = 20, tenant: str | None = None
) -> list[dict[str, Any]]:
    """v_improvement_suggestions's rows (every tenant), or the same over one tenant's scans."""
    if tenant is None:
        query = "SELECT * FROM v_improvement_suggestions ORDER BY n DESC, suggestion LIMIT :limit"
    else:
        suggestion = _json_text(
            "s.deep_evaluation", "improvement_suggestions", _is_postgres(session)
        )
        query = (
            f"SELECT {suggestion} AS suggestion, COUNT(*) AS n "
            "FROM solutions s JOIN scans sc ON sc.id = s.scan_id "
            f"WHERE sc.tenant = :tenant AND s.deep_evaluation IS NOT NULL "
            f"AND {suggestion} IS NOT NULL AND {suggestion} <> '' "
            f"GROUP BY {suggestion} ORDER BY n DESC, suggestion LIMIT :limit"
        )
    result = await session.execute(text(query), {"limit": limit, "tenant": tenant})
    return _rows(result)


def _is_postgres(session: AsyncSession) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def _json_text(column: str, key: str, postgres: bool) -> str:
    # As the views' migration (0004) spells it, so a tenant's rows match the view's.
    return f"({column} ->> '{key}')" if postgres else f"json_extract({column}, '$.{key}')"


async def best_providers(
    session: AsyncSession, min_samples: int, exclude: Collection[str] = NOT_MODELS
) -> dict[str, str]:
    """Per subject, the model provider whose attempts response-time verification approved
    most often (every attempt, retries included; over tenants and models), among those with
    at least `min_samples` attempts; ties go to the one more often agreed with in tier 2."""
    statement = text(
        "SELECT subject, provider, SUM(attempts) AS n, "
        "CAST(SUM(quick_approvals) AS DOUBLE PRECISION) "
        "/ NULLIF(SUM(quick_approvals + quick_rejections), 0) AS approve_rate, "
        "SUM(consensus_agreement_rate * consensus_checked) "
        "/ NULLIF(SUM(consensus_checked), 0) AS agreement "
        "FROM v_model_quality_by_subject "
        "WHERE provider NOT IN :exclude "
        "GROUP BY subject, provider HAVING SUM(attempts) >= :min_samples"
    ).bindparams(bindparam("exclude", expanding=True))
    result = await session.execute(
        statement, {"min_samples": min_samples, "exclude": list(exclude) or [""]}
    )
    ranked = sorted(
        result,
        key=lambda r: (
            r.subject,
            -(r.approve_rate or 0.0),
            -(r.agreement or 0.0),
            -r.n,
            r.provider,
        ),
    )
    best: dict[str, str] = {}
    for row in ranked:
        best.setdefault(row.subject, row.provider)
    return best
