"""A Postgres outage in the middle of background work (issue 26, finding 2), with real
processes (its own Postgres cluster and Redis, `serve`, `worker`): jobs that meet the outage
are retried with backoff or delivered again, never failed for good, so every accepted scan
reaches `done` and every staged job completes once Postgres is back."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import httpx
import pytest

from tests.fixtures.processes import (
    PostgresCluster,
    RedisServer,
    postgres_bin,
    run_cli,
    serve,
    start_worker,
    stop,
)

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.skipif(postgres_bin() is None, reason="no Postgres server binaries"),
]
OUTAGE_S = 7


@pytest.fixture
def cluster() -> Iterator[PostgresCluster]:
    made = PostgresCluster().start()
    try:
        yield made
    finally:
        made.destroy()


def query(cluster: PostgresCluster, sql: str) -> list[asyncpg.Record]:
    async def run() -> list[asyncpg.Record]:
        connection = await asyncpg.connect(cluster.url.replace("+asyncpg", ""))
        try:
            return await connection.fetch(sql)
        finally:
            await connection.close()

    return asyncio.run(run())


def test_a_postgres_outage_fails_no_background_job(
    tmp_path: Path, cluster: PostgresCluster
) -> None:
    redis = RedisServer(tmp_path).start()
    env = {
        "SOLVEVERIFY_DATABASE_URL": cluster.url,
        "SOLVEVERIFY_REDIS_URL": redis.url,
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        "SOLVEVERIFY_WORKER_OUTBOX_POLL_S": "0.5",
        "SOLVEVERIFY_WORKER_OUTBOX_MAX_BACKOFF_S": "1",
        "SOLVEVERIFY_WORKER_OUTBOX_REDELIVER_AFTER_S": "5",
    }
    server, worker = None, None
    try:
        assert run_cli("db", "upgrade", cwd=tmp_path, env=env).returncode == 0
        server, base = serve(tmp_path, env)
        worker = start_worker(tmp_path, env)
        scans = []
        with httpx.Client(base_url=base, timeout=30) as http:
            warm = http.post(
                "/v1/scans", json={"text": "1 + 1 = ?"}, headers={"Prefer": "respond-async"}
            )
            deadline = time.monotonic() + 60  # the worker is up and running jobs
            while http.get(f"/v1/scans/{warm.json()['scan_id']}").json()["state"] != "done":
                assert time.monotonic() < deadline, "the worker never ran the first scan"
                time.sleep(0.3)
            for n in range(20):
                response = http.post(
                    "/v1/scans",
                    json={"text": f"Solve 2x + {n} = {n + 8}"},
                    headers={"Prefer": "respond-async"},
                )
                assert response.status_code == 202, response.text
                scans.append(response.json()["scan_id"])
        cluster._pg_ctl("stop", "-m", "fast")  # mid-work: jobs are running or queued
        time.sleep(OUTAGE_S)
        cluster._pg_ctl("start")

        deadline = time.monotonic() + 120
        states: dict[str, str] = {}
        while time.monotonic() < deadline:
            states = {
                str(r["id"]): r["state"] for r in query(cluster, "SELECT id, state FROM scans")
            }
            open_jobs = query(cluster, "SELECT job_id FROM outbox WHERE completed_at IS NULL")
            if all(states.get(s) == "done" for s in scans) and not open_jobs:
                break
            time.sleep(1)
        assert all(states.get(s) == "done" for s in scans), states
        assert query(cluster, "SELECT job_id FROM outbox WHERE completed_at IS NULL") == []
        given_up = query(
            cluster, "SELECT job_id FROM outbox WHERE last_error LIKE 'not completed%'"
        )
        assert given_up == []
        log = (tmp_path / "worker.log").read_text()
        assert " failed" not in log.replace("stuck-scan sweep failed", ""), log[-3000:]
    finally:
        stop(worker)
        stop(server)
        redis.stop()
