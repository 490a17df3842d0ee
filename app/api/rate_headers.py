"""RateLimit-Limit / -Remaining / -Reset on every response of an authenticated request
(successes and errors alike), from what `get_caller` counted."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class RateLimitHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_quota(message: Message) -> None:
            quota = scope.get("state", {}).get("rate_limit")
            if message["type"] == "http.response.start" and quota is not None:
                limit, remaining, reset = quota
                headers = list(message.get("headers", []))
                headers += [
                    (b"ratelimit-limit", str(limit).encode()),
                    (b"ratelimit-remaining", str(remaining).encode()),
                    (b"ratelimit-reset", str(reset).encode()),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_quota)
