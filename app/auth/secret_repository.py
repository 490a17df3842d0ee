"""Secrets shared by every process through the database. Callers own the transaction."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import SigningSecret


class SigningSecretRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def get_or_add(self, name: str, candidate: str) -> str:
        """The stored secret `name`; `candidate` becomes it when there is none yet. Processes
        racing to add one all end up with the same (the first insert wins). The write comes
        first: on SQLite a transaction that read first cannot write once another connection
        has committed."""
        try:
            async with self.session.begin_nested():
                self.session.add(SigningSecret(name=name, secret=candidate))
        except IntegrityError:
            stored = await self.session.scalar(
                select(SigningSecret.secret).where(SigningSecret.name == name)
            )
            assert stored is not None  # the row that was there first
            return stored
        return candidate
