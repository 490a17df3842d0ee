"""`solveverify bench perf`: what the service costs next to the model calls it waits on.

Everything runs on this machine in one run: fake providers (app.bench.fake_llm) in their own
processes answer after a fixed latency L through the official SDKs; `solveverify serve` runs
as one uvicorn worker; the load comes from this process. Figures are ratios measured in the
same run, so a busy machine moves numerator and denominator together.
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

from app.bench.perf.load import LoadResult, run_load
from app.bench.perf.stack import (
    CLI,
    cli_env,
    fake_provider,
    peak_rss_mb,
    serve,
    start_worker,
    stop,
)
from app.datasets import GSM8K_TEST, open_text
from app.db.admin import create_database, drop_database

FALLBACK_PROBLEMS = [
    "A baker fills {n} trays with 13 muffins each and sells all but 5. How many are sold?",
    "Mia reads {n} pages a day for 9 days and then 14 more pages. How many pages in all?",
]


@dataclass(frozen=True)
class PerfConfig:
    latency_s: float = 0.2
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
def running(directory: Path, env: dict[str, str]) -> Iterator[tuple[Any, str]]:
    process, base = serve(directory, env)
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
    """The same two model calls with nothing around them: SOLVE through the Anthropic SDK,
    then the check through the OpenAI SDK, JSON parsed; no LangGraph, no database, no HTTP
    server. Same prompts as the service."""
    from anthropic import AsyncAnthropic
    from openai import AsyncOpenAI

    from app.pipeline.prompts import quick_verify, solve

    anthropic = AsyncAnthropic(api_key="bench", base_url=fake_url, max_retries=0)
    openai = AsyncOpenAI(api_key="bench", base_url=f"{fake_url}/v1", max_retries=0)
    result = LoadResult(clients)
    counter = iter(range(requests))

    async def one(problem: str) -> None:
        messages = solve.build(problem, "en")
        solved = await anthropic.messages.create(
            model="claude-haiku-4-5",
            max_tokens=1024,
            system=messages[0].content,
            messages=[{"role": "user", "content": m.content} for m in messages[1:]],
        )
        answer = json.loads(solved.content[0].text)["final_answer"]  # type: ignore[union-attr]
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


async def throughput(base: str, pool: list[str], config: PerfConfig) -> LoadResult:
    await warm(base, scan_body(pool))
    return await run_load(
        base, scan_body(pool), concurrency=config.throughput_clients, duration_s=config.throughput_s
    )


# ---------------------------------------------------------------- 4: verifier fan-out


async def fanout(fake_url: str, config: PerfConfig) -> dict[int, float]:
    """K MAV aspect verifiers in one panel (no early stop: every call completes), wall time
    divided by one verifier call's, median of 5 runs each."""
    from openai import AsyncOpenAI

    from app.llm.providers.openai import OpenAIChatModel
    from app.verification.aspects import ASPECTS, build_panel
    from app.verification.panel import run_panel

    sdk = AsyncOpenAI(api_key="bench", base_url=f"{fake_url}/v1", max_retries=0)
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
    two_l = 2 * config.latency_s
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
                str(c): {**r.summary(), "ratio_p50_to_2L": round(r.p(50) / two_l, 3)}
                for c, r in levels.items()
            }
            report["verification_statuses"] = sorted(statuses)
            report["baseline_c50"] = base_run.summary()
            report["critical_path_ratio_c50"] = round(levels[top].p(50) / two_l, 3)
            report["baseline_ratio_c50"] = round(levels[top].p(50) / base_run.p(50), 3)

            worker_rss = None
            if use_redis:
                say("   worker peak RSS, draining the follow-up jobs …")
                worker_rss = await drain_with_worker(
                    directory, env, config.redis_url or "", queue_name
                )

            say("3. overhead-only throughput (zero-latency providers) …")
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
                    with running(directory, env) as (server, base):
                        measured = await throughput(base, pool, config)
                        server_rss = max(server_rss or 0, peak_rss_mb(server.pid) or 0)
                    report[f"throughput_{backend}"] = measured.summary()
                    report[f"throughput_rps_{backend}"] = round(measured.throughput_rps, 1)
                finally:
                    if backend == "postgres" and config.postgres_admin_url:
                        await drop_database(config.postgres_admin_url, url)
            report["server_peak_rss_mb"] = server_rss
            report["worker_peak_rss_mb"] = worker_rss

            say("4. verifier fan-out …")
            ratios = await fanout(slow_url, config)
            report["fanout_ratios"] = {str(k): round(v, 3) for k, v in ratios.items()}
            report["fanout_ratio_k6"] = round(ratios.get(6, 0.0), 3)
        finally:
            stop(slow)
            stop(fast)
            if use_redis:
                await delete_queue(config.redis_url or "", queue_name)
        say("5. local model and OCR …")
        local = await asyncio.to_thread(local_model, config)
        report["local_model"] = local
        report["local_model_ratio"] = local["ratio"] if local else None
        report["ocr_seconds_per_image"] = round(await asyncio.to_thread(ocr, config), 3)
    report["machine"] = machine()
    report["latency_s"] = config.latency_s
    return report


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


