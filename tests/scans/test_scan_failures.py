"""A queued scan whose run dies with an unexpected exception ends `failed`, with a `failed`
event that ends the stream (it must not keep its input and leave pollers waiting forever).

Commits for real, as tests/scans/test_product.py: the job and the SSE reader use their own
connections."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import httpx
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.resources import Resources
from app.scans.event_repository import ScanInputRepository
from app.scans.jobs import INTERNAL_ERROR
from app.verification.calibration import Calibrator
from tests.fixtures.polling import until_final
from tests.fixtures.providers import solver


async def test_unexpected_exception_ends_the_scan_failed(
    live: httpx.AsyncClient, services: Resources, monkeypatch
) -> None:
    # A calibration file whose weights do not match its features: predict() raises inside
    # QUICK_VERIFY, which nothing in the pipeline expects.
    broken = Calibrator(features=["approval_fraction", "programmatic"], weights=[1.0])
    jobs = services.queue.context.scans  # type: ignore[attr-defined]
    monkeypatch.setattr(jobs, "pipeline", replace(jobs.pipeline, calibrator=broken))

    response = await live.post(
        "/v1/scans", json={"text": "Solve 2x + 3 = 11"}, headers={"Prefer": "respond-async"}
    )
    assert response.status_code == 202, response.text
    scan = await until_final(live, response.headers["location"])
    assert (scan["state"], scan["failure_code"]) == ("failed", "internal_error")
    assert scan["solution"] is None

    # The stream ends on its own, with `failed` last and the error envelope's fields.
    stream = await asyncio.wait_for(live.get(f"{response.headers['location']}/events"), 10)
    blocks = [b for b in stream.text.strip().split("\n\n") if not b.startswith(":")]
    last = dict(line.split(": ", 1) for line in blocks[-1].splitlines())
    assert last["event"] == "failed"
    data = json.loads(last["data"])
    assert data == {"code": "internal_error", "message": INTERNAL_ERROR["en"]}

    # Nothing is left to resume: a restart does not run (and fail) it again.
    async with services.sessionmaker() as session:
        pending = await ScanInputRepository(session).pending_scan_ids()
    assert scan["id"] not in {str(p) for p in pending}


async def stream_a_running_scan(
    live: httpx.AsyncClient, with_clients
) -> tuple[str, asyncio.Task[httpx.Response]]:
    """A queued scan whose solver takes 30 s, and a stream open on it: its location and the
    stream's request, still running."""
    with_clients(solver("slow", "42", delay_s=30), symbolic=False)
    response = await live.post(
        "/v1/scans",
        json={"text": "A farmer has 6 rows of 7 trees. How many trees?"},
        headers={"Prefer": "respond-async"},
    )
    assert response.status_code == 202, response.text
    location = response.headers["location"]
    stream = asyncio.create_task(live.get(f"{location}/events"))
    await asyncio.sleep(0.5)  # the stream is open and the scan running
    assert not stream.done(), (await stream).text  # the slow solver still answers
    return location, stream


async def test_erasing_a_scan_ends_its_open_stream(live: httpx.AsyncClient, with_clients) -> None:
    """A stream open on a running scan ends when the scan is erased (it kept sending
    keep-alives until its lifetime ran out); a reconnect is told the scan is gone."""
    location, stream = await stream_a_running_scan(live, with_clients)
    assert (await live.delete(location)).status_code == 204
    ended = await asyncio.wait_for(stream, 5)
    assert ended.status_code == 200
    assert (await live.get(f"{location}/events")).status_code == 404


async def test_a_stream_whose_database_goes_away_ends_with_a_reconnect_delay(
    live: httpx.AsyncClient,
    services: Resources,
    with_clients,
    monkeypatch,
    database_away: async_sessionmaker[AsyncSession],
) -> None:
    """The response has started, so no 503 can be sent: the stream ends cleanly with the SSE
    `retry:` delay (it was cut mid-body by an unhandled error), and a reconnect with
    Last-Event-ID resumes once the database is back."""
    location, stream = await stream_a_running_scan(live, with_clients)
    present = services.sessionmaker
    monkeypatch.setattr(services, "sessionmaker", database_away)
    ended = await asyncio.wait_for(stream, 10)
    assert ended.status_code == 200
    assert ended.text.rstrip().splitlines()[-1].startswith("retry: ")
    monkeypatch.setattr(services, "sessionmaker", present)  # the database is back
    resumed = asyncio.create_task(live.get(f"{location}/events"))
    await asyncio.sleep(0.5)
    assert not resumed.done(), (await resumed).text  # polling again
    assert (await live.delete(location)).status_code == 204
    assert (await asyncio.wait_for(resumed, 5)).status_code == 200
