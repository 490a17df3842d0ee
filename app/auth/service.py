"""Who is calling: API keys checked against their stored hash, briefly cached; per-student
tokens checked against their signature, their expiry and the key that minted them."""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections import OrderedDict
from enum import Enum
from typing import Generic, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.auth import student_tokens
from app.auth.key_repository import ApiKeyRepository
from app.auth.keys import Principal, hash_key, key_id_of, matches
from app.auth.secret_repository import SigningSecretRepository
from app.db.transaction import reading, transaction
from app.settings import AuthSettings

# The row of signing_secrets that signs per-student tokens when no secret is configured.
TOKEN_SECRET_NAME = "student_tokens"


class TokenRefusal(Enum):
    """Why a per-student token is refused: `invalid` (malformed, not signed by this service,
    or its minting key revoked or moved) or `expired` (ours and intact, but past its expiry:
    the app mints a new one)."""

    invalid = "invalid"
    expired = "expired"


V = TypeVar("V")


class ExpiringLru(Generic[V]):
    """At most `capacity` entries, each valid for `ttl_s`; the least recently used goes first."""

    def __init__(self, capacity: int, ttl_s: float) -> None:
        self.capacity = capacity
        self.ttl_s = ttl_s
        self._entries: OrderedDict[str, tuple[float, V]] = OrderedDict()

    def get(self, key: str) -> V | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry[0] <= time.monotonic():
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return entry[1]

    def put(self, key: str, value: V) -> None:
        if self.capacity <= 0 or self.ttl_s <= 0:
            return
        self._entries[key] = (time.monotonic() + self.ttl_s, value)
        self._entries.move_to_end(key)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class KeyAuthenticator:
    """Answers from small caches for `cache_s` seconds so a busy key costs no database round
    trip per request; revocation therefore takes effect within `cache_s` in other processes
    (at once in this one, through `forget`).

    Valid keys and failures live in separate bounded caches: a flood of bogus keys can only
    push out other bogus keys, never make every real client pay a lookup again. A failure is
    remembered by key id when the id does not exist, else by the key's hash (wrong secret).
    """

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        cache_s: float,
        *,
        max_cached: int = 10_000,
        max_cached_unknown: int = 10_000,
        token_secret: str | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.cache_s = cache_s
        self.valid: ExpiringLru[Principal] = ExpiringLru(max_cached, cache_s)
        self.unknown: ExpiringLru[bool] = ExpiringLru(max_cached_unknown, cache_s)
        # Minting keys by id (a token's key must still be active): active ones, and ids that
        # are not (revoked or unknown), each for cache_s, as keys themselves.
        self.minting_keys: ExpiringLru[Principal] = ExpiringLru(max_cached, cache_s)
        self.inactive_keys: ExpiringLru[bool] = ExpiringLru(max_cached_unknown, cache_s)
        # Whether the server has any active key (an open server is then no longer one tenant's).
        self._keys_exist: ExpiringLru[bool] = ExpiringLru(1, cache_s)
        self.lookups = 0  # database round trips, for tests and metrics
        self._token_secret = token_secret.encode() if token_secret else None
        self._token_secret_lock = asyncio.Lock()

    @classmethod
    def from_settings(
        cls, sessionmaker: async_sessionmaker[AsyncSession], auth: AuthSettings
    ) -> KeyAuthenticator:
        return cls(
            sessionmaker,
            auth.key_cache_s,
            max_cached=auth.max_cached_keys,
            max_cached_unknown=auth.max_cached_unknown_keys,
            token_secret=auth.token_secret.get_secret_value() if auth.token_secret else None,
        )

    async def principal(self, key: str) -> Principal | None:
        key_id = key_id_of(key)
        if key_id is None:
            return None
        digest = hash_key(key)
        cached = self.valid.get(digest)
        if cached is not None:
            return cached
        if self.unknown.get(f"id:{key_id}") or self.unknown.get(f"key:{digest}"):
            return None
        self.lookups += 1
        async with reading(self.sessionmaker) as session:
            row = await ApiKeyRepository(session).get_active(key_id)
        if row is None:
            self.unknown.put(f"id:{key_id}", True)
            return None
        if not matches(key, row.key_hash):
            self.unknown.put(f"key:{digest}", True)
            return None
        found = Principal(tenant=row.tenant, role=row.role, key_id=row.id)  # type: ignore[arg-type]  # roles are only ever written from ROLES
        self.valid.put(digest, found)
        return found

    def forget(self) -> None:
        self.valid.clear()
        self.unknown.clear()
        self._keys_exist.clear()
        self.minting_keys.clear()
        self.inactive_keys.clear()

    # ------------------------------------------------------------ per-student tokens

    async def token_secret(self) -> bytes:
        """The secret tokens are signed with, the same in every process: the configured one,
        else the one kept in the database (generated by the first process to need it)."""
        if self._token_secret is not None:
            return self._token_secret
        async with self._token_secret_lock:
            if self._token_secret is None:
                async with transaction(self.sessionmaker) as session:
                    stored = await SigningSecretRepository(session).get_or_add(
                        TOKEN_SECRET_NAME, secrets.token_hex(32)
                    )
                self._token_secret = bytes.fromhex(stored)
        return self._token_secret

    async def mint(self, minter: Principal, user_id: str, ttl_s: int) -> tuple[str, int]:
        """A token for `user_id` of the minting key's tenant, and its expiry (Unix time)."""
        assert minter.key_id is not None and minter.tenant is not None
        assert not minter.is_student_token
        expires = math.ceil(time.time()) + ttl_s  # at least ttl_s from now
        claims = student_tokens.Claims(minter.tenant, user_id, minter.key_id, expires)
        return student_tokens.issue(await self.token_secret(), claims), expires

    async def token_principal(self, token: str) -> Principal | TokenRefusal:
        """The user a token acts for, or why it is refused. Signature first (nothing of a
        forged token is believed, its expiry included), then expiry, then its minting key:
        still active, and still of the token's tenant."""
        claims = student_tokens.read(await self.token_secret(), token)
        if claims is None:
            return TokenRefusal.invalid
        if student_tokens.expired(claims):
            return TokenRefusal.expired
        minter = await self.active_key(claims.key_id)
        if minter is None or minter.tenant != claims.tenant:
            return TokenRefusal.invalid
        return Principal(
            tenant=claims.tenant, role="student", key_id=claims.key_id, user_id=claims.user_id
        )

    async def keys_exist(self) -> bool:
        """Whether any API key is active (cached for cache_s, as keys are)."""
        cached = self._keys_exist.get("any")
        if cached is not None:
            return cached
        async with reading(self.sessionmaker) as session:
            found = await ApiKeyRepository(session).any_active()
        self._keys_exist.put("any", found)
        return found

    async def active_key(self, key_id: str) -> Principal | None:
        """The active key `key_id` (a token's minter, a dashboard session's platform key)."""
        cached = self.minting_keys.get(key_id)
        if cached is not None:
            return cached
        if self.inactive_keys.get(key_id):
            return None
        self.lookups += 1
        async with reading(self.sessionmaker) as session:
            row = await ApiKeyRepository(session).get_active(key_id)
        if row is None:
            self.inactive_keys.put(key_id, True)
            return None
        found = Principal(tenant=row.tenant, role=row.role, key_id=row.id)  # type: ignore[arg-type]  # roles are only ever written from ROLES
        self.minting_keys.put(key_id, found)
        return found
