"""The per-tenant forms of the trend and suggestions queries (an analyst key's view) run on
both backends and agree with the views they mirror (tests/auth/test_api_keys.py checks the
scoping itself)."""

from __future__ import annotations

import uuid

import httpx
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.analytics import queries
from app.db.models import Scan


async def test_one_tenants_trend_and_suggestions_match_the_views(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    tenant = f"t-{uuid.uuid4().hex[:8]}"
    created = await client.post("/v1/scans", json={"text": "Solve 3x = 12"})
    assert created.status_code == 201, created.text
    scan_id = uuid.UUID(created.json()["scan_id"])
    await session.execute(update(Scan).where(Scan.id == scan_id).values(tenant=tenant))
    trend = await queries.daily_trend(session, 30, tenant)
    assert [row["n"] for row in trend] == [1]
    assert trend[0]["verified_rate"] == (created.json()["verification_status"] == "verified")
    assert trend[0].keys() == (await queries.daily_trend(session, 30))[0].keys()
    assert await queries.suggestions(session, 10, tenant) == []  # no deep evaluation yet
    assert await queries.daily_trend(session, 30, "nobody") == []
