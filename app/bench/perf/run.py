"""`solveverify bench perf`: what the service costs next to the model calls it waits on.

Everything runs on this machine in one run: fake providers (app.bench.fake_llm) in their own
processes answer after a fixed latency L through the official SDKs; `solveverify serve` runs
as one uvicorn worker, and on Postgres also as one per core; the load comes from this process.
The server's CPU time per scan is read from /proc for its whole process tree. Figures are
ratios measured in the same run, so a busy machine moves numerator and denominator together.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from app.bench.perf.cost import evidence_costs
from app.bench.perf.load import LoadResult, run_load
from app.bench.perf.multi import baseline_processes, with_cpu
from app.bench.perf.report import table
from app.bench.perf.stack import (
    CLI,
    cli_env,
    fake_provider,
    peak_rss_mb,
    process_tree,
    serve,
    start_worker,
    stop,
)
from app.datasets import GSM8K_TEST, open_text
from app.db.admin import create_database, drop_database

__all__ = ["PerfConfig", "fanout", "provider_env", "run_load_test", "run_perf", "table"]

FALLBACK_PROBLEMS = [
    "A baker fills {n} trays with 13 muffins each and sells all but 5. How many are sold?",
    "Mia reads {n} pages a day for 9 days and then 14 more pages. How many pages in all?",
]


@dataclass(frozen=True)
class PerfConfig:
    latency_s: float = 0.2
    # Model calls a text scan waits on one after another: ANALYZE's labels, SOLVE, QUICK_VERIFY
    # (ENRICH's labels, sent when ANALYZE is done, overlap SOLVE). The critical path is this
    # many times L; `cost_by_policy` counts the calls the fake really heard (four).
    sequential_calls: int = 3
    concurrency: tuple[int, ...] = (1, 10, 50)
    rounds: int = 8  # requests per client at each concurrency level
    throughput_s: float = 10.0
    throughput_clients: int = 32
    fanout: tuple[int, ...] = (1, 3, 6, 12)
    local_tokens: int = 128
    ocr_images: int = 5
    redis_url: str | None = "redis://127.0.0.1:6379/14"
    postgres_admin_url: str | None = "postgresql://postgres@127.0.0.1:5432/postgres"


def problems() -> list[str]:
    """GSM8K test questions: not in the problem bank (train), so every answer is checked by
    the verifier model rather than matched to ground truth."""
    if GSM8K_TEST.is_file():
        with open_text(GSM8K_TEST) as lines:
            return [json.loads(line)["question"] for line in lines if line.strip()][:500]
    return [p.format(n=n) for n in range(3, 200) for p in FALLBACK_PROBLEMS]


def scan_body(pool: list[str]) -> Callable[[int], dict[str, Any]]:
    return lambda i: {"text": pool[i % len(pool)]}


def provider_env(fake_url: str) -> dict[str, str]:
    """Anthropic solves, OpenAI checks (the registry's order), both on the fake."""
    return {
        "SOLVEVERIFY_ANTHROPIC_API_KEY": "bench",
        "SOLVEVERIFY_ANTHROPIC_BASE_URL": fake_url,
        "SOLVEVERIFY_OPENAI_API_KEY": "bench",
        "SOLVEVERIFY_OPENAI_BASE_URL": f"{fake_url}/v1",
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_LOG_LEVEL": "WARNING",
    }


async def redis_reachable(url: str | None) -> bool:
    if not url:
        return False
    from redis.asyncio import Redis

    client = Redis.from_url(url, socket_connect_timeout=1)
    try:
        return bool(await client.ping())
    except Exception:
        return False
    finally:
        await client.aclose()


@contextmanager
def running(directory: Path, env: dict[str, str], workers: int = 1) -> Iterator[tuple[Any, str]]:
    process, base = serve(directory, env, workers)
    try:
        yield process, base
    finally:
        stop(process)


async def warm(base: str, body: Callable[[int], dict[str, Any]]) -> None:
    await run_load(base, body, concurrency=4, requests=12)


# ---------------------------------------------------------------- 1, 2: the critical path


async def critical_path(base: str, pool: list[str], config: PerfConfig) -> dict[int, LoadResult]:
    await warm(base, scan_body(pool))
    results = {}
    for clients in config.concurrency:
        results[clients] = await run_load(
            base,
            scan_body(pool),
            concurrency=clients,
            requests=clients * config.rounds,
            keep_bodies=True,
        )
    return results


async def baseline(fake_url: str, pool: list[str], clients: int, requests: int) -> LoadResult:
    """The same model calls with nothing around them: ANALYZE's labels, SOLVE and ENRICH's
    labels through the Anthropic SDK (the labeller is the first provider), the check through
    the OpenAI SDK, each reply's JSON parsed, ENRICH's call overlapping SOLVE and the check as
    in the service; no LangGraph, no database, no HTTP server. Same prompts and SDK transport
    as the service."""
    from app.llm.providers.anthropic import sdk_client as anthropic_sdk
    from app.llm.providers.openai import sdk_client as openai_sdk
    from app.llm.types import Message
    from app.pipeline.prompts import analyze, enrich, quick_verify, solve

    anthropic = anthropic_sdk("bench", fake_url)
    openai = openai_sdk("bench", f"{fake_url}/v1")
    result = LoadResult(clients)
    counter = iter(range(requests))

    async def claude(messages: list[Message], max_tokens: int) -> dict[str, Any]:
        reply = await anthropic.messages.create(
            model="claude-haiku-4-5",
            max_tokens=max_tokens,
            system=messages[0].content,
            messages=[{"role": "user", "content": m.content} for m in messages[1:]],
        )
        parsed: dict[str, Any] = json.loads(reply.content[0].text)  # type: ignore[union-attr]  # the reply is one text block
        return parsed

    async def solve_and_check(problem: str) -> None:
        answer = (await claude(solve.build(problem, "en"), 1024))["final_answer"]
        check = quick_verify.build(problem, answer, "", "en")
        checked = await openai.chat.completions.create(
            model="gpt-4o-mini",
            messages=[
                {"role": "system", "content": check[0].content},
                {"role": "user", "content": check[-1].content},
            ],
            response_format={"type": "json_object"},
        )
        json.loads(checked.choices[0].message.content or "{}")

    async def one(problem: str) -> None:
        await claude(analyze.build(problem, "en"), 256)
        await asyncio.gather(
            solve_and_check(problem), claude(enrich.build(problem, "en", "math", "primary"), 256)
        )

    async def client() -> None:
        for i in counter:
            started = time.perf_counter()
            await one(pool[i % len(pool)])
            result.latencies_s.append(time.perf_counter() - started)
            result.statuses[201] += 1

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    result.elapsed_s = time.perf_counter() - started
    await anthropic.close()
    await openai.close()
    return result


# ---------------------------------------------------------------- 3: overhead-only throughput


async def throughput(
    server_pid: int, base: str, pool: list[str], config: PerfConfig
) -> tuple[LoadResult, float]:
    """The load and the server's CPU milliseconds per answered scan (warm-up excluded)."""
    await warm(base, scan_body(pool))
    measured, cpu_s = await with_cpu(
        server_pid,
        lambda: run_load(
            base,
            scan_body(pool),
            concurrency=config.throughput_clients,
            duration_s=config.throughput_s,
        ),
    )
    return measured, round(1000 * cpu_s / max(measured.ok, 1), 2)


def tree_rss_mb(pid: int) -> float:
    """Peak RSS summed over a server's process tree (every uvicorn worker, the sandbox)."""
    return round(sum(peak_rss_mb(p) or 0 for p in process_tree(pid)), 1)


# ---------------------------------------------------------------- 4: verifier fan-out


async def fanout(fake_url: str, config: PerfConfig) -> dict[int, float]:
    """K MAV aspect verifiers in one panel (no early stop: every call completes), wall time
    divided by one verifier call's, median of 5 runs each."""
    from app.llm.providers.openai import OpenAIChatModel, sdk_client
    from app.verification.aspects import ASPECTS, build_panel
    from app.verification.panel import run_panel

    sdk = sdk_client("bench", f"{fake_url}/v1")
    client = OpenAIChatModel(sdk, "gpt-4o-mini")
    keys = list(ASPECTS)
    question, solution = "What is 12 * 7?", "12 * 7 = 84. The answer is 84."

    async def wall(k: int) -> float:
        panel = build_panel([client], (keys * 2)[:k])
        started = time.perf_counter()
        result = await run_panel(
            [partial(v.verify, question, solution) for v in panel], early_stop=False
        )
        assert len(result.verdicts) == k
        return time.perf_counter() - started

    await wall(1)
    single = statistics.median([await wall(1) for _ in range(5)])
    ratios = {
        k: statistics.median([await wall(k) for _ in range(5)]) / single for k in config.fanout
    }
    await sdk.close()
    return ratios


# ---------------------------------------------------------------- 5: local model and OCR


def local_model(config: PerfConfig) -> dict[str, float] | None:
    """Generation tokens/s through the provider against raw llama-cpp-python: same model,
    messages and settings, each side in a fresh process, alternating, median of 3 × 3."""
    import subprocess
    import sys

    from app.llm.providers.llamacpp import bundled_model_path, llama_cpp_available

    if not llama_cpp_available() or bundled_model_path() is None:
        return None

    def rates(mode: str) -> list[float]:
        command = [sys.executable, "-m", "app.bench.perf.local_model", "--mode", mode]
        command += ["--tokens", str(config.local_tokens)]
        out = subprocess.run(command, env=cli_env(), capture_output=True, text=True, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])["tokens_per_s"]

    raws: list[float] = []
    ours: list[float] = []
    for _ in range(3):
        raws += rates("raw")
        ours += rates("provider")
    raw, provider = statistics.median(raws), statistics.median(ours)
    return {
        "raw_tokens_per_s": round(raw, 1),
        "provider_tokens_per_s": round(provider, 1),
        "ratio": round(provider / raw, 3),
    }


