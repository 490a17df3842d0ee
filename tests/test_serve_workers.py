"""`solveverify serve --workers 2` on Postgres, as real processes: both processes answer scans,
and the service-wide upkeep (the daily recalibration, without Redis) is queued once."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import httpx
import pytest

from solveverify_bench.fake_llm import Answer, FakeLLMServer
from solveverify_bench.perf.stack import process_tree
from tests.conftest import create_postgres_database, drop_postgres_database
from tests.fixtures.processes import run_cli, serve, stop

pytestmark = pytest.mark.postgres


def test_two_server_processes_answer_and_lead_upkeep_once(tmp_path: Path) -> None:
    url = asyncio.run(create_postgres_database())
    fake = FakeLLMServer(Answer(final_answer="4")).start()
    env = {
        "SOLVEVERIFY_DATABASE_URL": url,
        "SOLVEVERIFY_REDIS_URL": "",  # no arq cron: the servers' upkeep queues the daily job
        "SOLVEVERIFY_ANTHROPIC_API_KEY": "test",
        "SOLVEVERIFY_ANTHROPIC_BASE_URL": fake.url,
        "SOLVEVERIFY_OPENAI_API_KEY": "test",
        "SOLVEVERIFY_OPENAI_BASE_URL": f"{fake.url}/v1",
        "SOLVEVERIFY_VERIFY_ROUTING_REFRESH_S": "0.2",
        "SOLVEVERIFY_LOG_LEVEL": "INFO",
    }
    try:
        assert run_cli("db", "upgrade", cwd=tmp_path, env=env).returncode == 0
        server, base = serve(tmp_path, env, workers=2)
        try:
            with httpx.Client(base_url=base, timeout=60) as http:
                for n in range(6):
                    response = http.post("/v1/scans", json={"text": f"What is {n} + 4 - {n}?"})
                    assert response.status_code == 201, response.text
            time.sleep(2)  # about ten upkeep rounds in each process
            assert len(process_tree(server.pid)) >= 3  # the supervisor and its two servers
        finally:
            stop(server)
        log = next(tmp_path.glob("server-*.log")).read_text()
        started = set(re.findall(r"Started server process \[(\d+)\]", log))
        assert len(started) == 2, log[-3000:]
        assert log.count("queued the daily recalibration") == 1, log[-3000:]
        assert log.count("leads the upkeep") == 1, log[-3000:]
    finally:
        fake.stop()
        asyncio.run(drop_postgres_database(url))
