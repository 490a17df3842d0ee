"""Queued scans at the edges of their life: erased while the job runs (the job stops quietly,
no IntegrityError logged), and lost with their job (the sweeper queues them again and they
complete). In process, on SQLite and Postgres; commits for real (the job uses its own
connections)."""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import update

from app.db.models import OutboxMessage, Scan, ScanInput
from app.db.models._columns import utcnow
from app.resources import Resources
from app.scans import jobs as scan_jobs
from app.scans.repository import ScanRepository
from app.scans.service import ScanRequest, accept_scan
from app.scans.sweeper import requeue_stuck_scans


async def _queued_scan_without_job(services: Resources, text: str, age_s: float = 0) -> uuid.UUID:
    """A scan accepted (202) whose run_scan job never reaches any queue: as if it was handed
    to a Redis that then died."""
    async with services.sessionmaker() as session:
        scan = accept_scan(session, ScanRequest(text=text))
        for staged in [o for o in session.new if isinstance(o, OutboxMessage)]:
            session.expunge(staged)
        await session.flush()
        stored_at = utcnow() - timedelta(seconds=age_s)
        await session.execute(
            update(ScanInput).where(ScanInput.scan_id == scan.id).values(created_at=stored_at)
        )
        await session.commit()
        return scan.id


async def _state(services: Resources, scan_id: uuid.UUID) -> str | None:
    async with services.sessionmaker() as session:
        scan = await session.get(Scan, scan_id)
        return None if scan is None else scan.state


async def test_a_scan_erased_while_its_job_runs_stops_the_job_quietly(
    services: Resources, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    scan_id = await _queued_scan_without_job(services, "Solve 2x + 3 = 11")

    async def erased_mid_run(*_: Any, on_node: Any, **__: Any) -> Any:
        async with services.sessionmaker() as session:  # DELETE /v1/scans/{id} meanwhile
            assert await ScanRepository(session).erase_scan(scan_id, None)
            await session.commit()
        await on_node("ocr", {"node": "ocr"})  # the next progress event has no scan any more
        raise AssertionError("the job should have stopped")

    monkeypatch.setattr(scan_jobs, "run_request", erased_mid_run)
    with caplog.at_level(logging.INFO):
        outcome = await scan_jobs.run_queued_scan(
            services, services.graph, services.pipeline, services.sessionmaker, scan_id
        )
    assert outcome == "erased"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "IntegrityError" not in caplog.text
    assert await _state(services, scan_id) is None


async def test_an_outage_mid_run_is_retried_not_failed(
    services: Resources, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A progress event's commit that meets the database away (a transient error) ends the try,
    not the scan: the queue runs the job again with its input kept."""
    scan_id = await _queued_scan_without_job(services, "Solve 6x = 42 (outage)")

    async def outage_mid_run(*_: Any, on_node: Any, **__: Any) -> Any:
        raise ConnectionRefusedError("the database is restarting")

    monkeypatch.setattr(scan_jobs, "run_request", outage_mid_run)
    with caplog.at_level(logging.INFO), pytest.raises(ConnectionRefusedError):
        await scan_jobs.run_queued_scan(
            services, services.graph, services.pipeline, services.sessionmaker, scan_id
        )
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert await _state(services, scan_id) == "running"  # not failed: the next try runs it
    async with services.sessionmaker() as session:
        assert await session.get(ScanInput, scan_id) is not None
        await ScanRepository(session).erase_scan(scan_id, None)  # tidy
        await session.commit()


async def test_a_stuck_scan_is_queued_again_and_completes(services: Resources) -> None:
    stuck = await _queued_scan_without_job(services, "Solve 3x = 12", age_s=3600)
    recent = await _queued_scan_without_job(services, "Solve 4x = 12")

    assert await requeue_stuck_scans(services.sessionmaker, services.queue, 600) >= 1
    # The same job id while the queue still holds it is refused: never run twice at once.
    assert not await services.queue.enqueue("run_scan", str(stuck), job_id=f"run_scan:{stuck}")
    await services.queue.join()  # type: ignore[attr-defined]

    assert await _state(services, stuck) == "done"
    assert await _state(services, recent) == "queued"  # not stuck yet: left alone
    assert await requeue_stuck_scans(services.sessionmaker, services.queue, 600) == 0
    async with services.sessionmaker() as session:  # tidy: the recent one is not for others
        await ScanRepository(session).erase_scan(recent, None)
        await session.commit()
