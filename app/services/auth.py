"""Who is calling: API keys checked against their stored hash, briefly cached."""

from __future__ import annotations

import time

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.auth.keys import Principal, hash_key, key_id_of, matches
from app.db.repositories.api_keys import ApiKeyRepository


class KeyAuthenticator:
    """Answers from a small cache for `cache_s` seconds so a busy key costs no database round
    trip per request; revocation therefore takes effect within `cache_s` in other processes
    (at once in this one, through `forget`)."""

    MAX_CACHED = 10_000

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], cache_s: float) -> None:
        self.sessionmaker = sessionmaker
        self.cache_s = cache_s
        self._cache: dict[str, tuple[float, Principal | None]] = {}

    async def principal(self, key: str) -> Principal | None:
        key_id = key_id_of(key)
        if key_id is None:
            return None
        digest = hash_key(key)
        now = time.monotonic()
        cached = self._cache.get(digest)
        if cached is not None and cached[0] > now:
            return cached[1]
        async with self.sessionmaker() as session:
            row = await ApiKeyRepository(session).get_active(key_id)
        found = (
            Principal(tenant=row.tenant, role=row.role, key_id=row.id)  # type: ignore[arg-type]
            if row is not None and matches(key, row.key_hash)
            else None
        )
        if len(self._cache) >= self.MAX_CACHED:
            self._cache.clear()
        self._cache[digest] = (now + self.cache_s, found)
        return found

    def forget(self) -> None:
        self._cache.clear()
