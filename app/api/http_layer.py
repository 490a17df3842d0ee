"""What the HTTP layer (uvicorn, under `solveverify serve`) refuses before the app sees a
request. uvicorn answers these itself, in plain text, not the JSON envelope: 503 beyond the
concurrency limit, 400 for malformed HTTP or request headers over the size cap.

uvicorn has no header or body read timeout: a connection that sends nothing is closed after
the keep-alive timeout; a slow body is bounded by the body size limits (app/api/limits.py)
and the concurrency limit.
"""

from __future__ import annotations

from typing import Any

from app.settings import ApiSettings


def uvicorn_limits(api: ApiSettings) -> dict[str, Any]:
    return {
        "timeout_keep_alive": api.http_keep_alive_s,
        "h11_max_incomplete_event_size": api.http_max_header_bytes,
        "limit_concurrency": api.http_limit_concurrency,
        # The header cap is h11's; httptools (uvicorn's "auto" pick when installed) has none.
        "http": api.http_implementation,
    }
