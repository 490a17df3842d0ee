"""Who is calling: API keys checked against their stored hash, briefly cached."""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Generic, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.auth.keys import Principal, hash_key, key_id_of, matches
from app.db.repositories.api_keys import ApiKeyRepository
from app.settings import AuthSettings

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
    ) -> None:
        self.sessionmaker = sessionmaker
        self.cache_s = cache_s
        self.valid: ExpiringLru[Principal] = ExpiringLru(max_cached, cache_s)
        self.unknown: ExpiringLru[bool] = ExpiringLru(max_cached_unknown, cache_s)
        self.lookups = 0  # database round trips, for tests and metrics

    @classmethod
    def from_settings(
        cls, sessionmaker: async_sessionmaker[AsyncSession], auth: AuthSettings
    ) -> KeyAuthenticator:
        return cls(
            sessionmaker,
            auth.key_cache_s,
            max_cached=auth.max_cached_keys,
            max_cached_unknown=auth.max_cached_unknown_keys,
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
        async with self.sessionmaker() as session:
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
