"""Analytics for the dashboard and for analysts who prefer JSON to SQL."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Query
from fastapi.responses import HTMLResponse

from app.analytics import queries
from app.analytics.dashboard import page
from app.api.auth import get_analyst
from app.api.deps import ServicesDep, SessionDep

# Analytics span every tenant: they are for the operator's analysts (the analyst role).
router = APIRouter(tags=["analytics"], dependencies=[Depends(get_analyst)])


@router.get("/v1/analytics/accuracy")
async def accuracy(
    session: SessionDep, by: Literal["subject", "difficulty"] = "subject"
) -> list[dict[str, Any]]:
    """n, verified rate, caution rate, consensus agreement and mean deep score per provider ×
    model × subject (or difficulty)."""
    return await queries.accuracy(session, by)


@router.get("/v1/analytics/trend")
async def trend(session: SessionDep, days: int = Query(30, ge=1, le=365)) -> list[dict[str, Any]]:
    return await queries.daily_trend(session, days)


@router.get("/v1/analytics/suggestions")
async def suggestions(
    session: SessionDep, limit: int = Query(20, ge=1, le=200)
) -> list[dict[str, Any]]:
    return await queries.suggestions(session, limit)


@router.get("/v1/analytics/routing")
async def routing(services: ServicesDep) -> dict[str, Any]:
    return {
        "preferred": services.registry.preferred,
        "static_order": services.registry.order,
        "min_samples": services.settings.verify.routing_min_samples,
    }


@router.get("/dashboard", response_class=HTMLResponse)
async def dashboard(session: SessionDep, services: ServicesDep) -> HTMLResponse:
    return HTMLResponse(
        page(
            await queries.accuracy(session),
            await queries.daily_trend(session),
            await queries.suggestions(session, 10),
            services.registry.preferred,
        )
    )
