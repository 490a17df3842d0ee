"""URLs are refused before any route sees them: an API key anywhere in one (401), a control
character or a parameter named twice in the query string (422).

A key in a URL is in proxy, browser and access logs by now, so it must not work: wherever it
hides (a query value, inside other words, a parameter's name, a path segment, percent-encoded
over and over, on a route that reads no key such as /healthz, with a body over its cap), the
request is refused and the log names each key's id for the operator to revoke. Only the event
stream takes a credential from the URL, a per-student token (app/auth/caller.py).

Every query parameter here is an id, a name, a number or a cursor: none has a use for a control
character, and Postgres refuses NUL in text outright (a 500 from inside the query, were it let
through). None takes a list either: `?limit=5&limit=100` or `?tenant=a&tenant=b` would be read
as its last value, silently. Checking once, at the edge, covers every route and every parameter
added later.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from urllib.parse import parse_qsl, unquote_to_bytes

from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.errors import ApiError, domain_error_response, sent_more_than_once
from app.auth.keys import key_ids_within

log = logging.getLogger(__name__)

# C0 controls and DEL, as bytes after percent-decoding (a raw one is refused by h11 already).
_CONTROL = re.compile(rb"[\x00-\x1f\x7f]")
KEY_IN_URL = (
    "an API key must never be sent in a URL (logs, proxies and browser history keep URLs): "
    "send it in the 'Authorization: Bearer' header from your server, and give browsers a "
    "per-student token from POST /v1/tokens"
)


def has_control_characters(query_string: bytes) -> bool:
    # '+' stays '+': it decodes to a space, never to a control character.
    return _CONTROL.search(unquote_to_bytes(query_string)) is not None


def url_problem(path: str, query_string: bytes) -> ApiError | None:
    """Why the URL is refused, or None."""
    query = query_string.decode("latin-1")  # as Starlette decodes it for the routes
    key_ids = key_ids_within(f"{path}?{query}")
    if key_ids:
        for key_id in key_ids:
            log.warning(
                "refused an API key sent in a URL (key id %s): it may be in proxy or browser "
                "logs now; consider revoking it",
                key_id,
            )
        return ApiError(401, "api_key_in_url", KEY_IN_URL, headers={"WWW-Authenticate": "Bearer"})
    if not query_string:
        return None
    if has_control_characters(query_string):
        message = "query parameters must not contain control characters"
        return ApiError(422, "invalid_request", message)
    names = Counter(name for name, _ in parse_qsl(query, keep_blank_values=True))
    repeated = [name for name, n in names.items() if n > 1]
    return sent_more_than_once(repeated) if repeated else None


class UrlGuard:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        problem = None
        if scope["type"] == "http":
            problem = url_problem(scope.get("path", ""), scope.get("query_string", b""))
        if problem is None:
            await self.app(scope, receive, send)
            return
        await domain_error_response(problem)(scope, receive, send)