def ocr(config: PerfConfig) -> float:
    from app.bench.images import draw_text
    from app.ocr.rapid import RapidOcrReader

    reader = RapidOcrReader()
    images = [draw_text(f"{n}x + {n + 3} = {5 * n + 3}") for n in range(1, config.ocr_images + 1)]
    reader.read_sync(images[0])  # model load is not per image
    started = time.perf_counter()
    for image in images:
        reader.read_sync(image)
    return (time.perf_counter() - started) / len(images)


# ---------------------------------------------------------------- the run


async def run_perf(config: PerfConfig, say: Callable[[str], None] = print) -> dict[str, Any]:
    pool = problems()
    critical_s = config.sequential_calls * config.latency_s
    with tempfile.TemporaryDirectory(prefix="solveverify-perf-") as tmp:
        directory = Path(tmp)
        use_redis = await redis_reachable(config.redis_url)
        queue_name = f"perf:{uuid.uuid4().hex}"
        queue_env = (
            {
                "SOLVEVERIFY_REDIS_URL": config.redis_url or "",
                "SOLVEVERIFY_REDIS_QUEUE_NAME": queue_name,
            }
            if use_redis
            else {}
        )
        slow, slow_url = fake_provider(directory, config.latency_s)
        fast, fast_url = fake_provider(directory, 0.0)
        report: dict[str, Any] = {"queue": "redis" if use_redis else "in-process"}
        try:
            say(f"1-2. critical path at L = {config.latency_s * 1000:.0f} ms …")
            env = {
                **provider_env(slow_url),
                **queue_env,
                "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{directory / 'critical.db'}",
            }
            with running(directory, env) as (server, base):
                levels = await critical_path(base, pool, config)
                server_rss = peak_rss_mb(server.pid)
            statuses = {b["verification_status"] for r in levels.values() for b in r.bodies}
            top = max(config.concurrency)
            base_run = await baseline(slow_url, pool, top, top * config.rounds)
            report["critical_path"] = {
                str(c): {
                    **r.summary(),
                    "ratio_p50_to_critical_path": round(r.p(50) / critical_s, 3),
                }
                for c, r in levels.items()
            }
            report["verification_statuses"] = sorted(statuses)
            report["baseline_c50"] = base_run.summary()
            report["critical_path_ratio_c50"] = round(levels[top].p(50) / critical_s, 3)
            report["baseline_ratio_c50"] = round(levels[top].p(50) / base_run.p(50), 3)

            worker_rss = None
            if use_redis:
                say("   worker peak RSS, draining the follow-up jobs …")
                worker_rss = await drain_with_worker(
                    directory, env, config.redis_url or "", queue_name
                )

            say("3. overhead-only throughput (zero-latency providers) …")
            server_rss = max(
                server_rss or 0,
                await overhead_runs(directory, pool, config, report, fast_url, slow_url, queue_env),
            )
            report["server_peak_rss_mb"] = server_rss
            report["worker_peak_rss_mb"] = worker_rss

            say("4. verifier fan-out …")
            ratios = await fanout(slow_url, config)
            report["fanout_ratios"] = {str(k): round(v, 3) for k, v in ratios.items()}
            report["fanout_ratio_k6"] = round(ratios.get(6, 0.0), 3)

            say("5. model calls and tokens per scan, per evidence policy …")
            costs = await evidence_costs(
                directory,
                provider_env(fast_url),
                fast_url,
                scan_body(pool),
                config.redis_url if use_redis else None,
            )
            report["cost_by_policy"] = costs
            report["calls_per_scan"] = {p: _split(c, "calls") for p, c in costs.items()}
            report["tokens_per_scan"] = {p: _split(c, "tokens") for p, c in costs.items()}
        finally:
            stop(slow)
            stop(fast)
            if use_redis:
                await delete_queue(config.redis_url or "", queue_name)
        say("6. local model and OCR …")
        local = await asyncio.to_thread(local_model, config)
        report["local_model"] = local
        report["local_model_ratio"] = local["ratio"] if local else None
        report["ocr_seconds_per_image"] = round(await asyncio.to_thread(ocr, config), 3)
    report["machine"] = machine()
    report["latency_s"] = config.latency_s
    report["sequential_calls"] = config.sequential_calls
    return report


