"""Secrets every process of the service signs with alike: the configured one, or else one
generated once and kept in the database (table signing_secrets), which every server process
and host shares, restarts included. The first process to need it inserts it; racing processes
all read back the first insert."""

from __future__ import annotations

import asyncio
import secrets

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.auth.secret_repository import SigningSecretRepository
from app.db.transaction import transaction

DASHBOARD_SECRET_NAME = "dashboard"  # dashboard links and login cookies (app/auth/dashboard_tokens)


class StoredSecret:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        name: str,
        configured: str | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.name = name
        self._value = configured or None
        self._lock = asyncio.Lock()

    async def get(self) -> str:
        """The secret; read from (or first written to) the database once per process."""
        if self._value is not None:
            return self._value
        async with self._lock:
            if self._value is None:
                async with transaction(self.sessionmaker) as session:
                    stored = await SigningSecretRepository(session).get_or_add(
                        self.name, secrets.token_hex(32)
                    )
                self._value = stored
        return self._value
