"""Short-lived HMAC-signed tokens for opening /dashboard in a browser (link or cookie)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time

_PROCESS_SECRET = secrets.token_bytes(32)  # when none is configured: links die with the process


def _key(secret: str | None) -> bytes:
    return secret.encode() if secret else _PROCESS_SECRET


def sign(secret: str | None, ttl_s: int, now: float | None = None) -> str:
    expires = int((now or time.time()) + ttl_s)
    mac = hmac.new(_key(secret), f"dashboard:{expires}".encode(), hashlib.sha256).digest()
    return f"{expires}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def verify(secret: str | None, token: str, now: float | None = None) -> bool:
    expires, _, signature = token.partition(".")
    if not expires.isdigit() or int(expires) < (now or time.time()):
        return False
    expected = sign(secret, 0, now=int(expires)).partition(".")[2]
    return hmac.compare_digest(expected, signature)
