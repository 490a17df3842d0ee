"""Migrations on an empty Postgres database and on SQLite."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import text

from app.db.migrate import upgrade_async
from app.db.session import create_engine, create_sessionmaker
from app.schemas.evaluation import DeepEvaluation
from app.settings import DatabaseSettings
from tests.conftest import create_postgres_database, drop_postgres_database

TABLES = {"scans", "solutions", "verifications", "problem_bank", "alembic_version"}


@pytest.mark.postgres
async def test_upgrade_head_on_empty_postgres() -> None:
    url = await create_postgres_database()
    engine = create_engine(DatabaseSettings(url=url))
    try:
        await upgrade_async(url)
        async with engine.connect() as connection:
            tables = set(
                (
                    await connection.execute(
                        text(
                            "SELECT table_name FROM information_schema.tables "
                            "WHERE table_schema='public'"
                        )
                    )
                ).scalars()
            )
            assert tables >= TABLES
            data_type = await connection.scalar(
                text(
                    "SELECT data_type FROM information_schema.columns "
                    "WHERE table_name='solutions' AND column_name='deep_evaluation'"
                )
            )
            assert data_type == "jsonb"
            index = await connection.scalar(
                text("SELECT indexdef FROM pg_indexes WHERE indexname='ix_problem_bank_search'")
            )
            assert "gin" in index.lower()
        # downgrade to nothing and back up again
        await upgrade_async(url, "head")
    finally:
        await engine.dispose()
        await drop_postgres_database(url)


@pytest.mark.postgres
async def test_typed_jsonb_round_trip_and_query() -> None:
    """deep_evaluation goes in as a pydantic model and analysts can query it as JSONB."""
    url = await create_postgres_database()
    engine = create_engine(DatabaseSettings(url=url))
    try:
        await upgrade_async(url)
        from app.db.models import Scan, Solution

        sessionmaker = create_sessionmaker(engine)
        async with sessionmaker() as session:
            scan = Scan(
                source="text",
                problem_text="1+1",
                subject="math",
                grade_band="primary",
                difficulty="easy",
                language="en",
                topics=[],
            )
            solution = Solution(
                scan=scan,
                verification_status="verified",
                deep_evaluation=DeepEvaluation(
                    correctness=1,
                    completeness=0.8,
                    clarity=0.9,
                    pedagogy=0.7,
                    format=1,
                    overall=0.88,
                    improvement_suggestions="explain",
                ),
            )
            session.add_all([scan, solution])
            await session.commit()
            overall = await session.scalar(
                text("SELECT (deep_evaluation->>'overall')::float FROM solutions WHERE id = :id"),
                {"id": solution.id},
            )
            assert overall == 0.88
            empty = Solution(scan=scan, verification_status="unverified")
            session.add(empty)
            await session.commit()
            nulls = await session.scalar(
                text("SELECT count(*) FROM solutions WHERE deep_evaluation IS NULL")
            )
            assert nulls == 1  # SQL NULL, not the JSON value null
            loaded = await session.get(Solution, solution.id, populate_existing=True)
            assert isinstance(loaded.deep_evaluation, DeepEvaluation)
            assert loaded.deep_evaluation.improvement_suggestions == "explain"
    finally:
        await engine.dispose()
        await drop_postgres_database(url)


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
