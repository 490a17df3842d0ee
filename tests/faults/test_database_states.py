"""What a database error means to the caller, with real SQLSTATEs raised by a real Postgres:
"try later" states (disk full, shutting down, deadlock, lock timeout) are 503 with
Retry-After, never a 500; a value the database cannot store is a 422; anything else is the
JSON 500 (a bug)."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from app.api.errors import install_error_handlers
from app.resources import Resources


def app_raising(services: Resources, sqlstate: str) -> FastAPI:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/raise")
    async def raise_it() -> None:
        async with services.engine.connect() as connection:
            await connection.execute(
                text(f"DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '{sqlstate}'; END $$")
            )

    return app


@pytest.mark.parametrize(
    ("sqlstate", "status", "retry_after"),
    [
        ("53100", 503, "30"),  # disk full
        ("53200", 503, "30"),  # out of memory
        ("57P01", 503, "1"),  # admin shutdown
        ("40P01", 503, "1"),  # deadlock detected
        ("55P03", 503, "1"),  # lock not available
        ("22021", 422, None),  # character not in repertoire (NUL)
        ("22008", 422, None),  # datetime field overflow
        ("42601", 500, None),  # syntax error: a bug, not the caller's
    ],
)
async def test_sqlstates_map_to_what_the_caller_can_do(
    services: Resources, sqlstate: str, status: int, retry_after: str | None
) -> None:
    if services.engine.dialect.name != "postgresql":
        pytest.skip("SQLSTATEs are Postgres's")
    transport = httpx.ASGITransport(app=app_raising(services, sqlstate), raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        response = await http.get("/raise")
    assert response.status_code == status, response.text
    assert response.headers.get("retry-after") == retry_after
    assert set(response.json()) == {"error"}
