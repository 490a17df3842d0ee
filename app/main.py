"""create_app(): the FastAPI application; the lifespan opens one Resources for the process."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from app.analytics import dashboard_endpoints as dashboard_routes
from app.analytics import endpoints as analytics_routes
from app.api import health
from app.api.access_log import redact_access_logs
from app.api.docs_pages import install_docs_pages
from app.api.errors import install_error_handlers
from app.api.limits import BodySizeLimit
from app.api.metrics import HttpMetrics
from app.api.metrics import router as metrics_router
from app.api.openapi_docs import build_openapi, camel_case_id
from app.api.rate_headers import RateLimitHeaders
from app.api.request_context import RequestContext, install_request_id_logging
from app.api.url_guard import UrlGuard
from app.auth import endpoints as token_routes
from app.calibration import endpoints as calibration_routes
from app.checks import endpoints as check_routes
from app.llm.base import ModelClient
from app.logs import configure_logging
from app.process import SUPERVISOR_ENV, freeze_startup_heap, stop_when_orphaned
from app.resources import Resources, keep_fresh, open_resources
from app.scans import endpoints as scan_routes
from app.scans import event_endpoints as event_routes
from app.scans.event_repository import ScanInputRepository
from app.scans.sweeper import sweep_stuck_scans
from app.settings import Settings, get_settings
from app.solutions import endpoints as solution_routes
from app.worker.queue import InProcessQueue

log = logging.getLogger(__name__)

# How long shutdown waits for the cancelled background tasks (relay, upkeep, sweeper, OCR).
SHUTDOWN_TASKS_S = 10.0

OPEN_SERVER_WARNING = (
    "\n" + "!" * 78 + "\n"
    "  AUTH IS OFF: every /v1 route answers without an API key (one anonymous tenant).\n"
    "  Set SOLVEVERIFY_AUTH_REQUIRED=true and create keys with `solveverify keys create`\n"
    "  before this server is reachable by anyone but you.\n" + "!" * 78
)


def create_app(
    settings: Settings | None = None, *, extra_clients: Sequence[ModelClient] = ()
) -> FastAPI:
    settings = settings or get_settings()
    # uvicorn's worker processes (serve --workers N) start fresh: set logging up in each
    # (a no-op where the process already did). A per-student token in the event stream's
    # URL never reaches the access log.
    redact_access_logs()
    configure_logging(settings.log_level, settings.log_format)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with open_resources(settings, extra_clients=extra_clients) as services:
            app.state.services = services
            log.info("providers: %s", ", ".join(services.registry.order))
            # Load the OCR models in the background: the first photo should not pay for it,
            # and text-only traffic is served meanwhile.
            if not settings.auth.required:
                log.warning(OPEN_SERVER_WARNING)
            await resume_queued_scans(services)
            freeze_startup_heap()
            background = [
                asyncio.create_task(services.ocr.warm_up()),
                asyncio.create_task(keep_fresh(services)),
                asyncio.create_task(services.outbox.run()),
                # Scans whose job was lost (a Redis without persistence died) run again.
                asyncio.create_task(
                    sweep_stuck_scans(services.sessionmaker, services.queue, settings.worker)
                ),
            ]
            if supervisor := os.environ.get(SUPERVISOR_ENV):
                background.append(asyncio.create_task(stop_when_orphaned(int(supervisor))))
            yield
            for task in background:
                task.cancel()
            # Bounded: a task that ignored its cancellation must not hold the shutdown forever.
            _, stuck = await asyncio.wait(background, timeout=SHUTDOWN_TASKS_S)
            for task in stuck:
                log.warning("background task %s did not stop at shutdown", task.get_coro())
            try:  # what the last requests staged, before the queue closes
                await services.outbox.drain()
            except Exception:  # left in the outbox: the next server or a worker delivers it
                log.warning("outbox not drained at shutdown", exc_info=True)

    app = FastAPI(
        title="SolveVerify",
        version="0.1.0",
        summary="Solve K12 problems and verify the answer before returning it.",
        lifespan=lifespan,
        generate_unique_id_function=camel_case_id,
        docs_url=None,  # served from the package's assets, not a CDN: install_docs_pages
        redoc_url=None,
    )
    app.openapi = lambda: build_openapi(app)  # type: ignore[method-assign]  # FastAPI's documented override
    install_request_id_logging()
    install_error_handlers(app)
    install_docs_pages(app)
    # The multipart envelope around an image of the maximum size needs a little headroom.
    app.add_middleware(
        BodySizeLimit,
        max_bytes=settings.input.max_upload_bytes + 64 * 1024,
        max_json_bytes=settings.input.max_json_bytes,
    )
    # URLs are bad input too (a key in one, control characters, a parameter named twice):
    # refused before any route, and before the body's cap (a key in the URL of a 70 kB body
    # is still named for revoking: app/api/url_guard.py).
    app.add_middleware(UrlGuard)
    # Outermost of ours: every response carries X-Request-ID, and an exception nothing else
    # handled becomes a JSON 500 (Starlette's fallback is a plain-text page).
    app.add_middleware(RequestContext)
    app.add_middleware(RateLimitHeaders)
    if settings.metrics.enabled:
        app.add_middleware(HttpMetrics)  # outside the above: their 500s are timed too
    if settings.api.cors_origins:
        # Outermost: a preflight is answered before auth; errors carry the CORS headers too.
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.api.cors_origins,
            allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
            allow_headers=[
                "Authorization",
                "Content-Type",
                "Idempotency-Key",
                "Prefer",
                "Last-Event-ID",
                "X-Request-ID",
            ],
            expose_headers=[
                "Location",
                "X-Request-ID",
                "Idempotent-Replayed",
                "Retry-After",
                "RateLimit-Limit",
                "RateLimit-Remaining",
                "RateLimit-Reset",
            ],
            max_age=600,
        )
    app.include_router(health.router)
    app.include_router(event_routes.router)
    app.include_router(scan_routes.router)
    app.include_router(solution_routes.router)
    app.include_router(analytics_routes.router)
    app.include_router(calibration_routes.router)
    app.include_router(check_routes.router)
    app.include_router(token_routes.router)
    app.include_router(dashboard_routes.router)
    if settings.metrics.enabled:
        app.include_router(metrics_router)
    return app


async def resume_queued_scans(services: Resources) -> None:
    """In-process jobs die with the process: queue again the scans a previous server accepted
    but did not finish (their input is still stored). arq keeps its own jobs in Redis."""
    if not isinstance(services.queue, InProcessQueue):
        return
    if not await services.upkeep.is_leader():
        return  # several server processes: the one that leads resumes them, once
    async with services.sessionmaker() as session:
        pending = await ScanInputRepository(session).pending_scan_ids()
    for scan_id in pending:
        await services.queue.enqueue("run_scan", str(scan_id), job_id=f"run_scan:{scan_id}")
    if pending:
        log.info("resumed %d queued scan(s)", len(pending))
