"""INSERT new rows with Core, one statement per table, bypassing the ORM's unit of work.

The hot path writes a scan with its solution, verdicts, progress events and outbox jobs: about
fifteen rows, all new, whose ids are chosen in Python. The unit of work's bookkeeping (identity
map, dependency sort, per-object state) cost more CPU than the statements themselves; here the
objects are only value carriers. They stay transient: nothing of them is flushed again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import FromClause, insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import DeclarativeBase, class_mapper


def column_values(obj: DeclarativeBase) -> dict[str, Any]:
    """The object's column values, Python-side defaults filled in (and set on the object, so a
    view built from it shows what was stored). An autoincrement key is left to the database;
    relationships are ignored: set the foreign key columns."""
    row: dict[str, Any] = {}
    for attr in class_mapper(type(obj)).column_attrs:
        column = attr.columns[0]
        if attr.key in obj.__dict__:
            row[column.key] = obj.__dict__[attr.key]
        elif column.default is not None and column.default.is_scalar:
            row[column.key] = column.default.arg
        elif column.default is not None and column.default.is_callable:
            row[column.key] = column.default.arg(None)  # wrapped as fn(context)
        elif column.primary_key and column.autoincrement is not False:
            continue
        elif column.server_default is None:
            row[column.key] = None
        else:
            continue
        if attr.key not in obj.__dict__:
            setattr(obj, attr.key, row[column.key])
    return row


async def insert_new(session: AsyncSession, objects: Sequence[DeclarativeBase]) -> None:
    """INSERT `objects` (new, in foreign-key order) in the session's transaction: one
    statement per table, tables in the order they first appear."""
    by_table: dict[FromClause, list[dict[str, Any]]] = {}
    for obj in objects:
        by_table.setdefault(obj.__table__, []).append(column_values(obj))
    for table, rows in by_table.items():
        await session.execute(insert(table), rows)  # type: ignore[arg-type]  # a mapped Table
