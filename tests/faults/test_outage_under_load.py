"""Issue 26's acceptance at the scale it states: 30 clients post scans for 40 s against real
`serve` (two processes) and `worker` processes, a Postgres cluster and a Redis of the test's
own, and a loopback model (so every follow-up job has work to do), while Postgres is stopped
for 7 s and started again, or Redis is shut down without saving and started empty.

Each holds: every accepted scan (201, 202) reaches a final state; every solution's follow-up
jobs (deep evaluation, consensus check, a spot check when drawn, MARS when its badge turns to
caution) each complete exactly once, counted by their effects; no 5xx but 503s with
Retry-After, and those only while the outage lasts; no connection refused or reset."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
import redis
from arq.utils import truncate

from solveverify_bench.perf.stack import cli_env, free_port, spawn, wait_until_up
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

CLIENTS = 30
LOAD_S = 40.0
OUTAGE_AT_S = 12.0  # into the load: scans and follow-up jobs are in flight by then
OUTAGE_S = 7.0
POLL_MAX_S = 5.0  # a client waits this long at most for a queued scan's answer
THINK_S = 1.5  # and reads an answer this long before asking the next
SETTLE_S = 150.0  # after the load: every accepted scan and every job done by then
ANSWER = "4"  # every problem below is 2x + n = n + 8; the model agrees with the solver
FINAL = ("done", "failed")


@dataclass
class Reply:
    sent: float  # time.monotonic()
    received: float
    method: str
    status: int  # 0: no response (connection refused, reset, timed out)
    retry_after: str | None = None
    error: str = ""


@dataclass
class Load:
    started: float = 0.0
    replies: list[Reply] = field(default_factory=list)
    accepted: dict[str, int] = field(default_factory=dict)  # scan id → 201 or 202
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, reply: Reply) -> None:
        with self.lock:
            self.replies.append(reply)


@dataclass
class Outage:
    began: float = 0.0  # time.monotonic()
    ended: float = 0.0

    def mark(self, outage: Callable[[], None]) -> None:
        self.began = time.monotonic()
        outage()
        self.ended = time.monotonic()


def fake_model(directory: Path) -> tuple[Any, str]:
    """The loopback model (solveverify_bench.fake_llm) in a process of its own, answering every task
    (solve, verify, evaluate, aspect checks) like a competent model, after 50 ms."""
    port = free_port()
    args = [sys.executable, "-m", "solveverify_bench.fake_llm", "--port", str(port)]
    args += ["--latency", "0.05", "--answer", ANSWER]
    process = spawn(args, directory, cli_env(), directory / "fake-model.log")
    url = f"http://127.0.0.1:{port}"
    wait_until_up(process, f"{url}/v1/models", directory / "fake-model.log")
    return process, url


def stack_env(cluster: PostgresCluster, redis_url: str, model_url: str) -> dict[str, str]:
    return {
        "SOLVEVERIFY_DATABASE_URL": cluster.url,
        "SOLVEVERIFY_REDIS_URL": redis_url,
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        # Anthropic solves what the symbolic solver cannot, OpenAI checks and evaluates.
        "SOLVEVERIFY_ANTHROPIC_API_KEY": "test",
        "SOLVEVERIFY_ANTHROPIC_BASE_URL": model_url,
        "SOLVEVERIFY_OPENAI_API_KEY": "test",
        "SOLVEVERIFY_OPENAI_BASE_URL": f"{model_url}/v1",
        "SOLVEVERIFY_AUTH_REQUIRED": "true",
        "SOLVEVERIFY_AUTH_RATE_LIMIT_PER_MINUTE": "1000000",  # counted (in Redis), not hit
        "SOLVEVERIFY_LOG_LEVEL": "INFO",
        "SOLVEVERIFY_WORKER_OUTBOX_POLL_S": "0.5",
        "SOLVEVERIFY_WORKER_OUTBOX_MAX_BACKOFF_S": "1",
        "SOLVEVERIFY_WORKER_REDIS_RETRY_MAX_S": "1",
        # Jobs lost with Redis come back from the outbox after this long.
        "SOLVEVERIFY_WORKER_OUTBOX_REDELIVER_AFTER_S": "10",
        "SOLVEVERIFY_WORKER_STUCK_SCAN_AFTER_S": "20",
        "SOLVEVERIFY_WORKER_STUCK_SCAN_SWEEP_S": "2",
    }


def client(base: str, key: str, number: int, load: Load, until: float, tag: int) -> None:
    """One app user posting problems one after another. Every third user waits for the answer
    in the request; the others queue theirs (respond-async) and poll it until it is final, for
    at most POLL_MAX_S (a student who gives up and asks the next one, so problems keep coming
    during an outage too), and reads an answer for THINK_S. After a 503 the user waits its
    Retry-After (at most 2 s) and tries again."""
    headers = {"Authorization": f"Bearer {key}"}
    sync = number % 3 == 0
    n = 0
    with httpx.Client(base_url=base, headers=headers, timeout=60) as http:

        def call(method: str, url: str, **kwargs: Any) -> httpx.Response | None:
            sent = time.monotonic()
            try:
                response = http.request(method, url, **kwargs)
            except httpx.TransportError as exc:
                load.record(Reply(sent, time.monotonic(), method, 0, error=type(exc).__name__))
                time.sleep(0.5)
                return None
            retry_after = response.headers.get("Retry-After")
            load.record(Reply(sent, time.monotonic(), method, response.status_code, retry_after))
            if response.status_code == 503:
                time.sleep(min(float(retry_after or 1), 2.0))
            return response

        while time.monotonic() < until:
            n += 1
            c = tag + number * 1000 + n  # every problem its own
            prefer = {} if sync else {"Prefer": "respond-async"}
            posted = call(
                "POST", "/v1/scans", json={"text": f"Solve 2x + {c} = {c + 8}"}, headers=prefer
            )
            if posted is None or posted.status_code not in (201, 202):
                continue
            scan_id = posted.json()["scan_id"]
            with load.lock:
                load.accepted[scan_id] = posted.status_code
            give_up = min(until, time.monotonic() + POLL_MAX_S)
            while posted.status_code == 202 and time.monotonic() < give_up:
                polled = call("GET", f"/v1/scans/{scan_id}")
                if polled is not None and polled.status_code == 200:
                    if polled.json()["state"] in FINAL:
                        break
                    time.sleep(0.3)
            time.sleep(THINK_S)


def run_load(base: str, key: str, outage: Callable[[], None], tag: int) -> tuple[Load, Outage]:
    load, window = Load(), Outage()
    load.started = time.monotonic()
    until = load.started + LOAD_S
    threads = [
        threading.Thread(target=client, args=(base, key, i, load, until, tag), daemon=True)
        for i in range(CLIENTS)
    ]
    for thread in threads:
        thread.start()
    time.sleep(OUTAGE_AT_S)
    window.mark(outage)
    for thread in threads:
        thread.join(timeout=LOAD_S + 120)
    assert not any(t.is_alive() for t in threads)
    return load, window


def fetch(cluster: PostgresCluster, sql: str, *args: Any) -> list[asyncpg.Record]:
    async def run() -> list[asyncpg.Record]:
        connection = await asyncpg.connect(cluster.admin_url)
        try:
            return await connection.fetch(sql, *args)
        finally:
            await connection.close()

    return asyncio.run(run())


def settle(cluster: PostgresCluster, load: Load) -> float:
    """Wait until every accepted scan is final and the outbox holds nothing undone; the
    seconds that took after the load ended."""
    started = time.monotonic()
    deadline = started + SETTLE_S
    ids = list(load.accepted)
    while time.monotonic() < deadline:
        open_scans = fetch(
            cluster, "SELECT count(*) FROM scans WHERE id = ANY($1::uuid[]) AND state <> ALL($2)",
            ids, list(FINAL),
        )[0][0]  # fmt: skip
        open_jobs = fetch(cluster, "SELECT count(*) FROM outbox WHERE completed_at IS NULL")[0][0]
        if not open_scans and not open_jobs:
            return time.monotonic() - started
        time.sleep(1)
    raise AssertionError(f"{open_scans} scans not final, {open_jobs} jobs open after settling")


# arq's completion line, "<t>s ← <job id>:<task> ● <repr(result)>": the result is logged as
# its repr, so a task's "already checked" reads 'already checked' (quoted).
COMPLETED = re.compile(r"← (\S+?):\w+ ● (?!'?(?:already|skipped|nothing))")


def runs_with_effects(log: str) -> Counter[str]:
    """The worker's own account: per job, its runs that completed and stored something; a
    redelivery runs as job_id@n and counts for its job. A run that found its work done (a job
    run again after its acknowledgement was lost, e.g. to the database going away between the
    job's commit and its acknowledgement) reports `already …` and stored nothing."""
    return Counter(m.group(1).split("@")[0] for m in COMPLETED.finditer(log))


def check(
    cluster: PostgresCluster,
    directory: Path,
    load: Load,
    window: Outage,
    label: str,
    settled_s: float,
) -> None:
    """The acceptance's assertions on this load's scans, their solutions and jobs, after
    printing the figures they rest on."""
    statuses = Counter(r.status for r in load.replies)
    refused = [r for r in load.replies if r.status == 503]
    scans = list(load.accepted)
    states = {
        r["id"]: r["state"]
        for r in fetch(cluster, "SELECT id::text, state FROM scans WHERE id = ANY($1)", scans)
    }
    solutions = fetch(
        cluster,
        "SELECT id::text, deep_evaluation IS NOT NULL AS evaluated FROM solutions"
        " WHERE scan_id = ANY($1)",
        scans,
    )
    solution_ids = [s["id"] for s in solutions]
    ours = set(scans) | set(solution_ids)  # job ids are task:scan or task:solution
    jobs = [
        j
        for j in fetch(cluster, "SELECT task, args, job_id, completed_at, deliveries FROM outbox")
        if j["job_id"].split(":", 1)[-1] in ours
    ]
    sets = fetch(
        cluster,
        "SELECT solution_id::text AS id, tier, verifier_id, count(*) AS n FROM verifications"
        " WHERE tier IN ('consensus', 'spot') AND solution_id = ANY($1) GROUP BY 1, 2, 3",
        solution_ids,
    )
    log = "".join(p.read_text() for p in directory.glob("worker*.log"))
    effects = runs_with_effects(log)
    print(
        f"\n{label}: {CLIENTS} clients for {LOAD_S:.0f} s, outage from "
        f"{window.began - load.started:.1f} s to {window.ended - load.started:.1f} s; "
        f"{len(load.replies)} replies {dict(statuses)}; 503s: "
        f"{dict(Counter(r.method for r in refused))}; scans accepted "
        f"{dict(Counter(load.accepted.values()))}; solutions {len(solutions)}; jobs "
        f"{dict(Counter(j['task'] for j in jobs))}, delivered more than once "
        f"{sum(1 for j in jobs if j['deliveries'] > 1)}; settled {settled_s:.0f} s after the load"
    )

    # Replies: 0 × 5xx other than 503 (with Retry-After), and those only while the outage
    # lasts (a request under way when it began counts); every request got a response.
    unexpected = [r for r in load.replies if r.status not in (200, 201, 202, 503)]
    assert unexpected == [], unexpected[:10]
    assert all(r.retry_after for r in refused), refused[:10]
    late = [r for r in refused if r.received < window.began or r.sent > window.ended]
    assert late == [], (window, late[:10])
    # Scans were accepted before the outage and again after it.
    accepted_at = [r.sent for r in load.replies if r.method == "POST" and r.status in (201, 202)]
    assert min(accepted_at) < window.began and max(accepted_at) > window.ended

    # Every accepted scan is stored and final: done, every one.
    assert set(load.accepted) <= set(states), set(load.accepted) - set(states)
    assert Counter(states[s] for s in load.accepted) == Counter({"done": len(load.accepted)})

    # Every solution's follow-up jobs are staged once each, and every one completed.
    assert all(j["completed_at"] is not None for j in jobs)
    staged = Counter(j["job_id"] for j in jobs)
    assert [job for job, n in staged.items() if n > 1] == []
    for solution in solutions:
        for task in ("deep_evaluate", "consensus_check"):
            assert staged[f"{task}:{solution['id']}"] == 1, (task, solution["id"])
    # Their effects, each exactly once: the evaluation stored; one consensus verdict set per
    # solution and one spot panel where one was drawn (a second run would add a second set).
    assert [s["id"] for s in solutions if not s["evaluated"]] == []
    assert [dict(r) for r in sets if r["n"] > 1] == []
    assert {r["id"] for r in sets if r["tier"] == "consensus"} == {s["id"] for s in solutions}
    drawn = {json.loads(j["args"])[0] for j in jobs if j["task"] == "spot_check"}
    assert {r["id"] for r in sets if r["tier"] == "spot"} == drawn
    follow_ups = {j["job_id"] for j in jobs if j["task"] != "run_scan"}
    assert {job: effects[job] for job in follow_ups if effects[job] != 1} == {}
    assert not re.search(r"job \S+ failed", log), log[-3000:]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One stack for both outages (each test checks its own load's scans and jobs)."""
    tmp_path: Path = tmp_path_factory.mktemp("outage-under-load")
    cluster = PostgresCluster(durable=False).start()
    queue = RedisServer(tmp_path, persistent=False).start()
    model, model_url = fake_model(tmp_path)
    env = stack_env(cluster, queue.url, model_url)
    server, worker = None, None
    try:
        assert run_cli("db", "upgrade", cwd=tmp_path, env=env).returncode == 0
        created = run_cli("keys", "create", "--tenant", "school", cwd=tmp_path, env=env)
        assert created.returncode == 0, created.stderr
        server, base = serve(tmp_path, env, workers=2)
        worker = start_worker(tmp_path, env)
        yield {
            "cluster": cluster,
            "redis": queue,
            "base": base,
            "key": created.stdout.strip(),
            "directory": tmp_path,
        }
    finally:
        stop(worker)
        stop(server)
        stop(model)
        queue.stop()
        cluster.destroy()


def test_a_postgres_restart_under_load(stack: dict[str, Any]) -> None:
    cluster: PostgresCluster = stack["cluster"]

    def restart() -> None:
        cluster._pg_ctl("stop", "-m", "fast")
        time.sleep(OUTAGE_S)
        cluster._pg_ctl("start")

    load, window = run_load(stack["base"], stack["key"], restart, tag=1_000_000)
    settled_s = settle(cluster, load)
    check(cluster, stack["directory"], load, window, "Postgres restart", settled_s)
    # The outage was felt: requests meeting it were refused (503), not left hanging.
    assert any(r.status == 503 for r in load.replies)


def test_a_redis_shutdown_nosave_under_load(stack: dict[str, Any]) -> None:
    cluster: PostgresCluster = stack["cluster"]
    queue: RedisServer = stack["redis"]

    def shutdown_nosave() -> None:
        with redis.Redis(port=queue.port) as admin, contextlib.suppress(redis.ConnectionError):
            admin.shutdown(nosave=True)  # the server hangs up before it answers
        assert queue.process is not None
        queue.process.wait(timeout=10)
        time.sleep(OUTAGE_S)
        queue.start()

    load, window = run_load(stack["base"], stack["key"], shutdown_nosave, tag=2_000_000)
    settled_s = settle(cluster, load)
    check(cluster, stack["directory"], load, window, "Redis shutdown nosave", settled_s)


def test_effects_are_counted_from_arqs_own_completion_lines() -> None:
    """The failure this counting once had: arq logs a result as its repr ('already checked',
    quoted), so a run that found its work done counted as a second effect, e.g. a consensus
    check committed just before Postgres stopped, not acknowledged, redelivered as `@1`."""

    def completed(job_id: str, task: str, result: str) -> str:
        # arq.worker's own line for a job that returned (Worker.run_job).
        return f"INFO arq.worker: {0.5:6.2f}s ← {job_id}:{task} ● {truncate(repr(result))}\n"

    job = "consensus_check:d038a988-03ff-41f6-91c0-fdb1db195084"
    log = (
        completed(job, "consensus_check", "approve (proof)")
        + f"WARNING app.worker.queue: job {job} done but not acknowledged (OSError)\n"
        + completed(f"{job}@1", "consensus_check", "already checked")
        + completed("spot_check:abc", "spot_check", "skipped: no answer")
        + completed("deep_evaluate:abc", "deep_evaluate", "already evaluated")
        + completed("mars_second_chance:abc", "mars_second_chance", "nothing to do")
        + completed("deep_evaluate:def", "deep_evaluate", "evaluated (0.9)")
        + completed("deep_evaluate:def@2", "deep_evaluate", "evaluated (0.8)")
    )
    assert runs_with_effects(log) == Counter({job: 1, "deep_evaluate:def": 2})
