"""Row counts of UPDATE and DELETE statements."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, Delete, Update
from sqlalchemy.ext.asyncio import AsyncSession


async def rows_changed(session: AsyncSession, statement: Update | Delete) -> int:
    """Run an UPDATE or DELETE and say how many rows it changed (`execute` is typed as
    returning a plain Result; for these statements it is a CursorResult)."""
    result = cast("CursorResult[Any]", await session.execute(statement))
    return result.rowcount
