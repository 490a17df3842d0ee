"""Run Alembic migrations from code (CLI `db upgrade`, and the server on a SQLite default), and
check that a database is at the head before `serve` or `worker` starts on it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url

from app.db.session import create_engine
from app.settings import DatabaseSettings

# The scripts ship inside the package (package data), so an installed wheel migrates without a
# checkout; the root alembic.ini points at the same folder for the `alembic` CLI.
SCRIPT_LOCATION = Path(__file__).resolve().with_name("migrations")


def alembic_config(database_url: str) -> Config:
    """Built in code, not from alembic.ini: the ini file is not part of an installed package."""
    config = Config()
    # Options are ConfigParser values: a literal % in the path must be doubled.
    config.set_main_option("script_location", str(SCRIPT_LOCATION).replace("%", "%%"))
    config.attributes["database_url"] = database_url
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Blocking; env.py runs its own event loop, so call it outside one (or in a thread)."""
    command.upgrade(alembic_config(database_url), revision)


async def upgrade_async(database_url: str, revision: str = "head") -> None:
    await asyncio.to_thread(upgrade, database_url, revision)


CHECK_TIMEOUT_S = 15.0


async def schema_problem(database_url: str) -> str | None:
    """None when the database is at the migration head; otherwise one line saying what is
    wrong and what to do (`serve` and `worker` exit with it on an external database)."""
    where = make_url(database_url).render_as_string(hide_password=True)
    script = ScriptDirectory.from_config(alembic_config(database_url))
    heads = set(script.get_heads())
    engine = create_engine(DatabaseSettings(url=database_url))
    try:
        async with asyncio.timeout(CHECK_TIMEOUT_S), engine.connect() as connection:
            current = set(
                await connection.run_sync(
                    lambda sync: MigrationContext.configure(sync).get_current_heads()
                )
            )
    except Exception as exc:
        return f"cannot check the database schema at {where}: {type(exc).__name__}: {exc}"[:500]
    finally:
        await engine.dispose()
    if current == heads:
        return None
    need = ", ".join(sorted(heads))
    if not current:
        return f"the database at {where} has no schema (needs {need}): run `solveverify db upgrade`"
    at = ", ".join(sorted(current))
    if not all(_known(script, revision) for revision in current):
        return (
            f"the database at {where} is at revision {at}, which this release does not know "
            f"(a newer release migrated it?); this release needs {need}"
        )
    return (
        f"the database at {where} is at revision {at}, this release needs {need}: "
        "run `solveverify db upgrade`"
    )


def _known(script: ScriptDirectory, revision: str) -> bool:
    try:
        return script.get_revision(revision) is not None
    except Exception:  # alembic's ResolutionError and kin: not a revision of this release
        return False