def _split(cost: dict[str, Any], key: str) -> dict[str, Any]:
    background = cost["background"]
    return {"request": cost["request"][key], "background": background and background[key]}


async def overhead_runs(
    directory: Path,
    pool: list[str],
    config: PerfConfig,
    report: dict[str, Any],
    fast_url: str,
    slow_url: str,
    queue_env: dict[str, str],
) -> float:
    """Throughput and CPU per scan on SQLite (one process) and Postgres (one, and one per
    core); on Postgres with one per core also the critical path at the top concurrency and the
    baseline as as many processes. Returns the largest server process's peak RSS."""
    cores = os.cpu_count() or 1
    peak = 0.0
    runs = [("sqlite", 1), ("postgres", 1), ("postgres", cores)]
    for backend in ("sqlite", "postgres"):
        url = f"sqlite+aiosqlite:///{directory / 'throughput.db'}"
        if backend == "postgres":
            if not config.postgres_admin_url:
                continue
            url = await create_database(config.postgres_admin_url, "solveverify_perf")
        try:
            env = {**provider_env(fast_url), **queue_env, "SOLVEVERIFY_DATABASE_URL": url}
            if backend == "postgres":
                upgrade(directory, env)
            for name, workers in [(b, w) for b, w in runs if b == backend]:
                key = name if workers == 1 else f"{name}_multi"
                with running(directory, env, workers) as (server, base):
                    measured, cpu_ms = await throughput(server.pid, base, pool, config)
                    peak = max(peak, *(peak_rss_mb(p) or 0 for p in process_tree(server.pid)))
                    if workers > 1:
                        report["server_multi_total_rss_mb"] = tree_rss_mb(server.pid)
                report[f"throughput_{key}"] = {**measured.summary(), "workers": workers}
                report[f"throughput_rps_{key}"] = round(measured.throughput_rps, 1)
                report[f"cpu_ms_per_scan_{key}"] = cpu_ms
            if backend == "postgres" and cores > 1:
                slow_env = {**env, **provider_env(slow_url)}
                await critical_path_multi(directory, pool, config, report, slow_env, slow_url)
        finally:
            if backend == "postgres" and config.postgres_admin_url:
                await drop_database(config.postgres_admin_url, url)
    report["cpu_ms_per_scan"] = report.get("cpu_ms_per_scan_postgres") or report.get(
        "cpu_ms_per_scan_sqlite"
    )
    report["workers_multi"] = cores
    return peak


