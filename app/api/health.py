"""Liveness and readiness. Readiness names each component "ok" or "down", never why: the
reason (exception class) goes to the log, not to whoever can reach the port."""

from __future__ import annotations

import logging

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.api.deps import ServicesDep
from app.db.session import ping_database

log = logging.getLogger(__name__)
# A probe that finds a dependency down asks again after this long (restarts take seconds).
NOT_READY_RETRY_AFTER_S = 5
router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", responses={503: {"description": "a dependency is down"}})
async def readyz(services: ServicesDep) -> JSONResponse:
    checks: dict[str, str] = {}
    try:
        await ping_database(services.engine)
        checks["database"] = "ok"
    except Exception as exc:
        log.warning("readiness: database down (%s)", type(exc).__name__)
        checks["database"] = "down"
    checks["queue"] = "ok" if await services.queue.ping() else "down"
    ready = all(v == "ok" for v in checks.values())
    return JSONResponse(
        {"status": "ready" if ready else "not ready", "checks": checks},
        status_code=200 if ready else 503,
        headers=None if ready else {"Retry-After": str(NOT_READY_RETRY_AFTER_S)},
    )
