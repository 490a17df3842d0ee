"""What the configured database can do: the product asks these questions instead of testing
the URL for a driver, so only the db layer knows which database answers what.

The embedded default is a SQLite file in the working directory; a deployment's database is
Postgres."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from app.settings import DatabaseSettings


@dataclass(frozen=True, slots=True)
class Capabilities:
    # A file the processes open themselves: whoever opens it first creates and migrates it
    # (server, CLI), not an operator's `db upgrade`, so its schema is not checked at start.
    embedded: bool
    # One writer at a time: one server process by default (more would queue on the write
    # lock), and a write that meets another's lock is retried (transaction.retry_when_locked).
    single_writer: bool


def is_embedded(url: str) -> bool:
    return url.startswith("sqlite")


def capabilities(database: DatabaseSettings) -> Capabilities:
    embedded = is_embedded(database.url)
    return Capabilities(embedded=embedded, single_writer=embedded)


def embedded_file(url: str) -> str | None:
    """The embedded database's file (None: not embedded, or in memory, one process's alone)."""
    if not is_embedded(url):
        return None
    database = make_url(url).database
    return None if not database or database == ":memory:" else database


def embedded_file_missing(url: str) -> bool:
    """An embedded database with no file here (opening it would create an empty one)."""
    return is_embedded(url) and not Path(make_url(url).database or "").is_file()
