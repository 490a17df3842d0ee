"""The worker and a Redis of the test's own that dies (kill -9): the worker rides out the
outage and goes on when Redis is back; jobs already handed to a Redis without persistence
(and lost with it), `run_scan` and every follow-up job alike, are delivered again by the
outbox until they complete. Real processes: `serve`, `worker`, redis-server."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from arq import create_pool
from arq.connections import RedisSettings
from arq.worker import Worker, func

from app.worker.runner import run_until_stopped
from tests.fixtures.processes import RedisServer, serve, start_worker, stop

pytestmark = pytest.mark.redis


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path, persistent=False).start()
    yield server
    server.stop()


def stack_env(tmp_path: Path, redis: RedisServer) -> dict[str, str]:
    return {
        "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'solveverify.db'}",
        "SOLVEVERIFY_REDIS_URL": redis.url,
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        "SOLVEVERIFY_WORKER_OUTBOX_POLL_S": "0.5",
        "SOLVEVERIFY_WORKER_OUTBOX_MAX_BACKOFF_S": "1",
        "SOLVEVERIFY_WORKER_REDIS_RETRY_MAX_S": "1",
        "SOLVEVERIFY_WORKER_STUCK_SCAN_AFTER_S": "3",
        # Jobs handed to Redis and lost with it come back from the outbox after this long.
        "SOLVEVERIFY_WORKER_OUTBOX_REDELIVER_AFTER_S": "3",
        "SOLVEVERIFY_WORKER_STUCK_SCAN_SWEEP_S": "1",
    }


def post_async(base: str, n: int) -> str:
    response = httpx.post(
        f"{base}/v1/scans",
        json={"text": f"Solve 2x + {n} = {n + 8}"},
        headers={"Prefer": "respond-async"},
        timeout=30,
    )
    assert response.status_code == 202, response.text
    return response.json()["scan_id"]


def wait_done(base: str, scan_ids: list[str], timeout: float, log: Path) -> None:
    deadline = time.monotonic() + timeout
    states: dict[str, str] = {}
    while time.monotonic() < deadline:
        states = {
            s: httpx.get(f"{base}/v1/scans/{s}", timeout=10).json()["state"] for s in scan_ids
        }
        if all(state == "done" for state in states.values()):
            return
        time.sleep(0.5)
    raise AssertionError(f"not done: {states}\n{log.read_text()[-3000:]}")


def test_the_worker_survives_a_redis_outage(tmp_path: Path, redis: RedisServer) -> None:
    env = stack_env(tmp_path, redis)
    server, worker = None, None
    log = tmp_path / "worker.log"
    try:
        server, base = serve(tmp_path, env)
        worker = start_worker(tmp_path, env)
        wait_done(base, [post_async(base, 1), post_async(base, 2), post_async(base, 3)], 90, log)
        redis.kill()
        # Scans accepted meanwhile wait in the outbox; the worker's relay keeps trying.
        waiting = [post_async(base, n) for n in range(4, 8)]
        time.sleep(4)
        assert worker.poll() is None, f"the worker exited:\n{log.read_text()[-3000:]}"
        redis.start()
        wait_done(base, [*waiting, post_async(base, 8)], 90, log)
        # past the worker's stable time (6 s) the recovery is logged; on a loaded machine later
        started = time.monotonic()
        while "Redis is reachable again" not in log.read_text() and time.monotonic() < started + 30:
            time.sleep(0.5)
        time.sleep(max(0.0, started + 6 - time.monotonic()))
        text = log.read_text()
        # One line when the outage starts and one when it ends, however the restart flaps.
        assert text.count("Redis is unreachable") == 1, text[-3000:]
        assert text.count("Redis is reachable again") == 1, text[-3000:]
        assert text.count("queue unavailable") <= 1, text[-3000:]
        assert text.count("queue reachable again") <= 1, text[-3000:]
        assert "Traceback" not in text, text[-3000:]
    finally:
        stop(worker)
        stop(server)


def test_scans_lost_with_redis_are_swept_back_and_finish(
    tmp_path: Path, redis: RedisServer
) -> None:
    env = stack_env(tmp_path, redis)
    server, worker = None, None
    try:
        server, base = serve(tmp_path, env)
        scans = [post_async(base, n) for n in range(1, 6)]  # no worker yet: jobs wait in Redis

        def handed_to_redis() -> bool:
            with sqlite3.connect(tmp_path / "solveverify.db") as db:
                return not db.execute(
                    "SELECT count(*) FROM outbox WHERE task = 'run_scan' AND delivered_at IS NULL"
                ).fetchone()[0]

        deadline = time.monotonic() + 20
        while not handed_to_redis() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert handed_to_redis()
        redis.kill()  # not persistent: the five run_scan jobs are gone
        redis.start()
        worker = start_worker(tmp_path, env)
        wait_done(base, scans, 90, tmp_path / "worker.log")
    finally:
        stop(worker)
        stop(server)


def outbox_rows(tmp_path: Path) -> list[tuple[str, str | None, str | None, int]]:
    with sqlite3.connect(tmp_path / "solveverify.db") as db:
        return db.execute(
            "SELECT job_id, delivered_at, completed_at, deliveries FROM outbox ORDER BY id"
        ).fetchall()


def test_follow_up_jobs_lost_with_redis_are_delivered_again(
    tmp_path: Path, redis: RedisServer
) -> None:
    """Finding 3: solutions whose deep evaluation, consensus and spot check were waiting in a
    Redis that restarted without its data still get each of them, exactly once."""
    env = stack_env(tmp_path, redis)
    server, worker = None, None
    try:
        server, base = serve(tmp_path, env)
        for n in range(1, 5):  # solved at once; their follow-ups go to Redis (no worker yet)
            created = httpx.post(
                f"{base}/v1/scans", json={"text": f"Solve 3x + {n} = {n + 9}"}, timeout=30
            )
            assert created.status_code == 201, created.text
        deadline = time.monotonic() + 20
        while any(r[1] is None for r in outbox_rows(tmp_path)) and time.monotonic() < deadline:
            time.sleep(0.2)
        staged = outbox_rows(tmp_path)
        assert len(staged) >= 8 and all(r[1] is not None for r in staged), staged
        redis.kill()  # not persistent: every follow-up job is gone
        redis.start()
        worker = start_worker(tmp_path, env)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            rows = outbox_rows(tmp_path)
            if all(r[2] is not None for r in rows):
                break
            time.sleep(0.5)
        rows = outbox_rows(tmp_path)
        assert all(r[2] is not None for r in rows), rows
        assert {r[3] for r in rows} == {2}, rows  # each delivered once more, then completed
        text = (tmp_path / "worker.log").read_text()
        for job_id, *_ in rows:  # ran exactly once: the second delivery
            assert text.count(f"← {job_id}@1:") == 1 and f"← {job_id}:" not in text, job_id
    finally:
        stop(worker)
        stop(server)


async def test_jobs_cut_off_by_the_outage_do_not_slow_the_recovered_worker(
    tmp_path: Path, redis: RedisServer
) -> None:
    """Jobs whose result could not be written while Redis was down fail in arq's bookkeeping;
    arq's poll loop re-raised each one's error, one per restart, so a recovered Redis was
    served a batch of jobs per restart while the backoff grew (a tester's 15 s outage under
    load took 278 s to clear). They are dropped with the outage: fresh jobs run at once."""
    settings = RedisSettings.from_dsn(redis.url)
    fresh: list[int] = []
    all_fresh_done = asyncio.Event()

    async def job(ctx: dict[str, Any], n: int) -> None:
        if n < 100:  # running when Redis dies: its result cannot be written
            await asyncio.sleep(1.5)
            return
        fresh.append(n)
        if len(fresh) == 200:
            all_fresh_done.set()

    worker = Worker(
        functions=[func(job, name="job")],
        redis_settings=settings,
        poll_delay=0.05,
        max_jobs=20,
        handle_signals=False,
    )
    client = await create_pool(settings)
    for n in range(20):
        await client.enqueue_job("job", n)
    await client.aclose()
    runner = asyncio.create_task(
        run_until_stopped(worker, retry_max_s=30, first_delay_s=4, stable_s=1)
    )
    try:
        await asyncio.sleep(0.7)
        redis.kill()
        await asyncio.sleep(2.5)  # the running jobs end meanwhile, their results unwritten
        redis.start()
        client = await create_pool(settings)
        for n in range(100, 300):
            await client.enqueue_job("job", n)
        await client.aclose()
        # Before: a restart for each cut-off job (after 4 s, then 8 s, ...), 20 jobs each.
        await asyncio.wait_for(all_fresh_done.wait(), timeout=6)
    finally:
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner
            await worker.close()  # cancels the last jobs' bookkeeping
