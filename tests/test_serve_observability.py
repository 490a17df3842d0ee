"""`solveverify serve --workers 2` as real processes, JSON logs on: a scrape of /metrics from
either process counts every scan both served (multiprocess mode), every log line is one JSON
object and a line logged during a request carries its request id (uvicorn's access lines
too), and a dashboard session opened on one process is good on the other (the signing secret
is kept in the database, none is configured), as is a `dashboard-link` made from it."""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.fixtures.processes import run_cli, serve, stop

ROUNDS = 6  # at most, of BATCH requests at once, for both processes to have served some
BATCH = 6


def log_lines(tmp_path: Path) -> list[dict[str, Any]]:
    text = next(tmp_path.glob("server-*.log")).read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def pids_by_request(tmp_path: Path) -> dict[str, int]:
    return {
        line["request_id"]: line["pid"]
        for line in log_lines(tmp_path)
        if line["logger"] == "uvicorn.access"
    }


def on_both(tmp_path: Path, call, prefix: str) -> list[Any]:
    """Send requests (each on a connection of its own) until both server processes have
    answered some; `call(request_id)` sends one."""
    results: list[Any] = []
    with ThreadPoolExecutor(BATCH) as pool:
        for round_ in range(ROUNDS):
            ids = [f"{prefix}-{round_}-{n}" for n in range(BATCH)]
            results += pool.map(call, ids)
            served = pids_by_request(tmp_path)
            if len({served[i] for i in ids_so_far(prefix, served)}) == 2:
                return results
    raise AssertionError(f"one process answered every {prefix} request")


def ids_so_far(prefix: str, served: dict[str, int]) -> list[str]:
    return [request_id for request_id in served if request_id.startswith(f"{prefix}-")]


def scans_counted(text: str) -> tuple[float, float]:
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }
    scans = samples[
        ("solveverify_scans_total", (("badge", "verified"), ("method", "programmatic")))
    ]
    requests = samples[
        (
            "solveverify_http_request_duration_seconds_count",
            (("method", "POST"), ("route", "/v1/scans"), ("status", "201")),
        )
    ]
    return scans, requests


def test_two_processes_share_metrics_logs_and_dashboard_sessions(tmp_path: Path) -> None:
    env = {
        "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'two.db'}",
        "SOLVEVERIFY_AUTH_REQUIRED": "true",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_VERIFY_SYMBOLIC_WORKERS": "1",
        "SOLVEVERIFY_LOG_FORMAT": "json",
        "SOLVEVERIFY_LOG_LEVEL": "INFO",
    }
    made = run_cli("keys", "create", "--tenant", "ops", "--role", "platform", cwd=tmp_path, env=env)
    assert made.returncode == 0, made.stderr
    key = made.stdout.strip()
    server: subprocess.Popen[bytes] | None = None
    try:
        server, base = serve(tmp_path, env, workers=2)
        auth = {"Authorization": f"Bearer {key}"}

        def scan(request_id: str) -> int:
            n = sum(map(ord, request_id)) % 50
            response = httpx.post(
                f"{base}/v1/scans",
                json={"text": f"Solve 2x + {n} = {n + 8}"},
                headers={**auth, "X-Request-ID": request_id},
                timeout=60,
            )
            assert response.status_code == 201, response.text
            assert response.json()["verification_status"] == "verified"
            return 1

        posted = sum(on_both(tmp_path, scan, "scan"))

        def scrape(request_id: str) -> tuple[float, float]:
            response = httpx.get(f"{base}/metrics", headers={"X-Request-ID": request_id})
            assert response.status_code == 200
            return scans_counted(response.text)

        # Whichever process answers, it counts every scan of both.
        assert set(on_both(tmp_path, scrape, "scrape")) == {(posted, posted)}

        # A line the app logs during a request, and the access line, carry the request id.
        refused = httpx.get(
            f"{base}/v1/scans", params={"k": key}, headers={"X-Request-ID": "key-in-url"}
        )
        assert refused.status_code == 401
        lines = log_lines(tmp_path)  # every line is one JSON object
        tagged = [line for line in lines if line["request_id"] == "key-in-url"]
        assert {line["logger"] for line in tagged} == {"app.api.url_guard", "uvicorn.access"}
        assert key not in json.dumps(lines)

        # A session opened by one process opens the dashboard on the other.
        with httpx.Client(base_url=base, timeout=30) as browser:
            opened = browser.post(
                "/dashboard/login", data={"api_key": key}, headers={"Origin": base}
            )
            assert opened.status_code == 303, opened.text
            cookie = opened.cookies["solveverify_dashboard"]

        def dashboard(request_id: str) -> int:
            return httpx.get(
                f"{base}/dashboard",
                cookies={"solveverify_dashboard": cookie},
                headers={"X-Request-ID": request_id},
                timeout=30,
            ).status_code

        assert set(on_both(tmp_path, dashboard, "dashboard")) == {200}

        # `dashboard-link` signs with the same stored secret, from the same database.
        link = run_cli("dashboard-link", "--base-url", base, cwd=tmp_path, env=env)
        assert link.returncode == 0, link.stderr
        token = link.stdout.strip().split("#token=")[1]
        exchanged = httpx.post(
            f"{base}/dashboard/session", data={"token": token}, headers={"Origin": base}
        )
        assert exchanged.status_code == 303, exchanged.text
    finally:
        stop(server)
