"""Start-up of the long-lived processes (the server's workers, `solveverify worker`): the
schema check, and heap tuning."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import sys

from app.settings import Settings

SCHEMA_NOT_AT_HEAD = 3  # the exit status when the database is not at the migration head
# Set by `serve` for its worker processes: the pid of the uvicorn supervisor that started them.
SUPERVISOR_ENV = "SOLVEVERIFY_SUPERVISOR_PID"
ORPHAN_CHECK_S = 1.0
log = logging.getLogger(__name__)


def exit_unless_at_head(settings: Settings) -> None:
    """An external database must be at the migration head before `serve` or `worker` starts
    on it: one line on stderr and exit status 3 otherwise (the database down counts too).
    The embedded database migrates itself on start, so it is not checked."""
    from app.db.capabilities import capabilities

    if capabilities(settings.database).embedded:
        return
    alembic = logging.getLogger("alembic")  # its plugin set-up lines would drown the one line
    level = alembic.level
    alembic.setLevel(logging.WARNING)
    try:
        from app.db.migrate import schema_problem

        problem = asyncio.run(schema_problem(settings.database.url))
    finally:
        alembic.setLevel(level)
    if problem is not None:
        print(f"solveverify: {problem}", file=sys.stderr, flush=True)
        raise SystemExit(SCHEMA_NOT_AT_HEAD)


def freeze_startup_heap() -> None:
    """Move what start-up loaded (sympy, LangGraph, the OCR and SDK modules: hundreds of
    thousands of objects that live as long as the process) out of the cyclic collector's
    reach, so its full passes scan only what requests allocate: about a tenth of the server's
    CPU per scan under load (`solveverify bench perf`)."""
    gc.collect()
    gc.freeze()


async def stop_when_orphaned(supervisor: int, check_s: float = ORPHAN_CHECK_S) -> None:
    """A server worker process whose supervisor died (kill -9 of `serve`) stops itself, as on
    SIGTERM: orphans kept answering on the port, and a new `serve` failed to bind it."""
    orphaned = os.getppid() != supervisor
    while not orphaned:  # nothing signals a parent's death: look now and then
        await asyncio.sleep(check_s)
        orphaned = os.getppid() != supervisor
    log.warning("the server's supervisor (pid %d) is gone: this process stops", supervisor)
    os.kill(os.getpid(), signal.SIGTERM)
