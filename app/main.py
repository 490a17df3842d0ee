"""create_app(): the FastAPI application; the lifespan opens one Resources for the process."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.api import analytics, checks, health, scans, solutions
from app.api.errors import install_error_handlers
from app.api.limits import BodySizeLimit
from app.api.request_context import RequestContext
from app.llm.base import ModelClient
from app.resources import keep_fresh, open_resources
from app.settings import Settings, get_settings

log = logging.getLogger(__name__)

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

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with open_resources(settings, extra_clients=extra_clients) as services:
            app.state.services = services
            log.info("providers: %s", ", ".join(services.registry.order))
            # Load the OCR models in the background: the first photo should not pay for it,
            # and text-only traffic is served meanwhile.
            if not settings.auth.required:
                log.warning(OPEN_SERVER_WARNING)
            background = [
                asyncio.create_task(services.ocr.warm_up()),
                asyncio.create_task(keep_fresh(services)),
                asyncio.create_task(services.outbox.run()),
            ]
            yield
            for task in background:
                task.cancel()
            await asyncio.gather(*background, return_exceptions=True)
            try:  # what the last requests staged, before the queue closes
                await services.outbox.drain()
            except Exception:  # left in the outbox: the next server or a worker delivers it
                log.warning("outbox not drained at shutdown", exc_info=True)

    app = FastAPI(
        title="SolveVerify",
        version="0.1.0",
        summary="Solve K12 problems and verify the answer before returning it.",
        lifespan=lifespan,
    )
    install_error_handlers(app)
    # The multipart envelope around an image of the maximum size needs a little headroom.
    app.add_middleware(BodySizeLimit, max_bytes=settings.input.max_upload_bytes + 64 * 1024)
    # Outermost of ours: every response carries X-Request-ID, and an exception nothing else
    # handled becomes a JSON 500 (Starlette's fallback is a plain-text page).
    app.add_middleware(RequestContext)
    app.include_router(health.router)
    app.include_router(scans.router)
    app.include_router(solutions.router)
    app.include_router(analytics.router)
    app.include_router(checks.router)
    return app
