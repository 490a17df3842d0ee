"""Erase leaves nothing (issue 26, finding 4), with real processes: `serve`, `worker`, Redis, a
loopback model that answers slowly, and Postgres. Scans holding a secret are erased at every
point of their life (just accepted, mid-run while the model thinks, answered with follow-up
jobs waiting on the model, long finished), and so is a check of worked steps; once every job
is over, no table, view or materialized view of any schema, no Redis key and no log line (at
DEBUG) holds the secret, and replaying their Idempotency-Keys returns none of it."""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
import redis

from solveverify_bench.fake_llm import Answer, FakeLLMServer, task_of
from tests.conftest import create_postgres_database, drop_postgres_database
from tests.fixtures.processes import RedisServer, run_cli, serve, start_worker, stop

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

MODEL_LATENCY_S = 1.0
# Beyond the symbolic solver: a model must answer, so the run waits on it.
WORD_PROBLEM = "Tom has some apples. He gives away half and keeps the rest. How many are left?"


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[dict[str, Any]]:
    url = asyncio.run(create_postgres_database())
    queue = RedisServer(tmp_path, persistent=False).start()
    model = FakeLLMServer(Answer(final_answer="4")).start()
    model.latency_s = MODEL_LATENCY_S  # recorded on arrival, answered this much later
    model_url = model.url
    env = {
        "SOLVEVERIFY_DATABASE_URL": url,
        "SOLVEVERIFY_REDIS_URL": queue.url,
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        "SOLVEVERIFY_ANTHROPIC_API_KEY": "test",
        "SOLVEVERIFY_ANTHROPIC_BASE_URL": model_url,
        "SOLVEVERIFY_OPENAI_API_KEY": "test",
        "SOLVEVERIFY_OPENAI_BASE_URL": f"{model_url}/v1",
        "SOLVEVERIFY_LOG_LEVEL": "DEBUG",  # the most a log could hold
        "SOLVEVERIFY_WORKER_OUTBOX_POLL_S": "0.5",
        # Every answer gets a spot panel too.
        "SOLVEVERIFY_VERIFY_HIGH_STAKES_SUBJECTS": '["math", "general"]',
    }
    server, worker = None, None
    try:
        assert run_cli("db", "upgrade", cwd=tmp_path, env=env).returncode == 0
        server, base = serve(tmp_path, env)
        worker = start_worker(tmp_path, env)
        yield {"url": url, "redis": queue, "base": base, "directory": tmp_path, "model": model}
    finally:
        stop(worker)
        stop(server)
        model.stop()
        queue.stop()
        asyncio.run(drop_postgres_database(url))


async def _relations_holding(url: str, needle: str) -> tuple[list[str], int]:
    """Every table, view and materialized view, in every schema, whose rows cast to text
    contain `needle`; and how many relations were searched."""
    connection = await asyncpg.connect(url.replace("+asyncpg", ""))
    try:
        relations = await connection.fetch(
            "SELECT n.nspname, c.relname FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f') AND n.nspname <> 'pg_toast'"
        )
        found = []
        for schema, name in relations:
            relation = f'"{schema}"."{name}"'
            try:
                hits = await connection.fetchval(
                    f"SELECT count(*) FROM {relation} t WHERE strpos(t::text, $1) > 0", needle
                )
            except asyncpg.PostgresError as exc:  # a catalog only a backend may read
                hits = 0
                assert schema == "pg_catalog", (relation, exc)
            if hits:
                found.append(relation)
        return found, len(relations)
    finally:
        await connection.close()


def relations_holding(url: str, needle: str) -> tuple[list[str], int]:
    return asyncio.run(_relations_holding(url, needle))


def outbox_open(url: str) -> int:
    async def count() -> int:
        connection = await asyncpg.connect(url.replace("+asyncpg", ""))
        try:
            return int(
                await connection.fetchval("SELECT count(*) FROM outbox WHERE completed_at IS NULL")
            )
        finally:
            await connection.close()

    return asyncio.run(count())


def redis_keys_holding(queue: RedisServer, needle: str) -> list[str]:
    found = []
    with redis.Redis(port=queue.port) as client:
        for key in client.scan_iter(count=1000):
            if needle.encode() in key or needle.encode() in (client.dump(key) or b""):
                found.append(key.decode(errors="replace"))
    return found


