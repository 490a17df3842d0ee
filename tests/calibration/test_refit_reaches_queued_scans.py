"""A refitted calibrator reaches scans that run as jobs, not only requests: on the server's
in-process queue (the jobs share the server's pipeline context) and in a worker process (its
own context, made by the same builder), each run reads the calibrator file as it is now."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path

from app.resources import open_resources, reload_calibration
from app.settings import Settings
from app.verification.calibration import Calibrator
from app.worker.context import open_job_context
from app.worker.queue import InProcessQueue
from app.worker.tasks import TASKS
from tests.conftest import settings_for


def with_calibration(database_url: str, path: Path) -> Settings:
    settings = settings_for(database_url)
    settings.verify.calibration_path = path
    return settings


def fitted(bias: float) -> Calibrator:
    return Calibrator(features=["quick_confidence"], weights=[4.0], bias=bias,
                      threshold=0.9, target_precision=0.95)  # fmt: skip


async def test_the_in_process_queue_runs_scans_with_the_refit(
    database_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "calibration.json"
    fitted(-2.0).save(path)
    async with open_resources(with_calibration(database_url, path), migrate=False) as services:
        jobs = services.queue.context.scans  # type: ignore[attr-defined]
        assert jobs.pipeline is services.pipeline  # one context: one OCR engine, one holder
        with jobs.pipeline.for_run() as run:
            assert run.calibrator == fitted(-2.0)

        fitted(-1.25).save(path)  # `solveverify calibrate` or the daily job, meanwhile
        with jobs.pipeline.for_run() as run:
            assert run.calibrator == fitted(-1.25)  # a scan queued before the refit runs with it
        assert reload_calibration(services)  # the server's own fields follow (checks, API)
        assert services.pipeline.calibrator == fitted(-1.25)


async def test_a_worker_runs_scans_with_the_refit(database_url: str, tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    fitted(-2.0).save(path)
    settings = with_calibration(database_url, path)
    async with AsyncExitStack() as stack:
        # As the worker's startup opens it (app/worker/settings.py), with no server around.
        jobs = await open_job_context(settings, stack, InProcessQueue(TASKS))
        scans = jobs.scans
        assert scans is not None  # built with the context, its own pipeline context
        with scans.pipeline.for_run() as run:
            assert run.calibrator == fitted(-2.0)
        fitted(-1.25).save(path)
        with scans.pipeline.for_run() as run:
            assert run.calibrator == fitted(-1.25)
        path.write_text("{")  # a refit caught half written: the last good one stands
        with scans.pipeline.for_run() as run:
            assert run.calibrator == fitted(-1.25)
