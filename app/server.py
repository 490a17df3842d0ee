"""`python -m app.server`: the HTTP server process (what `solveverify serve` execs into).

A process of its own, started fresh, so a server imports what serving needs and nothing of the
CLI's other commands (the benchmarks among them).
"""

from __future__ import annotations

import argparse

import uvicorn

from app.api.http_layer import uvicorn_limits
from app.logs import configure_logging
from app.settings import get_settings


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    settings = get_settings()
    configure_logging(settings.log_level)
    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=settings.log_level.lower(),
        **uvicorn_limits(settings.api),  # timeouts, header cap, concurrency (app/api/http_layer.py)
    )


if __name__ == "__main__":
    main()
