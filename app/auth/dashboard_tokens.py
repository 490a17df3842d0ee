"""Short-lived HMAC-signed tokens for opening /dashboard in a browser (link or cookie).

A token's lifetime is fixed when it is signed: exchanging a link for the cookie keeps the
link's expiry (the cookie holds the same token), so no chain of exchanges outlives it."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time

_PROCESS_SECRET = secrets.token_bytes(32)  # when none is configured: links die with the process
# A Unix time has 10 digits until the year 2286; anything much longer is not one of ours
# (and int() of a 5,000-digit string is refused by Python, which would be a 500).
_MAX_EXPIRY_DIGITS = 12
_MAX_SIGNATURE_CHARS = 64  # base64url of a SHA-256 MAC is 43


def _key(secret: str | None) -> bytes:
    return secret.encode() if secret else _PROCESS_SECRET


def sign(secret: str | None, ttl_s: int, now: float | None = None) -> str:
    expires = int((now or time.time()) + ttl_s)
    mac = hmac.new(_key(secret), f"dashboard:{expires}".encode(), hashlib.sha256).digest()
    return f"{expires}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def _is_ascii_number(text: str) -> bool:
    # str.isdigit() is true for "²" and other digits int() refuses: ASCII decimals only.
    return 0 < len(text) <= _MAX_EXPIRY_DIGITS and text.isascii() and text.isdecimal()


def verify(secret: str | None, token: str, now: float | None = None) -> bool:
    """False for anything that is not a valid, unexpired token: never an exception."""
    expires, _, signature = token.partition(".")
    if not _is_ascii_number(expires) or int(expires) < (now or time.time()):
        return False
    if not signature.isascii() or len(signature) > _MAX_SIGNATURE_CHARS:
        return False  # compare_digest refuses non-ASCII str
    expected = sign(secret, 0, now=int(expires)).partition(".")[2]
    return hmac.compare_digest(expected.encode(), signature.encode())


def expires_at(token: str) -> int:
    """The expiry (Unix time) of a token `verify` accepted."""
    return int(token.partition(".")[0])
