"""Query strings with control characters are refused (422) before any route sees them.

Every query parameter here is an id, a name, a number or a cursor: none has a use for a control
character, and Postgres refuses NUL in text outright (a 500 from inside the query, were it let
through). Checking once, at the edge, covers every route and every parameter added later.
"""

from __future__ import annotations

import json
import re
from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Receive, Scope, Send

# C0 controls and DEL, as bytes after percent-decoding (a raw one is refused by h11 already).
_CONTROL = re.compile(rb"[\x00-\x1f\x7f]")


def has_control_characters(query_string: bytes) -> bool:
    # '+' stays '+': it decodes to a space, never to a control character.
    return _CONTROL.search(unquote_to_bytes(query_string)) is not None


class QueryStringGuard:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not has_control_characters(scope.get("query_string", b"")):
            await self.app(scope, receive, send)
            return
        # The error envelope of app/api/errors.py (which installs this guard).
        message = "query parameters must not contain control characters"
        body = json.dumps({"error": {"code": "invalid_request", "message": message}}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 422,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
