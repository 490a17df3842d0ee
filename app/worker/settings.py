"""arq WorkerSettings: `solveverify worker` runs these tasks from Redis."""

from __future__ import annotations

from typing import Any

from arq import func
from arq.connections import RedisSettings

from app.db.session import create_engine, create_sessionmaker
from app.llm.factory import configured_clients
from app.llm.registry import build_registry
from app.settings import get_settings
from app.symbolic.sandbox import SymbolicSandbox
from app.worker.tasks import TASKS


async def startup(ctx: dict[str, Any]) -> None:
    settings = get_settings()
    ctx["settings"] = settings
    ctx["engine"] = create_engine(settings.database)
    ctx["sessionmaker"] = create_sessionmaker(ctx["engine"])
    ctx["sandbox"] = SymbolicSandbox(1, settings.verify.symbolic_timeout_s)
    ctx["registry"] = build_registry(
        settings.llm.default_provider_order, configured_clients(settings.llm, ctx["sandbox"])
    )


async def shutdown(ctx: dict[str, Any]) -> None:
    ctx["sandbox"].close()
    await ctx["engine"].dispose()


def worker_settings() -> dict[str, Any]:
    settings = get_settings()
    if not settings.redis.url:
        raise RuntimeError("SOLVEVERIFY_REDIS_URL is not set: the server runs jobs in-process")
    return {
        "functions": [
            func(f, name=name, max_tries=settings.worker.max_tries) for name, f in TASKS.items()
        ],
        "on_startup": startup,
        "on_shutdown": shutdown,
        "redis_settings": RedisSettings.from_dsn(settings.redis.url),
        "queue_name": settings.redis.queue_name,
        "keep_result": 3600,
    }
