"""Short-lived HMAC-signed tokens for opening /dashboard in a browser (link or cookie).

A token's lifetime is fixed when it is signed: exchanging a link for the cookie keeps the
link's expiry (the cookie holds the same token), so no chain of exchanges outlives it.
Signed with the machinery every token shares (app/auth/signing.py), purpose `dashboard`.

A session opened with a platform key names that key ("<expiry>.<key id>.<mac>"): it ends when
the key is revoked, not only when it expires. An operator's link (`solveverify dashboard-link`)
names none ("<expiry>.<mac>")."""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass

from app.auth import signing

_PROCESS_SECRET = secrets.token_bytes(32)  # when none is configured: links die with the process
# A Unix time has 10 digits until the year 2286; anything much longer is not one of ours
# (and int() of a 5,000-digit string is refused by Python, which would be a 500).
_MAX_EXPIRY_DIGITS = 12
_PURPOSE = "dashboard"
_KEY_ID = re.compile(r"[0-9a-f]{12}")  # app/auth/keys.py: 12 hex digits


@dataclass(frozen=True, slots=True)
class Session:
    expires: int
    key_id: str | None  # the platform key it was opened with; None: an operator's link


def _key(secret: str | None) -> bytes:
    return secret.encode() if secret else _PROCESS_SECRET


def sign(
    secret: str | None, ttl_s: int, now: float | None = None, key_id: str | None = None
) -> str:
    expires = int((now or time.time()) + ttl_s)
    message = str(expires) if key_id is None else f"{expires}.{key_id}"
    return f"{message}.{signing.mac(_key(secret), _PURPOSE, message)}"


def read(secret: str | None, token: str, now: float | None = None) -> Session | None:
    """The session a valid, unexpired token opens, else None: never an exception."""
    message, _, signature = token.rpartition(".")
    expires, _, key_id = message.partition(".")
    if not signing.is_ascii_number(expires, _MAX_EXPIRY_DIGITS):
        return None
    if key_id and not _KEY_ID.fullmatch(key_id):
        return None
    if int(expires) < (now or time.time()):
        return None
    if not signing.signature_matches(_key(secret), _PURPOSE, message, signature):
        return None
    return Session(int(expires), key_id or None)


def verify(secret: str | None, token: str, now: float | None = None) -> bool:
    """False for anything that is not a valid, unexpired token: never an exception."""
    return read(secret, token, now) is not None


def expires_at(token: str) -> int:
    """The expiry (Unix time) of a token `verify` accepted."""
    return int(token.partition(".")[0])
