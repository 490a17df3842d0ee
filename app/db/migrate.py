"""Run Alembic migrations from code (CLI `db upgrade`, and the server on a SQLite default)."""

from __future__ import annotations

import asyncio

from alembic import command
from alembic.config import Config

from app.settings import REPO_ROOT


def alembic_config(database_url: str) -> Config:
    config = Config(str(REPO_ROOT / "alembic.ini"))
    config.attributes["database_url"] = database_url
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Blocking; env.py runs its own event loop, so call it outside one (or in a thread)."""
    command.upgrade(alembic_config(database_url), revision)


async def upgrade_async(database_url: str, revision: str = "head") -> None:
    await asyncio.to_thread(upgrade, database_url, revision)
