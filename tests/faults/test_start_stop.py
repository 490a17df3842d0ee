"""Safe start and stop, with real processes: `serve` and `worker` refuse to start on a Postgres
that is not at the migration head (one line on stderr, exit status 3, at once), and a worker
sent SIGTERM while it runs a scan (the model is a loopback fake answering slowly) finishes the
scan before it exits. The worker's own /metrics listener counts the scans it ran."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import time
import uuid
from pathlib import Path

import httpx
import pytest
from alembic.script import ScriptDirectory

from app.db.migrate import alembic_config, upgrade_async
from app.process import SCHEMA_NOT_AT_HEAD
from solveverify_bench.perf.run import provider_env
from solveverify_bench.perf.stack import fake_provider
from tests.conftest import REDIS_URL, create_postgres_database, drop_postgres_database
from tests.fixtures.processes import free_port, run_cli, serve, start_worker, stop

MODEL_LATENCY_S = 1.0
GRACE_S = 60  # far more than the scan needs, even on a loaded machine
# Not for the symbolic solver: a model must answer, so the scan takes MODEL_LATENCY_S per call.
WORD_PROBLEM = "Tom has some apples. He gives away half and keeps the rest. How many are left?"


def one_revision_before_head(url: str) -> str:
    script = ScriptDirectory.from_config(alembic_config(url))
    (head,) = script.get_heads()
    before = script.get_revision(head).down_revision
    assert isinstance(before, str)
    return before


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("command", "schema"), [("worker", "empty"), ("serve", "empty"), ("worker", "behind")]
)
def test_no_start_on_a_database_not_at_the_head(tmp_path: Path, command: str, schema: str) -> None:
    url = asyncio.run(create_postgres_database())
    try:
        if schema == "behind":
            asyncio.run(upgrade_async(url, one_revision_before_head(url)))
        env = {"SOLVEVERIFY_DATABASE_URL": url, "SOLVEVERIFY_REDIS_URL": REDIS_URL}
        args = ["serve", "--port", str(free_port())] if command == "serve" else [command]
        started = time.monotonic()
        done = run_cli(*args, cwd=tmp_path, env=env)
        took = time.monotonic() - started
    finally:
        asyncio.run(drop_postgres_database(url))
    assert done.returncode == SCHEMA_NOT_AT_HEAD, done.stderr[-2000:]
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("solveverify: the database at postgresql+asyncpg://")
    assert line.endswith("run `solveverify db upgrade`")
    assert ("has no schema" if schema == "empty" else "is at revision") in line
    assert took < 30  # no pools, sandboxes or models were started first


def post_async(base: str, text: str) -> str:
    """Queue a scan (202) and return its URL."""
    accepted = httpx.post(
        f"{base}/v1/scans", json={"text": text}, headers={"Prefer": "respond-async"}, timeout=30
    )
    assert accepted.status_code == 202, accepted.text
    return f"{base}/v1/scans/{accepted.json()['scan_id']}"


def wait_for_state(scan: str, state: str, log: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while httpx.get(scan, timeout=10).json()["state"] != state:
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.1)


@pytest.mark.redis
def test_sigterm_lets_the_running_scan_finish(tmp_path: Path) -> None:
    fake, fake_url = fake_provider(tmp_path, MODEL_LATENCY_S)
    env = {
        **provider_env(fake_url),
        "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'stop.db'}",
        "SOLVEVERIFY_REDIS_URL": REDIS_URL,
        "SOLVEVERIFY_REDIS_QUEUE_NAME": f"stop:{uuid.uuid4().hex}",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        "SOLVEVERIFY_VERIFY_SYMBOLIC_WORKERS": "1",
        "SOLVEVERIFY_WORKER_SHUTDOWN_GRACE_S": str(GRACE_S),
        "SOLVEVERIFY_LOG_LEVEL": "INFO",
        "SOLVEVERIFY_METRICS_WORKER_PORT": str(metrics_port := free_port()),
        "PYTHONFAULTHANDLER": "1",  # a worker that does not exit dumps its threads (SIGABRT)
    }
    server: subprocess.Popen[bytes] | None = None
    worker: subprocess.Popen[bytes] | None = None
    log = tmp_path / "worker.log"
    try:
        server, base = serve(tmp_path, env)
        worker = start_worker(tmp_path, env)
        # A queued scan runs in the worker, which counts it on its own listener.
        first = post_async(base, "Solve 2x + 3 = 11")
        wait_for_state(first, "done", log)
        scraped = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10).text
        assert 'solveverify_scans_total{badge="verified",method="programmatic"} 1.0' in scraped

        scan = post_async(base, WORD_PROBLEM)
        wait_for_state(scan, "running", log)
        worker.send_signal(signal.SIGTERM)  # mid-scan: each model call takes 1 s
        signalled = time.monotonic()
        assert httpx.get(scan, timeout=10).json()["state"] == "running"
        try:
            assert worker.wait(timeout=GRACE_S + 30) == 0, log.read_text()[-3000:]
        except subprocess.TimeoutExpired:
            worker.send_signal(signal.SIGABRT)
            worker.wait(timeout=10)
            raise AssertionError("the worker did not exit:\n" + log.read_text()[-8000:]) from None
        took = time.monotonic() - signalled
        body = httpx.get(scan, timeout=10).json()
        assert body["state"] == "done", log.read_text()[-3000:]
        assert body["solution"]["final_answer"], body
        assert took < GRACE_S  # it left once the scan was done, not at the end of the grace
        finishing = re.search(r"SIGTERM: finishing (\d+) running job", log.read_text())
        assert finishing is not None and int(finishing[1]) >= 1
    finally:
        stop(worker)
        stop(server)
        stop(fake)
