"""What a scan costs in model calls and tokens, per evidence policy (app/pipeline/evidence.py).

The fake provider counts every call and estimates its tokens from the text (about four
characters a token; GET /stats). The request path is what the fake counted while the scans
were answered; the background is what it counted while a worker drained their follow-up jobs
(deep evaluation, the consensus check, a sampled spot check) from Redis.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from solveverify_bench.perf.load import run_load
from solveverify_bench.perf.stack import serve, start_worker, stop

POLICIES = ("quick", "panel:3", "samples:3")


async def fake_stats(fake_url: str) -> dict[str, dict[str, int]]:
    async with httpx.AsyncClient() as http:
        stats: dict[str, dict[str, int]] = (await http.get(f"{fake_url}/stats")).json()
        return stats


def spent(
    before: dict[str, dict[str, int]], after: dict[str, dict[str, int]]
) -> dict[str, dict[str, int]]:
    """Calls and tokens per task between two snapshots."""
    zero = {"calls": 0, "input": 0, "output": 0}
    return {
        task: {k: v - before.get(task, zero)[k] for k, v in counts.items()}
        for task, counts in after.items()
        if counts["calls"] != before.get(task, zero)["calls"]
    }


def per_scan(usage: dict[str, dict[str, int]], scans: int) -> dict[str, Any]:
    calls = sum(c["calls"] for c in usage.values())
    tokens = sum(c["input"] + c["output"] for c in usage.values())
    return {
        "calls": round(calls / scans, 2),
        "tokens": round(tokens / scans),
        "by_task": {t: round(c["calls"] / scans, 2) for t, c in sorted(usage.items())},
    }


async def settle(fake_url: str, redis_url: str, queue_name: str, limit_s: float) -> None:
    """Until the queue is empty and the fake has heard nothing new for a second."""
    from redis.asyncio import Redis

    redis = Redis.from_url(redis_url)
    try:
        deadline, last, quiet_since = time.monotonic() + limit_s, None, time.monotonic()
        while time.monotonic() < deadline:
            stats = await fake_stats(fake_url)
            if stats != last:
                last, quiet_since = stats, time.monotonic()
            elif not await redis.zcard(queue_name) and time.monotonic() - quiet_since > 1.0:
                return
            await asyncio.sleep(0.25)  # another process's queue and counters: polled
    finally:
        await redis.aclose()


async def policy_cost(
    directory: Path,
    env: dict[str, str],
    fake_url: str,
    body: Callable[[int], dict[str, Any]],
    policy: str,
    *,
    redis_url: str | None,
    scans: int = 16,
) -> dict[str, Any]:
    """`scans` text scans under one evidence policy: calls and tokens per scan, request path
    and (with Redis) background."""
    queue_name = f"perf-cost:{uuid.uuid4().hex}"
    database = directory / f"cost-{uuid.uuid4().hex}.db"
    env = {
        **env,
        "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{database}",
        "SOLVEVERIFY_VERIFY_EVIDENCE": json.dumps({"*": policy}),
        **({"SOLVEVERIFY_REDIS_URL": redis_url, "SOLVEVERIFY_REDIS_QUEUE_NAME": queue_name}
           if redis_url else {"SOLVEVERIFY_REDIS_URL": ""}),
    }  # fmt: skip
    server, base = serve(directory, env)
    try:
        before = await fake_stats(fake_url)
        result = await run_load(base, body, concurrency=4, requests=scans)
        answered = await fake_stats(fake_url)
    finally:
        stop(server)
    report: dict[str, Any] = {
        "policy": policy,
        "scans": result.ok,
        "request": per_scan(spent(before, answered), max(result.ok, 1)),
        "background": None,
    }
    if redis_url:
        worker = start_worker(directory, env, name=f"cost-worker-{policy.replace(':', '-')}")
        try:
            await settle(fake_url, redis_url, queue_name, limit_s=90)
        finally:
            stop(worker)
        drained = await fake_stats(fake_url)
        report["background"] = per_scan(spent(answered, drained), max(result.ok, 1))
    return report


async def evidence_costs(
    directory: Path,
    env: dict[str, str],
    fake_url: str,
    body: Callable[[int], dict[str, Any]],
    redis_url: str | None,
) -> dict[str, Any]:
    return {
        policy: await policy_cost(directory, env, fake_url, body, policy, redis_url=redis_url)
        for policy in POLICIES
    }
