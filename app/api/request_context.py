"""A request id for every request (X-Request-ID, echoed back), and the last line of defence:
an exception nothing else handled becomes a JSON 500 naming that id, never a plain-text page.

The log line names the exception class, the route and the id, with the stack (file, line,
code) but not the exception's message, which may quote the student's text or SQL. A client
that disconnects before its body arrived is an ordinary event (one INFO line, no stack).
"""

from __future__ import annotations

import logging
import re
import traceback
import uuid

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.auth.keys import key_ids_within
from app.logs import REQUEST_ID as _request_id
from app.logs import JsonFormatter

log = logging.getLogger(__name__)

# An id a proxy set is kept when it is short and plain; anything else is replaced.
_ACCEPTABLE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def current_request_id() -> str:
    return _request_id.get()


class RequestIdLogFilter(logging.Filter):
    """Adds `request_id` to every log record (the contextvar: "-" outside a request), so a
    format with %(request_id)s ties each line to its request."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = _request_id.get()
        return True


def install_request_id_logging() -> None:
    """Every handler of the root logger gets the filter, and a plain format gains the id (the
    JSON format has it already)."""
    root = logging.getLogger()
    for handler in root.handlers:
        if not any(isinstance(f, RequestIdLogFilter) for f in handler.filters):
            handler.addFilter(RequestIdLogFilter())
            formatter = handler.formatter
            if isinstance(formatter, JsonFormatter):
                continue
            fmt = getattr(formatter, "_fmt", None)
            if fmt and "request_id" not in fmt:
                handler.setFormatter(logging.Formatter(fmt + " [request %(request_id)s]"))


def _incoming_id(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            candidate: str = value.decode("latin-1")
            if _ACCEPTABLE_ID.fullmatch(candidate) and not key_ids_within(candidate):
                return candidate  # echoed and logged: never a pasted API key
    return uuid.uuid4().hex


class RequestContext:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = _incoming_id(scope)
        token = _request_id.set(request_id)
        started = False

        async def send_with_id(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except ClientDisconnect:
            # The client went away mid-body: normal on mobile networks, nobody to answer.
            log.info(
                "client disconnected during %s %s [request %s]",
                scope.get("method"),
                scope.get("path"),
                request_id,
            )
        except Exception as exc:
            log.error(
                "unhandled %s on %s %s [request %s]\n%s",
                type(exc).__name__,
                scope.get("method"),
                scope.get("path"),
                request_id,
                "".join(traceback.format_tb(exc.__traceback__)).rstrip(),
            )
            if started:  # too late for an error response; the connection is cut
                raise
            from app.api.errors import internal_error_response

            await internal_error_response()(scope, receive, send_with_id)
        finally:
            _request_id.reset(token)
