"""Analytics JSON for analysts (the dashboard page is app/analytics/dashboard_endpoints.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query

from app.analytics import queries
from app.analytics.schemas import AccuracyRow, RoutingOut, SuggestionRow, TrendRow
from app.api.deps import ServicesDep, SessionDep
from app.api.openapi_docs import errors
from app.auth.caller import Analyst, analytics_tenant, get_analyst

# Analyst keys see their own tenant's analytics; platform keys (the operator's) every tenant's.
router = APIRouter(
    tags=["analytics"], dependencies=[Depends(get_analyst)], responses=errors(401, 403, 429)
)


# An analyst key asking for another tenant is a 403, never silently its own tenant's figures.
TenantQuery = Annotated[
    str | None,
    Query(
        max_length=64,
        description="Only this tenant's rows; all tenants when absent (a platform key), "
        "the key's own tenant for an analyst key (another tenant: 403).",
        examples=["acme"],
    ),
]


@router.get("/v1/analytics/accuracy", operation_id="getAccuracy")
async def accuracy(
    session: SessionDep,
    analyst: Analyst,
    by: Annotated[
        Literal["subject", "difficulty"],
        Query(description="Group by subject or by difficulty.", examples=["subject"]),
    ] = "subject",
    tenant: TenantQuery = None,
) -> list[AccuracyRow]:
    """Attempts, verdicts and rates per tenant × provider × model × subject (or difficulty),
    from every stored verdict (views v_model_quality_by_subject / _by_difficulty)."""
    rows = await queries.accuracy(session, by, analytics_tenant(analyst, tenant))
    return [AccuracyRow.model_validate(r) for r in rows]


@router.get("/v1/analytics/trend", operation_id="getTrend")
async def trend(
    session: SessionDep,
    analyst: Analyst,
    days: Annotated[
        int, Query(ge=1, le=365, description="How many days back, today included.", examples=[30])
    ] = 30,
    tenant: TenantQuery = None,
) -> list[TrendRow]:
    """Daily verified and caution rates."""
    rows = await queries.daily_trend(session, days, analytics_tenant(analyst, tenant))
    return [TrendRow.model_validate(r) for r in rows]


@router.get("/v1/analytics/suggestions", operation_id="getSuggestions")
async def suggestions(
    session: SessionDep,
    analyst: Analyst,
    limit: Annotated[
        int,
        Query(
            ge=1, le=200, description="How many suggestions, most frequent first.", examples=[20]
        ),
    ] = 20,
    tenant: TenantQuery = None,
) -> list[SuggestionRow]:
    """The most frequent improvement suggestions."""
    rows = await queries.suggestions(session, limit, analytics_tenant(analyst, tenant))
    return [SuggestionRow.model_validate(r) for r in rows]


@router.get("/v1/analytics/routing", operation_id="getRouting")
async def routing(services: ServicesDep) -> RoutingOut:
    """Which provider routing prefers per subject."""
    return RoutingOut(
        preferred=services.registry.preferred,
        static_order=services.registry.order,
        min_samples=services.settings.verify.routing_min_samples,
    )
