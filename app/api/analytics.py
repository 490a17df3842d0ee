"""Analytics JSON for analysts (the dashboard page is app/api/dashboard_auth.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query

from app.analytics import queries
from app.api.auth import get_analyst
from app.api.deps import ServicesDep, SessionDep
from app.api.openapi_docs import errors
from app.schemas.analytics import AccuracyRow, RoutingOut, SuggestionRow, TrendRow

# Analytics span every tenant: they are for the operator's analysts (the analyst role).
router = APIRouter(
    tags=["analytics"], dependencies=[Depends(get_analyst)], responses=errors(401, 403, 429)
)


@router.get("/v1/analytics/accuracy", operation_id="getAccuracy")
async def accuracy(
    session: SessionDep,
    by: Annotated[
        Literal["subject", "difficulty"],
        Query(description="Group by subject or by difficulty.", examples=["subject"]),
    ] = "subject",
    tenant: Annotated[
        str | None,
        Query(
            max_length=64,
            description="Only this tenant's rows; all tenants when absent.",
            examples=["acme"],
        ),
    ] = None,
) -> list[AccuracyRow]:
    """Attempts, verdicts and rates per tenant × provider × model × subject (or difficulty),
    from every stored verdict (views v_model_quality_by_subject / _by_difficulty)."""
    return [AccuracyRow.model_validate(r) for r in await queries.accuracy(session, by, tenant)]


@router.get("/v1/analytics/trend", operation_id="getTrend")
async def trend(
    session: SessionDep,
    days: Annotated[
        int, Query(ge=1, le=365, description="How many days back, today included.", examples=[30])
    ] = 30,
) -> list[TrendRow]:
    """Daily verified and caution rates."""
    return [TrendRow.model_validate(r) for r in await queries.daily_trend(session, days)]


@router.get("/v1/analytics/suggestions", operation_id="getSuggestions")
async def suggestions(
    session: SessionDep,
    limit: Annotated[
        int,
        Query(
            ge=1, le=200, description="How many suggestions, most frequent first.", examples=[20]
        ),
    ] = 20,
) -> list[SuggestionRow]:
    """The most frequent improvement suggestions."""
    return [SuggestionRow.model_validate(r) for r in await queries.suggestions(session, limit)]


@router.get("/v1/analytics/routing", operation_id="getRouting")
async def routing(services: ServicesDep) -> RoutingOut:
    """Which provider routing prefers per subject."""
    return RoutingOut(
        preferred=services.registry.preferred,
        static_order=services.registry.order,
        min_samples=services.settings.verify.routing_min_samples,
    )
