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
    """The daily trend (v_daily_quality's definitions, from v_answers so tenants sum right),
    over every tenant (None) or one, oldest day first. Every rate is over the day's answered
    scans (`n`), as on the rest of the dashboard."""
    query = (
        "SELECT day, COUNT(*) AS scans, CAST(SUM(answered) AS BIGINT) AS n, "
        "CAST(SUM(verified) AS BIGINT) AS verified, "
        f"{_rate('SUM(verified)', 'SUM(answered)')} AS verified_rate, "
        f"{_rate('SUM(caution_now)', 'SUM(answered)')} AS caution_rate, "
        "CAST(SUM(later_found_wrong) AS BIGINT) AS later_found_wrong, "
        "CAST(AVG(deep_overall) AS DOUBLE PRECISION) AS mean_deep_overall "
        f"FROM v_answers {_tenant_filter(tenant)} GROUP BY day ORDER BY day DESC LIMIT :days"
    )
    result = await session.execute(text(query), {"days": days, "tenant": tenant})
    return list(reversed(_rows(result)))


async def suggestions(
    session: AsyncSession, limit: int = 20, tenant: str | None = None
) -> list[dict[str, Any]]:
    """v_improvement_suggestions summed over tenants (None) or one tenant's, most frequent
    first."""
    where = "WHERE tenant = :tenant" if tenant is not None else ""
    query = (
        "SELECT suggestion, CAST(SUM(n) AS BIGINT) AS n FROM v_improvement_suggestions "
        f"{where} GROUP BY suggestion ORDER BY n DESC, suggestion LIMIT :limit"
    )
    result = await session.execute(text(query), {"limit": limit, "tenant": tenant})
    return _rows(result)


def _rate(numerator: str, denominator: str) -> str:
    return f"CAST({numerator} AS DOUBLE PRECISION) / NULLIF({denominator}, 0)"


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


def _tenant_filter(tenant: str | None, prefix: str = "WHERE") -> str:
    return f"{prefix} tenant = :tenant" if tenant is not None else ""


async def promise(session: AsyncSession, tenant: str | None = None) -> dict[str, int]:
    """The promise in counts (v_quality summed): scans, answered, verified at response, later
    found wrong, judged and judged right."""
    result = await session.execute(
        text(
            "SELECT CAST(COALESCE(SUM(scans), 0) AS BIGINT) AS scans, "
            "CAST(COALESCE(SUM(answered), 0) AS BIGINT) AS answered, "
            "CAST(COALESCE(SUM(verified), 0) AS BIGINT) AS verified, "
            "CAST(COALESCE(SUM(later_found_wrong), 0) AS BIGINT) AS later_found_wrong, "
            "CAST(COALESCE(SUM(judged), 0) AS BIGINT) AS judged, "
            "CAST(COALESCE(SUM(judged_right), 0) AS BIGINT) AS judged_right "
            f"FROM v_quality {_tenant_filter(tenant)}"
        ),
        {"tenant": tenant},
    )
    return {k: int(v) for k, v in result.one()._mapping.items()}


async def calibration_bins(
    session: AsyncSession, tenant: str | None = None
) -> list[dict[str, Any]]:
    """v_calibration_bins summed over tenants (None) or one tenant's, by bin."""
    result = await session.execute(
        text(
            "SELECT bin, CAST(SUM(judged) AS BIGINT) AS judged, "
            "CAST(SUM(judged_right) AS BIGINT) AS judged_right, "
            f"{_rate('SUM(mean_confidence * judged)', 'SUM(judged)')} AS mean_confidence, "
            f"{_rate('SUM(judged_right)', 'SUM(judged)')} AS observed_accuracy "
            f"FROM v_calibration_bins {_tenant_filter(tenant)} GROUP BY bin ORDER BY bin"
        ),
        {"tenant": tenant},
    )
    return _rows(result)


async def quality_table(session: AsyncSession, tenant: str | None = None) -> list[dict[str, Any]]:
    """Provider × subject × difficulty (v_quality summed over the other dimensions)."""
    result = await session.execute(
        text(
            "SELECT provider, subject, difficulty, CAST(SUM(answered) AS BIGINT) AS answered, "
            "CAST(SUM(verified) AS BIGINT) AS verified, "
            "CAST(SUM(later_found_wrong) AS BIGINT) AS later_found_wrong, "
            "CAST(SUM(judged) AS BIGINT) AS judged, "
            "CAST(SUM(judged_right) AS BIGINT) AS judged_right "
            f"FROM v_quality WHERE provider IS NOT NULL {_tenant_filter(tenant, 'AND')} "
            "GROUP BY provider, subject, difficulty ORDER BY provider, subject, difficulty"
        ),
        {"tenant": tenant},
    )
    return _rows(result)


async def cost_per_verified(
    session: AsyncSession, tenant: str | None = None
) -> list[dict[str, Any]]:
    """Per provider: verified answers, model calls and tokens, and each per verified answer."""
    result = await session.execute(
        text(
            "SELECT provider, CAST(SUM(verified) AS BIGINT) AS verified, "
            "CAST(SUM(total_model_calls) AS BIGINT) AS total_model_calls, "
            "CAST(SUM(tokens) AS BIGINT) AS tokens, "
            f"{_rate('SUM(total_model_calls)', 'SUM(verified)')} AS model_calls_per_verified, "
            f"{_rate('SUM(tokens)', 'SUM(verified)')} AS tokens_per_verified "
            f"FROM v_cost_per_verified WHERE provider IS NOT NULL "
            f"{_tenant_filter(tenant, 'AND')} GROUP BY provider ORDER BY provider"
        ),
        {"tenant": tenant},
    )
    return _rows(result)
