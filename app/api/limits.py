"""Request bodies over their limit are refused with 413, whether they declare their length or
arrive chunked without one: the body is counted as it is received, never buffered whole.

Multipart uploads (an image) may be as large as the upload limit; every other body (JSON: a
problem text of a few KB) has a small limit of its own, so a 10 MB JSON document is refused
before anything parses it on the event loop.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import ApiError, domain_error_response


class BodySizeLimit:
    def __init__(self, app: ASGIApp, max_bytes: int, max_json_bytes: int | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_json_bytes = max_json_bytes if max_json_bytes is not None else max_bytes

    def limit_for(self, headers: dict[bytes, bytes]) -> int:
        content_type = headers.get(b"content-type", b"").lower()
        return self.max_bytes if content_type.startswith(b"multipart/") else self.max_json_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        limit = self.limit_for(headers)
        declared = headers.get(b"content-length", b"")
        if declared.isdigit() and int(declared) > limit:
            await self._refuse(scope, receive, send, limit)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # Handled by the DomainError handler inside the app, like any caller mistake.
                    raise ApiError(413, "payload_too_large", self._message(limit))
            return message

        await self.app(scope, counted, send)

    @staticmethod
    def _message(limit: int) -> str:
        return f"request body is larger than {limit} bytes"

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        refusal = ApiError(
            413, "payload_too_large", self._message(limit), headers={"connection": "close"}
        )
        await domain_error_response(refusal)(scope, receive, send)
