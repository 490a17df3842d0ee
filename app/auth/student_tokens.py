"""Per-student tokens: what an app's browser or phone holds instead of the tenant's API key.

The school's backend (holding the tenant key) mints one with POST /v1/tokens for one of its
users; the token acts for that user only (their scans and checks), within the key's tenant,
until it expires. Its form is `svt_<claims>.<signature>`: the claims are base64url JSON
`[version, tenant, user_id, key_id, expires]` and the signature the HMAC of the shared
machinery (app/auth/signing.py, purpose `student`) over them, so every character is safe in a
URL, a header and a cookie. Its lifetime is fixed at issue: nothing exchanges a token for a
fresher one. The server checks on every use that the minting key is still active (revoking the
key ends its tokens) and still the token's tenant's.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from dataclasses import dataclass

from app.auth import signing

PREFIX = "svt_"
_PURPOSE = "student"
_VERSION = 1
# A tenant (64), a user id (128) and a key id in JSON, base64url, with the signature: far
# below this. Anything longer is not one of ours and is refused before it is decoded.
MAX_TOKEN_CHARS = 1024


@dataclass(frozen=True, slots=True)
class Claims:
    tenant: str
    user_id: str
    key_id: str
    expires: int  # Unix time


def looks_like_token(credential: str) -> bool:
    return credential.startswith(PREFIX)


def issue(secret: bytes, claims: Claims) -> str:
    payload = [_VERSION, claims.tenant, claims.user_id, claims.key_id, claims.expires]
    body = signing.b64url(json.dumps(payload, separators=(",", ":")).encode())
    return f"{PREFIX}{body}.{signing.mac(secret, _PURPOSE, body)}"


def read(secret: bytes, token: str) -> Claims | None:
    """The claims of a token this server signed (expired or not); None for anything else
    (malformed, another secret's, tampered): never an exception."""
    if not looks_like_token(token) or len(token) > MAX_TOKEN_CHARS or not token.isascii():
        return None
    body, dot, signature = token[len(PREFIX) :].partition(".")
    if not dot or not signing.signature_matches(secret, _PURPOSE, body, signature):
        return None
    # Signed by us: the claims are ours, but parse them defensively all the same.
    try:
        payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (ValueError, binascii.Error):
        return None
    if not (isinstance(payload, list) and len(payload) == 5 and payload[0] == _VERSION):
        return None
    _, tenant, user_id, key_id, expires = payload
    if not all(isinstance(v, str) and v for v in (tenant, user_id, key_id)):
        return None
    if not isinstance(expires, int) or isinstance(expires, bool):
        return None
    return Claims(tenant=tenant, user_id=user_id, key_id=key_id, expires=expires)


def expired(claims: Claims, now: float | None = None) -> bool:
    return claims.expires <= (time.time() if now is None else now)
