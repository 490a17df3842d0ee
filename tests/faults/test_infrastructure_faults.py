"""Fault matrix, infrastructure, with real processes: Redis stopped, Postgres restarted under
load, a worker killed in the middle of a job."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg
import httpx
import pytest

from solveverify_bench.fake_llm import Answer, FakeLLMServer
from tests.conftest import REDIS_URL, create_postgres_database, drop_postgres_database
from tests.fixtures.processes import (
    PostgresCluster,
    RedisServer,
    kill,
    postgres_bin,
    run_cli,
    serve,
    start_worker,
    stop,
)

WORD_PROBLEM = "A baker fills 7 trays with 13 muffins each and sells all but {n}. How many sold?"


@pytest.fixture
def fake() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer(Answer(final_answer="86")).start()
    yield server
    server.stop()


def provider_env(fake: FakeLLMServer) -> dict[str, str]:
    return {
        "SOLVEVERIFY_ANTHROPIC_API_KEY": "test-key",
        "SOLVEVERIFY_ANTHROPIC_BASE_URL": fake.url,
        "SOLVEVERIFY_OPENAI_API_KEY": "test-key",
        "SOLVEVERIFY_OPENAI_BASE_URL": f"{fake.url}/v1",
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        "SOLVEVERIFY_WORKER_OUTBOX_POLL_S": "0.5",
        "SOLVEVERIFY_WORKER_OUTBOX_MAX_BACKOFF_S": "1",
    }


def post(base: str, n: int) -> dict:
    response = httpx.post(f"{base}/v1/scans", json={"text": WORD_PROBLEM.format(n=n)}, timeout=60)
    assert response.status_code == 201, response.text
    return response.json()


def wait_for(predicate, timeout: float, message: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.3)
    raise AssertionError(message)


@pytest.mark.redis
def test_redis_down_scans_answered_and_evaluations_delivered_later(
    tmp_path: Path, fake: FakeLLMServer
) -> None:
    redis = RedisServer(tmp_path).start()
    database = tmp_path / "solveverify.db"
    env = {**provider_env(fake), "SOLVEVERIFY_REDIS_URL": redis.url}
    server, worker = None, None
    try:
        server, base = serve(tmp_path, env)
        before = [post(base, n) for n in range(1, 3)]
        redis.stop()
        during = [post(base, n) for n in range(3, 6)]  # still answered, with the badge
        ready = httpx.get(f"{base}/readyz", timeout=10)  # a probe is told when to ask again
        assert ready.status_code == 503 and ready.headers["retry-after"] == "5", ready.headers
        assert ready.json()["checks"] == {"database": "ok", "queue": "down"}
        assert all(b["verification_status"] == "verified" for b in before + during)

        def pending() -> int:
            with sqlite3.connect(database) as db:
                return db.execute(
                    "SELECT count(*) FROM outbox WHERE delivered_at IS NULL"
                ).fetchone()[0]

        assert pending() >= 2 * len(during)  # deep_evaluate + consensus_check each
        redis.start()
        wait_for(lambda: pending() == 0, 30, "the outbox was not delivered after Redis came back")
        worker = start_worker(tmp_path, env)

        def evaluated() -> int:
            ids = [b["solution_id"].replace("-", "") for b in before + during]
            with sqlite3.connect(database) as db:
                return db.execute(
                    "SELECT count(*) FROM solutions WHERE deep_evaluation IS NOT NULL AND id IN "
                    f"({','.join('?' * len(ids))})",
                    ids,
                ).fetchone()[0]

        wait_for(
            lambda: evaluated() == len(before + during),
            90,
            f"evaluations missing:\n{(tmp_path / 'worker.log').read_text()[-3000:]}",
        )
    finally:
        stop(worker)
        stop(server)
        redis.stop()


@pytest.mark.skipif(postgres_bin() is None, reason="needs the Postgres server binaries")
def test_postgres_restart_under_load_loses_no_accepted_scan(tmp_path: Path) -> None:
    cluster = PostgresCluster().start()
    server = None
    try:
        env = {
            "SOLVEVERIFY_DATABASE_URL": cluster.url,
            "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
            "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        }
        assert run_cli("db", "upgrade", cwd=tmp_path, env=env).returncode == 0
        server, base = serve(tmp_path, env)
        accepted: list[str] = []
        statuses: list[int] = []
        stop_at = time.monotonic() + 8
        lock = threading.Lock()

        def client() -> None:
            with httpx.Client(base_url=base, timeout=30) as http:
                while time.monotonic() < stop_at:
                    try:
                        response = http.post("/v1/scans", json={"text": "Solve 2x + 3 = 11"})
                    except httpx.TransportError:
                        continue
                    with lock:
                        statuses.append(response.status_code)
                        if response.status_code == 201:
                            accepted.append(response.json()["scan_id"])

        with ThreadPoolExecutor(4) as pool:
            for _ in range(4):
                pool.submit(client)
            time.sleep(2)
            restarted_at = len(statuses)
            cluster.restart()
        assert restarted_at > 0 and len(accepted) > restarted_at  # served before and after
        assert set(statuses) <= {201, 503}, sorted(set(statuses))  # never a 500

        async def stored() -> set[str]:
            connection = await asyncpg.connect(cluster.url.replace("+asyncpg", ""))
            try:
                return {str(r["id"]) for r in await connection.fetch("SELECT id FROM scans")}
            finally:
                await connection.close()

        assert set(accepted) <= asyncio.run(stored())
    finally:
        stop(server)
        cluster.destroy()


@pytest.mark.postgres
@pytest.mark.redis
def test_worker_killed_mid_job_stores_the_evaluation_exactly_once(
    tmp_path: Path, fake: FakeLLMServer
) -> None:
    url = asyncio.run(create_postgres_database())
    env = {
        **provider_env(fake),
        "SOLVEVERIFY_DATABASE_URL": url,
        "SOLVEVERIFY_REDIS_URL": REDIS_URL,
        "SOLVEVERIFY_REDIS_QUEUE_NAME": f"faults:{uuid.uuid4().hex}",
        "SOLVEVERIFY_WORKER_JOB_TIMEOUT_S": "3",  # a dead worker's job is retried after 13 s
    }
    server, first, second = None, None, None
    try:
        assert run_cli("db", "upgrade", cwd=tmp_path, env=env).returncode == 0
        server, base = serve(tmp_path, env)
        solution_id = post(base, 5)["solution_id"]
        stop(server)

        def evaluate_calls() -> int:
            return sum("curriculum reviewer" in str(r["body"]) for r in fake.requests)

        fake.latency_s = 8  # the first worker will be killed while it waits for the model
        first = start_worker(tmp_path, env, "worker-1")
        wait_for(lambda: evaluate_calls() >= 1, 60, "the first worker never started the job")
        kill(first)
        fake.latency_s = 0
        second = start_worker(tmp_path, env, "worker-2")

        async def results() -> tuple[object, list[tuple]]:
            connection = await asyncpg.connect(url.replace("+asyncpg", ""))
            try:
                evaluation = await connection.fetchval(
                    "SELECT deep_evaluation FROM solutions WHERE id = $1::uuid", solution_id
                )
                duplicates = await connection.fetch(
                    "SELECT tier, verifier_id, answer_provider, count(*) FROM verifications "
                    "WHERE solution_id = $1::uuid AND tier <> 'quick' "
                    "GROUP BY 1, 2, 3 HAVING count(*) > 1",
                    solution_id,
                )
                return evaluation, [tuple(d) for d in duplicates]
            finally:
                await connection.close()

        wait_for(
            lambda: asyncio.run(results())[0] is not None,
            90,
            f"not evaluated:\n{(tmp_path / 'worker-2.log').read_text()[-3000:]}",
        )
        time.sleep(1)
        evaluation, duplicates = asyncio.run(results())
        assert evaluation is not None and duplicates == []
        assert evaluate_calls() >= 2  # the job really ran again after the kill
    finally:
        for process in (first, second, server):
            stop(process)
        asyncio.run(drop_postgres_database(url))
