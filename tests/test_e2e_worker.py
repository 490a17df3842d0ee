"""Acceptance, with real processes: `solveverify serve` + `solveverify worker` on Postgres and
Redis, the local model evaluating in the background, views, dashboard and routing."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from pathlib import Path

import asyncpg
import httpx
import pytest

from app.llm.providers.llamacpp import llama_cpp_available
from tests.conftest import REDIS_URL, create_postgres_database, drop_postgres_database
from tests.fixtures.processes import run_cli, serve, start_worker, stop

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.skipif(
        not llama_cpp_available() and not os.environ.get("CI"),
        reason="needs the `local` extra for the evaluating model",
    ),
]


async def seed_physics(url: str) -> None:
    """Enough physics answers to make routing prefer llamacpp over symbolic."""
    connection = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        for provider, status in [("llamacpp", "verified")] * 4 + [("symbolic", "caution")] * 4:
            scan_id, solution_id = uuid.uuid4(), uuid.uuid4()
            await connection.execute(
                "INSERT INTO scans (id, created_at, source, problem_text, subject, grade_band, "
                "difficulty, language, topics) VALUES ($1, now(), 'text', 'p', 'physics', "
                "'middle', 'easy', 'en', '[]')",
                scan_id,
            )
            await connection.execute(
                "INSERT INTO solutions (id, created_at, scan_id, provider, model, steps, "
                "verification_status, verification_confidence, attempts, providers_tried, "
                "knowledge_points, latency_ms) VALUES ($1, now(), $2, $3, 'm', '[]', $4, 0.9, 1, "
                "'[]', '[]', 0)",
                solution_id,
                scan_id,
                provider,
                status,
            )
            # Routing reads every verdict (v_model_quality_*): each answer has its quick verdict.
            await connection.execute(
                "INSERT INTO verifications (id, created_at, solution_id, tier, attempt, "
                "answer_provider, answer_model, answer, method, verifier_id, verdict, score, "
                "latency_ms, tokens) VALUES ($1, now(), $2, 'quick', 1, $3, 'm', '1', 'llm', "
                "'check', $4, 0.9, 0, 0)",
                uuid.uuid4(),
                solution_id,
                provider,
                "approve" if status == "verified" else "reject",
            )
    finally:
        await connection.close()


def test_serve_and_worker_end_to_end(tmp_path: Path) -> None:
    url = asyncio.run(create_postgres_database())
    worker = None
    env = {
        "SOLVEVERIFY_DATABASE_URL": url,
        "SOLVEVERIFY_REDIS_URL": REDIS_URL,
        "SOLVEVERIFY_REDIS_QUEUE_NAME": f"e2e:{uuid.uuid4().hex}",
        "SOLVEVERIFY_VERIFY_ROUTING_MIN_SAMPLES": "3",
        "SOLVEVERIFY_VERIFY_ROUTING_REFRESH_S": "1",
        "SOLVEVERIFY_LLM_LOCAL_ENABLED": "true",  # the bundled tiny model is off by default
    }
    try:
        assert run_cli("db", "upgrade", cwd=tmp_path, env=env).returncode == 0
        worker = start_worker(tmp_path, env)
        server, base = serve(tmp_path, env)
        try:
            posted = httpx.post(
                f"{base}/v1/scans", json={"text": "Solve 2x + 3 = 11"}, timeout=60
            ).json()
            assert posted["verification_status"] == "verified"
            deadline, evaluation = time.monotonic() + 120, None
            while time.monotonic() < deadline and evaluation is None:
                detail = httpx.get(f"{base}/v1/solutions/{posted['solution_id']}", timeout=10)
                evaluation = detail.json()["deep_evaluation"]
                time.sleep(1)
            assert evaluation is not None, (tmp_path / "worker.log").read_text()[-3000:]
            assert evaluation["provider"] == "llamacpp" and 0 <= evaluation["overall"] <= 1

            accuracy = httpx.get(f"{base}/v1/analytics/accuracy", timeout=10).json()
            assert any(r["provider"] == "symbolic" for r in accuracy)
            assert 'class="bar"' in httpx.get(f"{base}/dashboard", timeout=10).text

            assert "physics" not in httpx.get(f"{base}/v1/analytics/routing").json()["preferred"]
            asyncio.run(seed_physics(url))
            deadline, preferred = time.monotonic() + 30, {}
            while time.monotonic() < deadline and preferred.get("physics") != "llamacpp":
                time.sleep(1)
                preferred = httpx.get(f"{base}/v1/analytics/routing", timeout=10).json()[
                    "preferred"
                ]
            assert preferred.get("physics") == "llamacpp"
        finally:
            stop(server)
    finally:
        stop(worker)
        asyncio.run(drop_postgres_database(url))
