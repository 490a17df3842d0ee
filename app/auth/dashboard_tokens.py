"""Short-lived HMAC-signed tokens for opening /dashboard in a browser (link or cookie).

A token's lifetime is fixed when it is signed: exchanging a link for the cookie keeps the
link's expiry (the cookie holds the same token), so no chain of exchanges outlives it.
Signed with the machinery every token shares (app/auth/signing.py), purpose `dashboard`."""

from __future__ import annotations

import secrets
import time

from app.auth import signing

_PROCESS_SECRET = secrets.token_bytes(32)  # when none is configured: links die with the process
# A Unix time has 10 digits until the year 2286; anything much longer is not one of ours
# (and int() of a 5,000-digit string is refused by Python, which would be a 500).
_MAX_EXPIRY_DIGITS = 12
_PURPOSE = "dashboard"


def _key(secret: str | None) -> bytes:
    return secret.encode() if secret else _PROCESS_SECRET


def sign(secret: str | None, ttl_s: int, now: float | None = None) -> str:
    expires = int((now or time.time()) + ttl_s)
    return f"{expires}.{signing.mac(_key(secret), _PURPOSE, str(expires))}"


def verify(secret: str | None, token: str, now: float | None = None) -> bool:
    """False for anything that is not a valid, unexpired token: never an exception."""
    expires, _, signature = token.partition(".")
    if not signing.is_ascii_number(expires, _MAX_EXPIRY_DIGITS):
        return False
    if int(expires) < (now or time.time()):
        return False
    return signing.signature_matches(_key(secret), _PURPOSE, expires, signature)


def expires_at(token: str) -> int:
    """The expiry (Unix time) of a token `verify` accepted."""
    return int(token.partition(".")[0])
