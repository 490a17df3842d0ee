"""API key format and hashing.

A key is `sv_<id>_<secret>`: the id (public, the row's primary key) finds the row, the secret
(32 random bytes) makes it unguessable. Only SHA-256(key) is stored; a slow password hash buys
nothing for 256-bit random secrets and would cost every request.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote_plus

# student: scans and checks of its tenant; analyst: also its tenant's analytics; platform: the
# operator's analysts, who see every tenant's analytics and the cross-tenant dashboard.
Role = Literal["student", "analyst", "platform"]
ROLES: tuple[Role, ...] = ("student", "analyst", "platform")
PREFIX = "sv_"


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: a key's tenant and role, the user a per-student token acts for (with
    the id of the key that minted it), or the anonymous caller of an open server."""

    tenant: str | None
    role: Role | None
    key_id: str | None = None
    # Set only for a per-student token (app/auth/student_tokens.py): the one user whose scans
    # and checks it may touch. A key (None here) acts for every user of its tenant.
    user_id: str | None = None

    @property
    def is_analyst(self) -> bool:
        return self.user_id is None and self.role in ("analyst", "platform")

    @property
    def is_student_token(self) -> bool:
        return self.user_id is not None

    @property
    def sees_every_tenant(self) -> bool:
        return self.user_id is None and self.role == "platform"


ANONYMOUS = Principal(tenant=None, role=None)


@dataclass(frozen=True, slots=True)
class NewKey:
    id: str
    key: str
    key_hash: str


def new_key() -> NewKey:
    key_id = secrets.token_hex(6)
    key = f"{PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
    return NewKey(id=key_id, key=key, key_hash=hash_key(key))


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def key_id_of(key: str) -> str | None:
    """The id part of a well-formed key, else None."""
    if not key.startswith(PREFIX):
        return None
    key_id, sep, secret = key[len(PREFIX) :].partition("_")
    if not sep or len(key_id) != 12 or not secret or not _is_hex(key_id):
        return None  # not one of ours: no lookup (and nothing Postgres would refuse, like NUL)
    return key_id


# A key's id anywhere in a text, in either case ("Bearer sv_…", "abcsv_…", "SV_1EE0…"): a key
# split after its id ("?a=sv_<id>&b=<secret>") still gave its secret away.
_KEY_WITHIN = re.compile(rf"{PREFIX}([0-9a-f]{{12}})(?![0-9a-f])", re.IGNORECASE)
# Percent-decodings a URL's text gets: a key encoded this many times over is still found.
_DECODINGS = 8


def as_read(url_text: str) -> str:
    """A URL's text as a reader may end up reading it: percent-decoded until it stops changing
    (up to eight times over: a key encoded twice is still a key), and only its ASCII characters
    (a key is ASCII: a zero-width space, a Hangul filler or a combining joiner inside one does
    not hide it)."""
    for _ in range(_DECODINGS):
        decoded = unquote_plus(url_text, errors="replace")
        if decoded == url_text:
            break
        url_text = decoded
    return url_text if url_text.isascii() else "".join(c for c in url_text if c.isascii())


def key_ids_within(url_text: str) -> list[str]:
    """The ids of the keys written anywhere in a URL's text (`as_read`)."""
    return list(dict.fromkeys(m.group(1).lower() for m in _KEY_WITHIN.finditer(as_read(url_text))))


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def matches(key: str, key_hash: str) -> bool:
    return hmac.compare_digest(hash_key(key), key_hash)
