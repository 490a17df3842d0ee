"""`python -m app.server`: the HTTP server process (what `solveverify serve` execs into).

A process of its own, started fresh, so a server imports what serving needs and nothing of the
CLI's other commands (the benchmarks among them). With several workers uvicorn supervises N
processes sharing the socket; each opens its own Resources (app.main), and what must happen
once for the service is made safe there: the outbox relays lease rows, one process leads the
upkeep (app.calibration.upkeep), budgets and rate limits are counted in Redis.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import resource
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from uvicorn.config import LOGGING_CONFIG

from app.api.http_layer import uvicorn_limits
from app.db.capabilities import capabilities
from app.logs import configure_logging, uvicorn_log_config
from app.process import SUPERVISOR_ENV, exit_unless_at_head
from app.settings import Settings, get_settings

log = logging.getLogger(__name__)


def default_workers(settings: Settings) -> int:
    """One process per core; a single-writer database (the embedded one), one process."""
    return 1 if capabilities(settings.database).single_writer else max(1, os.cpu_count() or 1)


def raise_open_files_limit() -> int:
    """Lift the soft limit on open files to the hard one (at most 65,536) and return it.

    Every connection holds a descriptor until it is closed, an idle one up to the header
    deadline; at a soft limit of 1,024 (systemd's default, and many shells') the server's
    accept() fails with EMFILE once 1,000 idle sockets are open, and asyncio stops accepting,
    /healthz included, for a second at a time. Worker processes inherit the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        return wanted
    return soft


@contextmanager
def shared_metrics(workers: int) -> Iterator[None]:
    """Several processes: prometheus-client's multiprocess mode, in a directory made for this
    run (so no counter of an earlier run is summed in) and removed after it. Set before
    uvicorn starts its processes, which inherit it. An operator's own
    PROMETHEUS_MULTIPROC_DIR is used as it is (they empty it between runs)."""
    from app.metrics import MULTIPROC_ENV

    if workers == 1 or os.environ.get(MULTIPROC_ENV):
        yield
        return
    directory = tempfile.mkdtemp(prefix="solveverify-metrics-")
    os.environ[MULTIPROC_ENV] = directory
    try:
        yield
    finally:
        os.environ.pop(MULTIPROC_ENV, None)
        shutil.rmtree(directory, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args(argv)
    settings = get_settings()
    configure_logging(settings.log_level, settings.log_format)
    exit_unless_at_head(settings)
    workers = args.workers or default_workers(settings)
    log.debug("open files limit: %d", raise_open_files_limit())
    if workers > 1:
        if capabilities(settings.database).embedded:
            # Migrate once here, not racing in every worker's start.
            from app.db.migrate import upgrade_async

            asyncio.run(upgrade_async(settings.database.url))
        if not settings.redis.url:
            log.warning(
                "%d server processes without Redis: rate limits and model budgets are counted "
                "per process (set SOLVEVERIFY_REDIS_URL to share them)",
                workers,
            )
    if workers > 1:
        os.environ[SUPERVISOR_ENV] = str(os.getpid())  # the workers stop if it is killed
    log_config = uvicorn_log_config(settings.log_level, settings.log_format)
    with shared_metrics(workers):
        uvicorn.run(
            "app.main:create_app",
            factory=True,
            host=args.host,
            port=args.port,
            workers=workers,
            log_level=settings.log_level.lower(),
            log_config=log_config or LOGGING_CONFIG,  # uvicorn's own, or JSON (app/logs.py)
            **uvicorn_limits(settings.api),  # timeouts, header cap, concurrency (http_layer.py)
        )


if __name__ == "__main__":
    main()
