"""Alembic environment (async). The database URL comes from settings or the caller."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from app.db.base import Base
from app.db.models import *  # noqa: F403  (register every table on the metadata)
from app.db.session import create_engine
from app.settings import DatabaseSettings

config = context.config
target_metadata = Base.metadata


def _database_settings() -> DatabaseSettings:
    url = config.attributes.get("database_url") or config.get_main_option("sqlalchemy.url")
    return DatabaseSettings(url=url) if url else DatabaseSettings()


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = create_engine(_database_settings())
    async with engine.connect() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


if context.is_offline_mode():
    context.configure(
        url=_database_settings().url, target_metadata=target_metadata, literal_binds=True
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_run_async())
