"""An async scan survives a server that dies under it: `serve` is SIGKILLed while the scan runs
(the model is a loopback fake answering slowly), started again on the same database, and the
scan reaches `done` with its events.

Durability here is the database, not a queue: the scan's input row stays until the run stores
its result, and a starting server queues again every scan whose input is still stored (in-process
jobs; with Redis, arq keeps the job itself). So both databases are tested without Redis."""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.db.migrate import upgrade_async
from solveverify_bench.perf.run import provider_env
from solveverify_bench.perf.stack import fake_provider
from tests.conftest import create_postgres_database, drop_postgres_database
from tests.fixtures.processes import kill, serve, stop

MODEL_LATENCY_S = 2.0
# Not for the symbolic solver: a model must answer, so the run takes MODEL_LATENCY_S per call.
WORD_PROBLEM = "Tom has some apples. He gives away half and keeps the rest. How many are left?"
NODES = ("ocr", "analyze", "retrieve", "solve", "quick_verify", "enrich")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_env(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    if request.param == "sqlite":
        yield {"SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'restart.db'}"}
        return
    url = asyncio.run(create_postgres_database())
    try:
        asyncio.run(upgrade_async(url))  # `serve` migrates only SQLite on its own
        yield {"SOLVEVERIFY_DATABASE_URL": url}
    finally:
        asyncio.run(drop_postgres_database(url))


def _wait_for(
    base: str, path: str, ready: Callable[[dict[str, Any]], bool], timeout: float = 60.0
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = httpx.get(f"{base}{path}", timeout=10).json()
        if ready(body):
            return body
        time.sleep(0.1)
    raise AssertionError(f"{path} never got there: {body}")


def _events(base: str, scan_id: str) -> list[tuple[int, str]]:
    stream = httpx.get(f"{base}/v1/scans/{scan_id}/events", timeout=60)
    events = []
    for block in stream.text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "id" in fields:
            events.append((int(fields["id"]), fields["event"]))
        elif "event" in fields:  # `settled` ends the stream and carries no id
            assert fields["event"] == "settled", fields
            events.append((-1, "settled"))
    return events


def test_async_scan_survives_a_killed_server(tmp_path: Path, database_env: dict[str, str]) -> None:
    fake, fake_url = fake_provider(tmp_path, MODEL_LATENCY_S)
    env = {
        **provider_env(fake_url),
        **database_env,
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        "SOLVEVERIFY_API_EVENTS_QUIET_S": "0.5",
    }
    server: subprocess.Popen[bytes] | None
    server, base = serve(tmp_path, env)
    try:
        accepted = httpx.post(
            f"{base}/v1/scans",
            json={"text": WORD_PROBLEM},
            headers={"Prefer": "respond-async"},
            timeout=30,
        )
        assert accepted.status_code == 202, accepted.text
        scan_id = accepted.json()["scan_id"]
        # Running, and waiting on the slow model: kill the server as a machine dies.
        _wait_for(base, f"/v1/scans/{scan_id}", lambda b: b["state"] == "running")
        time.sleep(MODEL_LATENCY_S / 2)
        kill(server)
        server = None

        server, base = serve(tmp_path, env)
        scan = _wait_for(
            base, f"/v1/scans/{scan_id}", lambda b: b["state"] in ("done", "failed"), 120
        )
        assert scan["state"] == "done", scan
        assert scan["solution"]["final_answer"] == "42"  # the fake model's answer
        events = _events(base, scan_id)
    finally:
        stop(server)
        stop(fake)

    assert events[-1] == (-1, "settled"), events  # follow-ups done: the ledger is final
    events = events[:-1]
    kinds = [kind for _, kind in events]
    ids = [event_id for event_id, _ in events]
    assert ids == sorted(set(ids)), ids  # resumable ids: increasing, never reused
    assert kinds[-1] == "done" and kinds.count("done") == 1, kinds
    # The killed run had started (its first nodes are there), and the run after the restart
    # reported every node again.
    assert kinds.count("ocr") == 2, kinds
    assert list(NODES) == [k for k in kinds[-len(NODES) - 1 : -1]], kinds