def wait_for_model_call(model: FakeLLMServer, task: str, text: str) -> None:
    """Until the model has been asked `task` about `text`: the call is under way."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for request in list(model.requests):
            if task_of(request["body"]) == task and text in json.dumps(request["body"]):
                return
        time.sleep(0.02)
    raise AssertionError(f"the model was never asked to {task} {text!r}")


def test_an_erased_scan_leaves_nothing_anywhere(stack: dict[str, Any]) -> None:
    secret = f"Erase-Me-{uuid.uuid4().hex[:10]}"
    model: FakeLLMServer = stack["model"]
    keys: dict[str, str] = {}
    with httpx.Client(base_url=stack["base"], timeout=60) as http:

        def post(label: str, text: str, prefer_async: bool) -> str:
            keys[label] = uuid.uuid4().hex
            headers = {"Idempotency-Key": keys[label]}
            if prefer_async:
                headers["Prefer"] = "respond-async"
            created = http.post("/v1/scans", json={"text": f"{secret} {text}"}, headers=headers)
            assert created.status_code == (202 if prefer_async else 201), created.text
            return str(created.json()["scan_id"])

        def erase(scan_id: str) -> None:
            assert http.delete(f"/v1/scans/{scan_id}").status_code == 204, scan_id
            assert http.get(f"/v1/scans/{scan_id}").status_code == 404

        # Long finished: answered, every follow-up job done, then erased.
        finished = post("finished", "solve 2x + 3 = 11", prefer_async=False)
        # Its stored first response is replayed while the scan exists.
        replay = http.post(
            "/v1/scans",
            json={"text": f"{secret} solve 2x + 3 = 11"},
            headers={"Idempotency-Key": keys["finished"]},
        )
        assert replay.headers.get("idempotent-replayed") == "true" and secret in replay.text
        deadline = time.monotonic() + 60
        while outbox_open(stack["url"]) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert outbox_open(stack["url"]) == 0
        erase(finished)

        # Answered; erased while its deep evaluation waits on the model.
        answered = post("answered", "solve 3x + 1 = 13", prefer_async=False)
        wait_for_model_call(model, "evaluate", f"{secret} solve 3x + 1 = 13")
        erase(answered)
        # Mid-run: erased while the worker waits on the model to solve it.
        running = post("running", WORD_PROBLEM, prefer_async=True)
        wait_for_model_call(model, "solve", f"{secret} {WORD_PROBLEM}")
        erase(running)
        # Just accepted: erased before (or as) the worker picks it up.
        erase(post("accepted", "solve 5x = 20", prefer_async=True))
        # A check with worked steps, erased too where it is stored (it has an id then).
        checked = http.post(
            "/v1/checks",
            json={"problem": f"{secret} 2 + 2 = ?", "answer": "4", "steps": ["2 + 2 = 4"]},
        )
        assert checked.status_code == 200, checked.text
        if checked.json().get("check_id"):
            erased = http.delete(f"/v1/checks/{checked.json()['check_id']}")
            assert erased.status_code == 204, erased.text

        # Every job of theirs runs out (each meets an erased scan or solution).
        deadline = time.monotonic() + 90
        while outbox_open(stack["url"]) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert outbox_open(stack["url"]) == 0
        time.sleep(2 * MODEL_LATENCY_S)  # a model call under way when the scan went

        found, searched = relations_holding(stack["url"], secret)
        assert searched > 100  # the app's tables and views, and the catalogs
        assert found == []
        print(f"\nerase: {searched} relations searched, none holds the text")
        assert redis_keys_holding(stack["redis"], secret) == []

        # Replaying a key runs the request anew: never the erased response.
        for label, key in keys.items():
            again = http.post(
                "/v1/scans", json={"text": "solve x + 1 = 2"}, headers={"Idempotency-Key": key}
            )
            assert again.status_code == 201, (label, again.text)
            assert "idempotent-replayed" not in again.headers
            assert secret not in again.text
    directory: Path = stack["directory"]
    logs = {p.name: p.read_text() for p in directory.glob("*.log")}
    assert [name for name, text in logs.items() if secret in text] == []
    worker_log = logs["worker.log"]
    assert "Traceback" not in worker_log, worker_log[-5000:]
    assert not re.search(r"job \S+ failed", worker_log), worker_log[-5000:]
