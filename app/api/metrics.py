"""GET /metrics (Prometheus text format) and the request-latency middleware behind it.

The route is there unless SOLVEVERIFY_METRICS_ENABLED=false; with SOLVEVERIFY_METRICS_TOKEN
set a scrape must send `Authorization: Bearer <token>`. It is no /v1 route: API keys do not
open it and it holds no tenant's data (app/metrics.py says what its labels may hold).

Besides the counters of app/metrics.py (summed over every server process), a scrape reads what
is the service's rather than a process's, so any process gives the same answer: the outbox
backlog from the database, and with Redis the queue's depth and lag. A part that cannot be
read (the database or Redis down) is left out of that scrape and logged; the rest is served.
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Iterable
from datetime import UTC, datetime

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_PLAIN_0_0_4, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.deps import ServicesDep
from app.db.models._columns import as_utc
from app.db.repositories.outbox import OutboxRepository
from app.metrics import HTTP_REQUESTS, exposition
from app.resources import Resources
from app.worker.queue import ArqQueue

log = logging.getLogger(__name__)
router = APIRouter(include_in_schema=False)
UNMATCHED = "unmatched"  # any path no route serves: one label value, whatever was asked
# Any other method a client invents is counted as "other" (a label per invention would not do).
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


@router.get("/metrics")
async def metrics(request: Request, services: ServicesDep) -> Response:
    token = services.settings.metrics.token
    if token is not None and not _bearer_matches(request, token.get_secret_value()):
        return Response(
            "a bearer token is needed\n",
            status_code=401,
            media_type="text/plain",
            headers={"WWW-Authenticate": 'Bearer realm="metrics"'},
        )
    body = exposition() + await service_gauges(services)
    return Response(body, media_type=CONTENT_TYPE_PLAIN_0_0_4)


def _bearer_matches(request: Request, token: str) -> bool:
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode(), token.encode()
    )


async def service_gauges(services: Resources) -> bytes:
    """The outbox backlog and the Redis queue, read now: the service's values, one per scrape
    (families of a registry made for the scrape, so nothing lands in the multiprocess files
    to be summed over processes)."""
    families: list[GaugeMetricFamily] = []

    def gauge(name: str, documentation: str, value: float) -> None:
        families.append(GaugeMetricFamily(name, documentation, value=value))

    try:
        async with services.sessionmaker() as session:
            pending, oldest = await OutboxRepository(session).backlog()
    except Exception as exc:
        log.warning("metrics: outbox backlog not read (%s)", type(exc).__name__)
    else:
        age = 0.0 if oldest is None else (datetime.now(UTC) - as_utc(oldest)).total_seconds()
        gauge(
            "solveverify_outbox_pending",
            "Follow-up jobs staged in the outbox and not yet handed to the queue.",
            pending,
        )
        gauge(
            "solveverify_outbox_oldest_pending_seconds",
            "Age of the oldest outbox row not yet handed to the queue (0: none).",
            max(0.0, age),
        )
    if isinstance(services.queue, ArqQueue):
        try:
            depth, lag = await services.queue.backlog(int(time.time() * 1000))
        except Exception as exc:
            log.warning("metrics: queue backlog not read (%s)", type(exc).__name__)
        else:
            gauge(
                "solveverify_queue_jobs",
                "Jobs in the Redis queue: waiting, deferred (retries, budget resets) or running.",
                depth,
            )
            gauge(
                "solveverify_queue_lag_seconds",
                "How long the oldest due job has waited for a worker (0: none waits).",
                lag,
            )
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Families(families))
    return generate_latest(registry)


class _Families(Collector):
    def __init__(self, families: list[GaugeMetricFamily]) -> None:
        self.families = families

    def collect(self) -> Iterable[Metric]:
        return self.families


class HttpMetrics:
    """Times every HTTP request, labelled by method, route template and status. The template
    (`/v1/scans/{scan_id}`) is read off the matched route after the app ran, so an id never
    becomes a label; a path no route serves counts as `unmatched`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the client gets when the app raises before answering

        async def send_and_note(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            method = scope.get("method", "")
            HTTP_REQUESTS.labels(
                method if method in METHODS else "other",
                getattr(scope.get("route"), "path", UNMATCHED),
                str(status),
            ).observe(time.perf_counter() - started)
