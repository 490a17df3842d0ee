"""A queued scan's background task (`run_scan`)."""

from __future__ import annotations

import uuid
from typing import Any

from app.scans.jobs import run_queued_scan
from app.worker.context import job_context


async def run_scan(ctx: dict[str, Any], scan_id: str) -> str:
    """Solve a scan queued by `POST /v1/scans` (Prefer: respond-async, or past the deadline)."""
    jobs = job_context(ctx)
    scans = jobs.scans
    if scans is None:
        raise RuntimeError("this job context runs no scans (built without open_job_context)")
    return await run_queued_scan(
        scans,
        scans.graph,
        scans.pipeline,
        jobs.sessionmaker,
        uuid.UUID(scan_id),
        wake_outbox=jobs.wake_outbox,
    )
