"""The service's Prometheus series (GET /metrics on the server; the worker's own listener).

Counted where they happen, in whatever process that is: HTTP requests (route template, not
path, so no id is a label), answered scans (badge and the method that decided it), model calls
(provider and outcome), verifier abstentions, symbolic sandbox timeouts. No label ever holds a
tenant, a user, a key or a problem's text: only route templates, provider and method names,
badges and status codes. What is service-wide (the outbox backlog, the Redis queue) is read
from the database and Redis when scraped (app/api/metrics.py), so any process answers it.

Several processes (`solveverify serve --workers N`): prometheus-client's multiprocess mode.
`serve` points PROMETHEUS_MULTIPROC_DIR at a directory of its own before the processes start
(app/server.py); each process writes its counters there, and a scrape of any of them sums all.
This module imports nothing of the web framework or the database: the pure layers count too.
"""

from __future__ import annotations

import hmac
import os
import threading
from collections.abc import Callable
from typing import Any, Literal
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import (
    CONTENT_TYPE_PLAIN_0_0_4,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
disable_created_metrics()  # type: ignore[no-untyped-call]  # no `_created` series beside every counter: half the scrape, no use

# Seconds: a synchronous scan answers within the deadline (20 s); event streams stay open for
# minutes (their duration is the stream's).
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300)

HTTP_REQUESTS = Histogram(
    "solveverify_http_request_duration_seconds",
    "HTTP requests by method, route template (unmatched: any path no route serves) and status.",
    ["method", "route", "status"],
    buckets=LATENCY_BUCKETS,
)
SCANS = Counter(
    "solveverify_scans",
    "Answered scans by badge (verified, unverified, caution) and the verification method that "
    "decided it (programmatic, ground_truth, llm, ...; none: nothing decided).",
    ["badge", "method"],
)
ModelOutcome = Literal["ok", "timeout", "rate_limited", "error", "budget_exhausted"]
MODEL_CALLS = Counter(
    "solveverify_model_calls",
    "Model requests by provider and outcome: ok, timeout, rate_limited (429), error (5xx, "
    "connection, malformed reply, refusal), budget_exhausted (our own RPM/RPD budget refused "
    "it before it was sent). Each retry is a request of its own.",
    ["provider", "outcome"],
)
VERIFIER_ABSTENTIONS = Counter(
    "solveverify_verifier_abstentions",
    "Verdicts recorded as abstain (the verifier could not judge: timeout, unreadable reply, "
    "outside what it checks), by tier and method.",
    ["tier", "method"],
)
SANDBOX_TIMEOUTS = Counter(
    "solveverify_sandbox_timeouts",
    "Symbolic computations killed at their time limit (SOLVEVERIFY_VERIFY_SYMBOLIC_TIMEOUT_S).",
)


def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROC_ENV) or None


def exposition() -> bytes:
    """This process's series, or every process's when several share a multiprocess dir."""
    directory = multiprocess_dir()
    if directory is None:
        return generate_latest(REGISTRY)
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


def serve_metrics(host: str, port: int, token: str | None) -> WSGIServer:
    """GET /metrics on a listener of its own, in a daemon thread (`solveverify worker`, which
    has no HTTP server): the token, when set, as a bearer token like the server's route."""

    class Quiet(WSGIRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass  # scrapes every few seconds are not worth a log line each

    def app(environ: dict[str, Any], start: Callable[..., Any]) -> list[bytes]:
        if environ.get("PATH_INFO") != "/metrics":
            start("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not found\n"]
        given: str = environ.get("HTTP_AUTHORIZATION", "")
        if token is not None and not hmac.compare_digest(
            given.encode(), f"Bearer {token}".encode()
        ):
            start("401 Unauthorized", [("WWW-Authenticate", 'Bearer realm="metrics"')])
            return [b"a bearer token is needed\n"]
        start("200 OK", [("Content-Type", CONTENT_TYPE_PLAIN_0_0_4)])
        return [exposition()]

    server = make_server(host, port, app, WSGIServer, Quiet)
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    return server