async def critical_path_multi(
    directory: Path,
    pool: list[str],
    config: PerfConfig,
    report: dict[str, Any],
    env: dict[str, str],
    slow_url: str,
) -> None:
    cores = os.cpu_count() or 1
    top = max(config.concurrency)
    critical_s = config.sequential_calls * config.latency_s
    with running(directory, env, cores) as (server, base):
        await warm(base, scan_body(pool))
        measured, cpu_s = await with_cpu(
            server.pid,
            lambda: run_load(base, scan_body(pool), concurrency=top, requests=top * config.rounds),
        )
    base_run = await baseline_processes(slow_url, top, top * config.rounds, cores)
    report["critical_path_c50_multi"] = {
        **measured.summary(),
        "workers": cores,
        "cpu_ms_per_scan": round(1000 * cpu_s / max(measured.ok, 1), 2),
    }
    report["baseline_c50_multi"] = {**base_run.summary(), "processes": cores}
    report["critical_path_ratio_c50_multi"] = round(measured.p(50) / critical_s, 3)
    report["baseline_ratio_c50_multi"] = round(measured.p(50) / base_run.p(50), 3)


def upgrade(directory: Path, env: dict[str, str]) -> None:
    import subprocess

    command = [*CLI, "db", "upgrade"]
    subprocess.run(command, cwd=directory, env=cli_env(env), check=True, capture_output=True)


