"""What the HTTP layer (uvicorn, under `solveverify serve`) refuses before the app sees a
request. uvicorn answers these itself, in plain text, not the JSON envelope: 503 beyond the
concurrency limit, 400 for malformed HTTP or request headers over the size cap.

uvicorn itself has no header or body read timeout; with h11 (the default) the protocol of
app/api/http_protocol.py closes a connection whose request headers are not complete within
`http_header_timeout_s` (from the connection's start or the previous response) or whose body
is not within `http_body_timeout_s`. With httptools there are no such deadlines.

Forwarded headers (X-Forwarded-For, -Proto) are believed only from `forwarded_allow_ips`
(default: nobody; uvicorn's own default trusts 127.0.0.1, so a local proxy that does not set
them, or any local process, could pick the client address the failed-auth limiter counts).
"""

from __future__ import annotations

from typing import Any

from app.api.http_protocol import DeadlineH11Protocol
from app.settings import ApiSettings


def uvicorn_limits(api: ApiSettings) -> dict[str, Any]:
    return {
        "timeout_keep_alive": api.http_keep_alive_s,
        "h11_max_incomplete_event_size": api.http_max_header_bytes,
        "limit_concurrency": api.http_limit_concurrency,
        # The header cap and the request deadlines are h11's; httptools (uvicorn's "auto" pick
        # when installed) has neither.
        "http": DeadlineH11Protocol if api.http_implementation == "h11" else "httptools",
        "proxy_headers": bool(api.forwarded_allow_ips),
        "forwarded_allow_ips": ",".join(api.forwarded_allow_ips) or "",
    }
