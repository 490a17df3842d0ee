"""Throwaway Postgres databases for tests, benchmarks and fault drills (never the app's own)."""

from __future__ import annotations

import uuid

import asyncpg


async def create_database(admin_url: str, prefix: str) -> str:
    """A fresh Postgres database next to `admin_url`'s; its SQLAlchemy (asyncpg) URL."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(admin_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    base = admin_url.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
    return f"{base}/{name}"


async def drop_database(admin_url: str, url: str) -> None:
    admin = await asyncpg.connect(admin_url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
    finally:
        await admin.close()