def table(report: dict[str, Any]) -> list[str]:
    """The human-readable summary (README shows it)."""
    rows = [
        f"machine: {report['machine']}",
        f"model latency L = {report['latency_s'] * 1000:.0f} ms; queue: {report['queue']}",
        "",
    ]
    rows.append("| measure | p50 | p95 | p99 | ratio | goal |")
    rows.append("|---|---|---|---|---|---|")
    for clients, r in report["critical_path"].items():
        goal = "≤ 1.05" if clients == str(max(int(c) for c in report["critical_path"])) else ""
        rows.append(
            f"| POST /v1/scans, {clients} concurrent | {r['p50_s'] * 1000:.0f} ms | "
            f"{r['p95_s'] * 1000:.0f} ms | {r['p99_s'] * 1000:.0f} ms | "
            f"{r['ratio_p50_to_2L']:.3f} × 2L | {goal} |"
        )
    b = report["baseline_c50"]
    rows.append(
        f"| hand-written asyncio baseline, 50 concurrent | {b['p50_s'] * 1000:.0f} ms | "
        f"{b['p95_s'] * 1000:.0f} ms | {b['p99_s'] * 1000:.0f} ms | "
        f"ours ÷ baseline {report['baseline_ratio_c50']:.3f} | |"
    )
    for backend in ("sqlite", "postgres"):
        if f"throughput_rps_{backend}" in report:
            t = report[f"throughput_{backend}"]
            rows.append(
                f"| overhead-only throughput, {backend} | {t['p50_s'] * 1000:.1f} ms | "
                f"{t['p95_s'] * 1000:.1f} ms | {t['p99_s'] * 1000:.1f} ms | "
                f"{t['throughput_rps']:.0f} scans/s | ≥ 300 |"
            )
    for k, ratio in report["fanout_ratios"].items():
        goal = "≤ 1.10" if k == "6" else ""
        rows.append(
            f"| fan-out, K = {k} aspect verifiers | | | | {ratio:.3f} × one call | {goal} |"
        )
    local = report["local_model"]
    if local:
        rows.append(
            f"| local model (SmolLM2-135M) tokens/s | | | | {local['provider_tokens_per_s']} "
            f"vs raw {local['raw_tokens_per_s']} = {local['ratio']:.3f} | ≥ 0.95 |"
        )
    ocr_s = report["ocr_seconds_per_image"]
    rows.append(f"| OCR (RapidOCR, one formula image) | | | | {ocr_s:.3f} s/image | |")
    rows.append(
        f"| peak RSS | | | | server {report['server_peak_rss_mb']} MiB, "
        f"worker {report['worker_peak_rss_mb']} MiB | |"
    )
    return rows


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