async def drain_with_worker(
    directory: Path, env: dict[str, str], redis_url: str, queue_name: str, limit_s: float = 60
) -> float | None:
    from redis.asyncio import Redis

    worker = start_worker(directory, env)
    redis = Redis.from_url(redis_url)
    try:
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline:
            if not await redis.zcard(queue_name):
                break
            await asyncio.sleep(0.5)  # polling another process's queue: nothing to await
        return peak_rss_mb(worker.pid)
    finally:
        stop(worker)
        await redis.aclose()


async def delete_queue(redis_url: str, queue_name: str) -> None:
    from redis.asyncio import Redis

    redis = Redis.from_url(redis_url)
    try:
        await redis.delete(queue_name)
    finally:
        await redis.aclose()


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


async def run_load_test(duration_s: float, clients: int, latency_s: float) -> dict[str, Any]:
    """`bench load`: the service under `clients` concurrent clients for `duration_s`."""
    pool = problems()
    with tempfile.TemporaryDirectory(prefix="solveverify-load-") as tmp:
        directory = Path(tmp)
        fake, fake_url = fake_provider(directory, latency_s)
        try:
            env = {
                **provider_env(fake_url),
                "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{directory / 'load.db'}",
            }
            with running(directory, env) as (server, base):
                result = await run_load(
                    base, scan_body(pool), concurrency=clients, duration_s=duration_s
                )
                rss = peak_rss_mb(server.pid)
        finally:
            stop(fake)
    return {**result.summary(), "duration_s": duration_s, "server_peak_rss_mb": rss}
