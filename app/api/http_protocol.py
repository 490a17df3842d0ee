"""uvicorn's h11 protocol with request deadlines, so connections cannot be hoarded.

uvicorn arms its keep-alive timer only after a response, and cancels it on any byte received:
a connection that never sends a request, or sends its headers a byte at a time, is kept
forever, and `limit_concurrency` counts connections, so 1,000 such sockets turn every request
(/healthz included) into a 503. Here each connection has a deadline instead:

- the request's headers must be complete within `http_header_timeout_s` of the connection
  opening (or of the previous response, on a kept-alive connection);
- its body within `http_body_timeout_s` of the headers (a photo over a slow phone link);
- while the app works on a complete request there is no deadline (sync scans, event streams).

A connection past its deadline is closed; a request cut off mid-body reaches the app as a
disconnect, like a client that went away.

`limit_concurrency` counts requests here, not connections: uvicorn refuses a request (503)
when the open connections reach the limit, idle ones included, so 1,000 sockets that never
asked for anything made the server refuse everyone else until their deadline. Here a request
is refused only when that many requests are being worked on already (event streams included);
connections that owe their request cost a file descriptor each and are bounded by the
deadlines above.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import h11
from uvicorn._types import ASGIReceiveCallable, ASGISendCallable, Scope
from uvicorn.protocols.http.flow_control import service_unavailable
from uvicorn.protocols.http.h11_impl import H11Protocol

from app.settings import get_settings

log = logging.getLogger(__name__)


class DeadlineH11Protocol(H11Protocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        api = get_settings().api  # the server process's own settings (`solveverify serve`)
        self.header_timeout_s = api.http_header_timeout_s
        self.body_timeout_s = api.http_body_timeout_s
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_for: str | None = None  # "headers" | "body" | None (the app has it all)
        # uvicorn's own check counts open connections (idle ones too): requests are counted
        # instead, by the app each request runs.
        self.request_limit = self.limit_concurrency
        self.limit_concurrency = None
        self._app = self.app
        self.app = self._admit

    async def _admit(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        """Run the request, or refuse it when more than `request_limit` are in progress (this
        one's task is among `self.tasks` by now)."""
        if self.request_limit is not None and len(self.tasks) > self.request_limit:
            log.warning("Exceeded concurrency limit.")
            await service_unavailable(scope, receive, send)
            return
        await self._app(scope, receive, send)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._expect("headers")

    def connection_lost(self, exc: Exception | None) -> None:
        self._expect(None)
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        self._follow_request()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._follow_request()

    def _follow_request(self) -> None:
        """Arm the deadline for what the client owes us now."""
        state = self.conn.their_state
        if state is h11.IDLE and self.conn.our_state is h11.IDLE:
            self._expect("headers")
        elif state is h11.SEND_BODY:
            self._expect("body")
        elif state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
            self._expect(None)

    def _expect(self, what: str | None) -> None:
        if what == self._waiting_for and (what is None or self._deadline is not None):
            return  # already counting (a body arriving in pieces does not extend it)
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._waiting_for = what
        if what is not None:
            timeout = self.header_timeout_s if what == "headers" else self.body_timeout_s
            self._deadline = self.loop.call_later(timeout, self._expired)

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        log.debug("closing a connection whose request %s did not arrive in time", self._waiting_for)
        self._waiting_for = None
        # Mid-request h11 refuses to send "closed": nothing to say, the connection just ends.
        if self.conn.our_state is not h11.ERROR:
            with contextlib.suppress(h11.LocalProtocolError):
                self.conn.send(h11.ConnectionClosed())
        self.transport.close()
