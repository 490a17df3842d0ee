"""create_app(): the FastAPI application; the lifespan opens one Services for the process."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.api import analytics, health, scans, solutions
from app.api.errors import install_error_handlers
from app.llm.base import ModelClient
from app.runtime import keep_fresh, open_services
from app.settings import Settings, get_settings

log = logging.getLogger(__name__)


def create_app(
    settings: Settings | None = None, *, extra_clients: Sequence[ModelClient] = ()
) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with open_services(settings, extra_clients=extra_clients) as services:
            app.state.services = services
            log.info("providers: %s", ", ".join(services.registry.order))
            # Load the OCR models in the background: the first photo should not pay for it,
            # and text-only traffic is served meanwhile.
            warm_ocr = asyncio.create_task(services.ocr.warm_up())
            upkeep = asyncio.create_task(keep_fresh(services))
            yield
            warm_ocr.cancel()
            upkeep.cancel()

    app = FastAPI(
        title="SolveVerify",
        version="0.1.0",
        summary="Solve K12 problems and verify the answer before returning it.",
        lifespan=lifespan,
    )
    install_error_handlers(app)
    app.include_router(health.router)
    app.include_router(scans.router)
    app.include_router(solutions.router)
    app.include_router(analytics.router)
    return app
