"""Which database errors mean "try later" (the database is away or cannot take the work now)
and which mean "this value cannot be stored": the one classification the HTTP error handlers
(503 + Retry-After vs 422) and the job runners (retry with backoff vs fail) share."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

# SQLSTATE class 22: data exception (a value out of range, NUL in text, bad encoding).
INVALID_VALUE_CLASS = "22"
# 08 connection exception; 57P0x shutting down / starting up; 53 insufficient resources (disk
# full, out of memory, too many connections); 40001/40P01 serialization failure / deadlock;
# 55P03 lock not available; 57014 statement timeout.
TRY_LATER_STATES = ("08", "57P", "53", "40001", "40P01", "55P03", "57014")


def sqlstate(exc: DBAPIError) -> str:
    state = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None) or ""
    return str(state)


def is_try_later(exc: BaseException) -> bool:
    """The database went away or cannot take the work now, as opposed to a bad query."""
    if isinstance(exc, DBAPIError):
        if exc.connection_invalidated or isinstance(exc, OperationalError | InterfaceError):
            return True
        return sqlstate(exc).startswith(TRY_LATER_STATES)
    # asyncpg / aiosqlite before SQLAlchemy wraps them: refused or reset connections.
    return isinstance(exc, ConnectionError | TimeoutError)


def is_invalid_value(exc: BaseException) -> bool:
    return isinstance(exc, DBAPIError) and sqlstate(exc).startswith(INVALID_VALUE_CLASS)


def is_out_of_resources(exc: BaseException) -> bool:
    """Disk full, out of memory, too many connections: clears in minutes, not a second."""
    return isinstance(exc, DBAPIError) and sqlstate(exc).startswith("53")
