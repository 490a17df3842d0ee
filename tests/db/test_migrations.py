"""Migrations on an empty Postgres database and on SQLite."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from alembic import command
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.documents import DeepEvaluation
from app.db.migrate import alembic_config, upgrade_async
from app.db.models import Scan, Solution
from app.db.session import create_engine, create_sessionmaker
from app.settings import DatabaseSettings
from tests.conftest import create_postgres_database, drop_postgres_database

TABLES = {
    "scans",
    "solutions",
    "verifications",
    "problem_bank",
    "provider_fitness",
    "alembic_version",
}


@pytest.fixture
async def empty_postgres() -> AsyncIterator[tuple[str, AsyncEngine]]:
    """A brand-new, empty Postgres database (no migrations run yet)."""
    url = await create_postgres_database()
    engine = create_engine(DatabaseSettings(url=url))
    try:
        yield url, engine
    finally:
        await engine.dispose()
        await drop_postgres_database(url)


async def _scalars(engine: AsyncEngine, sql: str) -> list:
    async with engine.connect() as connection:
        return list((await connection.execute(text(sql))).scalars())


@pytest.mark.postgres
async def test_upgrade_head_on_empty_postgres(empty_postgres) -> None:
    url, engine = empty_postgres
    await upgrade_async(url)
    tables = await _scalars(
        engine, "SELECT table_name FROM information_schema.tables WHERE table_schema='public'"
    )
    assert set(tables) >= TABLES
    assert await _scalars(
        engine,
        "SELECT data_type FROM information_schema.columns "
        "WHERE table_name='solutions' AND column_name='deep_evaluation'",
    ) == ["jsonb"]
    (index,) = await _scalars(
        engine, "SELECT indexdef FROM pg_indexes WHERE indexname='ix_problem_bank_search'"
    )
    assert "gin" in index.lower()
    # the downgrade removes everything, and the upgrade is repeatable
    await asyncio.to_thread(command.downgrade, alembic_config(url), "base")
    assert await _scalars(engine, "SELECT to_regclass('solutions')::text") == [None]
    await upgrade_async(url)
    assert await _scalars(engine, "SELECT to_regclass('solutions')::text") == ["solutions"]


@pytest.mark.postgres
async def test_typed_jsonb_round_trip_and_query(empty_postgres) -> None:
    """deep_evaluation goes in as a pydantic model and analysts can query it as JSONB."""
    url, engine = empty_postgres
    await upgrade_async(url)
    evaluation = DeepEvaluation(
        correctness=1,
        completeness=0.8,
        clarity=0.9,
        pedagogy=0.7,
        format=1,
        overall=0.88,
        improvement_suggestions="explain",
    )
    async with create_sessionmaker(engine)() as session:
        scan = Scan(
            source="text",
            problem_text="1+1",
            subject="math",
            grade_band="primary",
            difficulty="easy",
            language="en",
            topics=[],
        )
        evaluated = Solution(scan=scan, verification_status="verified", deep_evaluation=evaluation)
        pending = Solution(scan=scan, verification_status="unverified")
        session.add_all([scan, evaluated, pending])
        await session.commit()
        overall = await session.scalar(
            text("SELECT (deep_evaluation->>'overall')::float FROM solutions WHERE id = :id"),
            {"id": evaluated.id},
        )
        assert overall == 0.88
        nulls = await session.scalar(
            text("SELECT count(*) FROM solutions WHERE deep_evaluation IS NULL")
        )
        assert nulls == 1  # SQL NULL, not the JSON value null
        loaded = await session.get(Solution, evaluated.id, populate_existing=True)
    assert loaded is not None and loaded.deep_evaluation == evaluation


async def test_sqlite_upgrade_creates_fts(tmp_path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / f'{uuid.uuid4().hex}.db'}"
    await upgrade_async(url)
    await upgrade_async(url)  # idempotent: already at head
    engine = create_engine(DatabaseSettings(url=url))
    try:
        async with engine.connect() as connection:
            names = set(
                (await connection.execute(text("SELECT name FROM sqlite_master"))).scalars()
            )
        assert TABLES | {"problem_bank_fts"} <= names
    finally:
        await engine.dispose()


@pytest.mark.postgres
async def test_evidence_badge_migration_up_and_down(empty_postgres) -> None:
    """0007: solutions.model_calls, verifications.answer_model and the commented quality
    views with float rates; the downgrade to 0006 removes exactly those."""
    url, engine = empty_postgres
    await upgrade_async(url)
    views = ("v_model_quality_by_subject", "v_model_quality_by_difficulty")
    for view in views:
        assert await _scalars(engine, f"SELECT obj_description('{view}'::regclass)") != [None]
        types = dict(
            await _rows(
                engine,
                "SELECT column_name, data_type FROM information_schema.columns "
                f"WHERE table_name = '{view}'",
            )
        )
        assert types["verified_rate"] == types["quick_approve_rate"] == "double precision"
        assert "tenant" in types and "model" in types
        uncommented = await _scalars(
            engine,
            "SELECT a.attname FROM pg_attribute a "
            f"WHERE a.attrelid = '{view}'::regclass AND a.attnum > 0 "
            "AND col_description(a.attrelid, a.attnum) IS NULL",
        )
        assert uncommented == []
    assert await _scalars(
        engine,
        "SELECT column_name FROM information_schema.columns WHERE "
        "(table_name, column_name) IN (('solutions', 'model_calls'), "
        "('verifications', 'answer_model')) ORDER BY column_name",
    ) == ["answer_model", "model_calls"]
    await asyncio.to_thread(command.downgrade, alembic_config(url), "0006_api_product")
    assert await _scalars(engine, f"SELECT to_regclass('{views[0]}')::text") == [None]
    assert (
        await _scalars(
            engine,
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_name = 'solutions' AND column_name = 'model_calls'",
        )
        == []
    )
    await upgrade_async(url)
    assert await _scalars(engine, f"SELECT to_regclass('{views[0]}')::text") == [views[0]]


async def _rows(engine: AsyncEngine, sql: str) -> list:
    async with engine.connect() as connection:
        return [tuple(row) for row in await connection.execute(text(sql))]


async def test_sqlite_has_the_quality_views(tmp_path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / f'{uuid.uuid4().hex}.db'}"
    await upgrade_async(url)
    engine = create_engine(DatabaseSettings(url=url))
    try:
        async with engine.connect() as connection:
            names = set(
                (
                    await connection.execute(
                        text("SELECT name FROM sqlite_master WHERE type = 'view'")
                    )
                ).scalars()
            )
        assert {"v_model_quality_by_subject", "v_model_quality_by_difficulty"} <= names
    finally:
        await engine.dispose()
