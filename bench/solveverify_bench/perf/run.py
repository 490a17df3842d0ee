"""`solveverify bench perf`: what the service costs next to the model calls it waits on, and
next to a hand-written baseline doing the same essential work.

Everything runs on this machine in one run: fake providers (solveverify_bench.fake_llm) in their own
processes answer after a fixed latency L through the official SDKs; `solveverify serve` runs
as one uvicorn worker, and on Postgres also as one per core; the baseline
(solveverify_bench/perf/baseline_server.py: the same four SDK calls with the same overlap and the
scan's rows written to Postgres in one transaction, behind a plain Starlette route) runs under
uvicorn with as many processes, on the same Postgres; the load comes from this process. CPU
time per scan is read from /proc for each server's whole process tree, ours and the
baseline's alike. Figures are ratios measured in the same run, so a busy machine moves
numerator and denominator together; the load average is recorded before and after each
section.

The run is in sections (solveverify_bench/perf/sections.py), each isolated: `--only SECTION` runs
some, one that fails is reported and the others still run and are saved.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from app.datasets import GSM8K_TEST, open_text
from app.db.admin import create_database, drop_database
from solveverify_bench.perf.cost import evidence_costs
from solveverify_bench.perf.load import LoadResult, run_load
from solveverify_bench.perf.multi import with_cpu
from solveverify_bench.perf.report import table
from solveverify_bench.perf.sections import SkipSection, load_average, run_sections, selected
from solveverify_bench.perf.stack import (
    CLI,
    cli_env,
    fake_provider,
    peak_rss_mb,
    process_tree,
    run_probe,
    serve,
    serve_baseline,
    start_worker,
    stop,
)
from solveverify_bench.perf.verified import DEFAULT_POLICIES, verified_costs

__all__ = [
    "SECTIONS",
    "PerfConfig",
    "fanout",
    "provider_env",
    "run_load_test",
    "run_perf",
    "table",
]

FALLBACK_PROBLEMS = [
    "A baker fills {n} trays with 13 muffins each and sells all but 5. How many are sold?",
    "Mia reads {n} pages a day for 9 days and then 14 more pages. How many pages in all?",
]

# In the order they run. critical: one process on SQLite at 1/10/50 clients (and the
# baseline, one process); throughput: zero-latency providers, ours and the baseline on
# Postgres, one process and one per core, CPU per scan; latency: 50 clients, one process per
# core, ours and the baseline at every --latency; fanout: K verifiers at once; cost: calls
# and tokens per scan per policy (fake providers); verified: calls and tokens per verified
# answer per policy (the recorded-run replay); local_model; ocr.
SECTIONS = (
    "critical",
    "throughput",
    "latency",
    "fanout",
    "cost",
    "verified",
    "local_model",
    "ocr",
)


@dataclass(frozen=True)
class PerfConfig:
    latency_s: float = 0.2  # the figures of the critical, fanout sections
    # Every latency the latency section measures, ours against the baseline (1 s: a realistic
    # model round trip; 0.2 s: a fast one).
    latencies_s: tuple[float, ...] = (0.2, 1.0)
    # Model calls a text scan waits on one after another: ANALYZE's labels, SOLVE, QUICK_VERIFY
    # (ENRICH's labels, sent when ANALYZE is done, overlap SOLVE). The critical path is this
    # many times L; `cost_by_policy` counts the calls the fake really heard (four).
    sequential_calls: int = 3
    concurrency: tuple[int, ...] = (1, 10, 50)
    rounds: int = 8  # requests per client at each concurrency level
    throughput_s: float = 10.0
    throughput_clients: int = 32
    repeats: int = 1  # ours and the baseline alternated this many times (medians reported)
    fanout: tuple[int, ...] = (1, 3, 6, 12)
    local_tokens: int = 128
    local_rounds: int = 3  # raw and provider processes alternated this many times
    ocr_images: int = 5
    redis_url: str | None = "redis://127.0.0.1:6379/14"
    postgres_admin_url: str | None = "postgresql://postgres@127.0.0.1:5432/postgres"
    only: tuple[str, ...] = ()  # sections to run; empty: all
    replay: Path | None = None  # recorded run (MAV directory or JSONL) for `verified`
    replay_policies: tuple[str, ...] = DEFAULT_POLICIES
    replay_fit_passes: int = 1
    replay_quick_verifier: str | None = None
    workers_multi: int = field(default_factory=lambda: os.cpu_count() or 1)


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


def baseline_env(fake_url: str, database_url: str) -> dict[str, str]:
    from solveverify_bench.perf.baseline_server import DSN_ENV, FAKE_ENV

    return {FAKE_ENV: fake_url, DSN_ENV: database_url}


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


@contextmanager
def running_baseline(
    directory: Path, env: dict[str, str], workers: int = 1
) -> Iterator[tuple[Any, str]]:
    process, base = serve_baseline(directory, env, workers)
    try:
        yield process, base
    finally:
        stop(process)


async def warm(base: str, body: Callable[[int], dict[str, Any]]) -> None:
    await run_load(base, body, concurrency=4, requests=12)


class Bench:
    """What the sections share: the config, a scratch directory, the problems, the report,
    fake providers started on first use (one per latency) and the Redis queue."""

    def __init__(self, config: PerfConfig, directory: Path, say: Callable[[str], None]) -> None:
        self.config, self.directory, self.say = config, directory, say
        self.pool = problems()
        self.report: dict[str, Any] = {}
        self.fakes: dict[float, tuple[subprocess.Popen[bytes], str]] = {}
        self.use_redis = False
        self.queue_name = f"perf:{uuid.uuid4().hex}"

    def fake(self, latency_s: float) -> str:
        if latency_s not in self.fakes:
            self.fakes[latency_s] = fake_provider(self.directory, latency_s)
        return self.fakes[latency_s][1]

    @property
    def queue_env(self) -> dict[str, str]:
        if not self.use_redis:
            return {}
        return {
            "SOLVEVERIFY_REDIS_URL": self.config.redis_url or "",
            "SOLVEVERIFY_REDIS_QUEUE_NAME": self.queue_name,
        }

    def critical_s(self, latency_s: float) -> float:
        return self.config.sequential_calls * latency_s

    def note_rss(self, key: str, value: float | None) -> None:
        self.report[key] = max(self.report.get(key) or 0.0, value or 0.0) or None

    @asynccontextmanager
    async def postgres(self, prefix: str) -> AsyncIterator[str]:
        """A throwaway database, migrated, with the baseline's tables; dropped after."""
        from solveverify_bench.perf.baseline_server import create_tables

        admin = self.config.postgres_admin_url
        if not admin:
            raise SkipSection("no Postgres (--postgres-admin-url '')")
        url = await create_database(admin, prefix)
        try:
            upgrade(self.directory, {"SOLVEVERIFY_DATABASE_URL": url})
            await create_tables(url)
            yield url
        finally:
            await drop_database(admin, url)

    def close(self) -> None:
        for process, _ in self.fakes.values():
            stop(process)


# ---------------------------------------------------------------- critical: one process


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
    """The model calls alone, in this process (no server, no database): `bench perf`'s
    critical section uses it only where no Postgres is given."""
    from solveverify_bench.perf.baseline_server import Baseline

    calls = Baseline(fake_url, "")
    result = LoadResult(clients)
    counter = iter(range(requests))

    async def one(problem: str) -> None:
        from app.pipeline.prompts import analyze, enrich, solve

        await calls.claude(analyze.build(problem, "en"), 256)

        async def solve_and_check() -> None:
            answer = (await calls.claude(solve.build(problem, "en"), 1024))["final_answer"]
            await calls.check(problem, str(answer))

        await asyncio.gather(
            solve_and_check(), calls.claude(enrich.build(problem, "en", "math", "primary"), 256)
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
    await calls.close()
    return result


async def section_critical(b: Bench) -> None:
    config, report = b.config, b.report
    latency = config.latency_s
    slow_url = b.fake(latency)
    critical_s = b.critical_s(latency)
    env = {
        **provider_env(slow_url),
        **b.queue_env,
        "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{b.directory / 'critical.db'}",
    }
    with running(b.directory, env) as (server, base):
        levels = await critical_path(base, b.pool, config)
        b.note_rss("server_peak_rss_mb", peak_rss_mb(server.pid))
    top = max(config.concurrency)
    if config.postgres_admin_url:
        async with b.postgres("solveverify_perf_baseline") as url:
            with running_baseline(b.directory, baseline_env(slow_url, url)) as (_, base):
                await warm(base, scan_body(b.pool))
                base_run = await run_load(
                    base, scan_body(b.pool), concurrency=top, requests=top * config.rounds
                )
        report["baseline_c50_kind"] = "starlette+postgres, 1 process"
    else:
        base_run = await baseline(slow_url, b.pool, top, top * config.rounds)
        report["baseline_c50_kind"] = "model calls only, in-process (no Postgres given)"
    statuses = {r["verification_status"] for level in levels.values() for r in level.bodies}
    report["critical_path"] = {
        str(c): {**r.summary(), "ratio_p50_to_critical_path": round(r.p(50) / critical_s, 3)}
        for c, r in levels.items()
    }
    report["verification_statuses"] = sorted(statuses)
    report["baseline_c50"] = base_run.summary()
    report["critical_path_ratio_c50"] = round(levels[top].p(50) / critical_s, 3)
    report["baseline_ratio_c50"] = round(levels[top].p(50) / base_run.p(50), 3)
    if b.use_redis:
        b.say("   worker peak RSS, draining the follow-up jobs …")
        report["worker_peak_rss_mb"] = await drain_with_worker(
            b.directory, env, config.redis_url or "", b.queue_name
        )


# ---------------------------------------------------------------- throughput: CPU per scan


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


Server = Callable[[Path, dict[str, str], int], Any]


async def measured_server(
    b: Bench, start: Server, env: dict[str, str], workers: int
) -> tuple[LoadResult, float, float]:
    """One throughput run: the load, CPU ms per scan, the largest process's peak RSS."""
    with start(b.directory, env, workers) as (server, base):
        measured, cpu_ms = await throughput(server.pid, base, b.pool, b.config)
        peak = max(peak_rss_mb(p) or 0 for p in process_tree(server.pid))
        if workers > 1 and start is running:
            b.report["server_multi_total_rss_mb"] = tree_rss_mb(server.pid)
    return measured, cpu_ms, peak


def _median_run(runs: list[tuple[LoadResult, float, float]]) -> tuple[LoadResult, float]:
    """The run with the median CPU per scan (its load figures go with it)."""
    ordered = sorted(runs, key=lambda r: r[1])
    chosen = ordered[(len(ordered) - 1) // 2]
    return chosen[0], chosen[1]


async def section_throughput(b: Bench) -> None:
    """Zero-latency providers, 32 clients: ours on SQLite (one process), ours and the baseline
    on Postgres with one process and one per core, alternated `repeats` times."""
    config, report = b.config, b.report
    fast_url = b.fake(0.0)
    env = {
        **provider_env(fast_url),
        **b.queue_env,
        "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{b.directory / 'throughput.db'}",
    }
    measured, cpu_ms, peak = await measured_server(b, running, env, 1)
    b.note_rss("server_peak_rss_mb", peak)
    report["throughput_sqlite"] = {**measured.summary(), "workers": 1}
    report["throughput_rps_sqlite"] = round(measured.throughput_rps, 1)
    report["cpu_ms_per_scan_sqlite"] = cpu_ms
    report["cpu_ms_per_scan"] = cpu_ms
    if not config.postgres_admin_url:
        raise SkipSection("Postgres runs and the baseline need --postgres-admin-url")
    cores = config.workers_multi
    report["workers_multi"] = cores
    async with b.postgres("solveverify_perf") as url:
        ours_env = {**env, "SOLVEVERIFY_DATABASE_URL": url}
        base_env = baseline_env(fast_url, url)
        for key, workers in (("postgres", 1), ("postgres_multi", cores)):
            ours_runs, base_runs = [], []
            for _ in range(max(1, config.repeats)):
                ours_runs.append(await measured_server(b, running, ours_env, workers))
                base_runs.append(await measured_server(b, running_baseline, base_env, workers))
            b.note_rss("server_peak_rss_mb", max(r[2] for r in ours_runs))
            ours, ours_cpu = _median_run(ours_runs)
            base, base_cpu = _median_run(base_runs)
            report[f"throughput_{key}"] = {**ours.summary(), "workers": workers}
            report[f"throughput_rps_{key}"] = round(ours.throughput_rps, 1)
            report[f"cpu_ms_per_scan_{key}"] = ours_cpu
            report[f"baseline_throughput_{key}"] = {**base.summary(), "workers": workers}
            report[f"baseline_throughput_rps_{key}"] = round(base.throughput_rps, 1)
            report[f"baseline_cpu_ms_per_scan_{key}"] = base_cpu
            report[f"baseline_peak_rss_mb_{key}"] = max(r[2] for r in base_runs)
            if config.repeats > 1:
                report[f"cpu_ms_per_scan_{key}_runs"] = [r[1] for r in ours_runs]
                report[f"baseline_cpu_ms_per_scan_{key}_runs"] = [r[1] for r in base_runs]
    report["cpu_ms_per_scan"] = report["cpu_ms_per_scan_postgres"]
    report["baseline_cpu_ms_per_scan"] = report["baseline_cpu_ms_per_scan_postgres"]
    report["cpu_ratio_to_baseline"] = _ratio(
        report["cpu_ms_per_scan_postgres"], report["baseline_cpu_ms_per_scan_postgres"]
    )
    report["cpu_ratio_to_baseline_multi"] = _ratio(
        report["cpu_ms_per_scan_postgres_multi"], report["baseline_cpu_ms_per_scan_postgres_multi"]
    )
    report["throughput_ratio_to_baseline"] = _ratio(
        report["throughput_rps_postgres_multi"], report["baseline_throughput_rps_postgres_multi"]
    )
    report["throughput_ratio_to_baseline_single"] = _ratio(
        report["throughput_rps_postgres"], report["baseline_throughput_rps_postgres"]
    )


def _ratio(ours: float | None, theirs: float | None) -> float | None:
    return round(ours / theirs, 3) if ours is not None and theirs else None


# ---------------------------------------------------------------- latency: L = 0.2 s and 1 s


async def critical_path_multi(
    b: Bench, url: str, latency_s: float
) -> tuple[dict[str, Any], dict[str, Any]]:
    """50 clients against ours (one process per core, Postgres) and then the baseline (as
    many processes, same database), at model latency `latency_s`."""
    config = b.config
    cores = config.workers_multi
    top = max(config.concurrency)
    slow_url = b.fake(latency_s)
    critical_s = b.critical_s(latency_s)
    env = {**provider_env(slow_url), **b.queue_env, "SOLVEVERIFY_DATABASE_URL": url}
    body = scan_body(b.pool)
    with running(b.directory, env, cores) as (server, base):
        await warm(base, body)
        ours, cpu_s = await with_cpu(
            server.pid, lambda: run_load(base, body, concurrency=top, requests=top * config.rounds)
        )
    with running_baseline(b.directory, baseline_env(slow_url, url), cores) as (server, base):
        await warm(base, body)
        theirs, base_cpu_s = await with_cpu(
            server.pid, lambda: run_load(base, body, concurrency=top, requests=top * config.rounds)
        )
    ours_row = {
        **ours.summary(),
        "workers": cores,
        "cpu_ms_per_scan": round(1000 * cpu_s / max(ours.ok, 1), 2),
        "ratio_p50_to_critical_path": round(ours.p(50) / critical_s, 3),
    }
    base_row = {
        **theirs.summary(),
        "processes": cores,
        "cpu_ms_per_scan": round(1000 * base_cpu_s / max(theirs.ok, 1), 2),
        "ratio_p50_to_critical_path": round(theirs.p(50) / critical_s, 3),
    }
    return ours_row, base_row


def latency_key(latency_s: float) -> str:
    return f"{latency_s:g}"


async def section_latency(b: Bench) -> None:
    config, report = b.config, b.report
    if not config.postgres_admin_url:
        raise SkipSection("one process per core serves on Postgres: --postgres-admin-url")
    by_latency: dict[str, Any] = report.setdefault("critical_path_multi_by_latency", {})
    async with b.postgres("solveverify_perf_latency") as url:
        for latency in config.latencies_s:
            b.say(f"   L = {latency * 1000:.0f} ms, {max(config.concurrency)} clients …")
            ours, theirs = await critical_path_multi(b, url, latency)
            by_latency[latency_key(latency)] = {
                "latency_s": latency,
                "critical_path_s": b.critical_s(latency),
                "ours": ours,
                "baseline": theirs,
                "ratio_p50_to_critical_path": ours["ratio_p50_to_critical_path"],
                "baseline_ratio_p50_to_critical_path": theirs["ratio_p50_to_critical_path"],
                "ratio_p50_to_baseline": _ratio(ours["p50_s"], theirs["p50_s"]),
                "load_after": load_average(),
            }
            if latency == config.latency_s:
                report["critical_path_c50_multi"] = ours
                report["baseline_c50_multi"] = theirs
                report["critical_path_ratio_c50_multi"] = ours["ratio_p50_to_critical_path"]
                report["baseline_ratio_c50_multi"] = _ratio(ours["p50_s"], theirs["p50_s"])
            if latency == 1.0:
                report["critical_path_ratio_c50_multi_l1"] = ours["ratio_p50_to_critical_path"]
                report["baseline_ratio_c50_multi_l1"] = _ratio(ours["p50_s"], theirs["p50_s"])


# ---------------------------------------------------------------- fanout: verifiers at once


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


async def section_fanout(b: Bench) -> None:
    ratios = await fanout(b.fake(b.config.latency_s), b.config)
    b.report["fanout_ratios"] = {str(k): round(v, 3) for k, v in ratios.items()}
    b.report["fanout_ratio_k6"] = round(ratios.get(6, 0.0), 3)


# ---------------------------------------------------------------- cost: per scan, per policy


async def section_cost(b: Bench) -> None:
    fast_url = b.fake(0.0)
    costs = await evidence_costs(
        b.directory,
        provider_env(fast_url),
        fast_url,
        scan_body(b.pool),
        b.config.redis_url if b.use_redis else None,
    )
    b.report["cost_by_policy"] = costs
    b.report["calls_per_scan"] = {p: _split(c, "calls") for p, c in costs.items()}
    b.report["tokens_per_scan"] = {p: _split(c, "tokens") for p, c in costs.items()}


def _split(cost: dict[str, Any], key: str) -> dict[str, Any]:
    background = cost["background"]
    return {"request": cost["request"][key], "background": background and background[key]}


# ---------------------------------------------------------------- verified: the replay


async def section_verified(b: Bench) -> None:
    config = b.config
    if config.replay is None:
        raise SkipSection("no recorded run: --replay PATH (a MAV run directory or JSONL)")
    result = await verified_costs(
        config.replay,
        config.replay_policies,
        b.directory / "replay",
        fit_passes=config.replay_fit_passes,
        quick_verifier=config.replay_quick_verifier,
    )
    b.report["verified_cost"] = result
    b.report["calls_per_verified"] = {
        p: r["calls_per_verified"] for p, r in result["policies"].items()
    }
    b.report["tokens_per_verified"] = {
        p: r["tokens_per_verified"] for p, r in result["policies"].items()
    }


# ---------------------------------------------------------------- local model and OCR


def local_model(config: PerfConfig) -> dict[str, float] | None:
    """Generation tokens/s through the provider against raw llama-cpp-python: same model,
    messages and settings, each side in a fresh process, alternating `local_rounds` times,
    median of the rates (three per process)."""
    from app.llm.providers.llamacpp import bundled_model_path, llama_cpp_available

    if not llama_cpp_available() or bundled_model_path() is None:
        return None

    def rates(mode: str) -> list[float]:
        command = [sys.executable, "-m", "solveverify_bench.perf.local_model", "--mode", mode]
        command += ["--tokens", str(config.local_tokens)]
        rates: list[float] = json.loads(run_probe(command, timeout_s=600))["tokens_per_s"]
        return rates

    raws: list[float] = []
    ours: list[float] = []
    for _ in range(max(1, config.local_rounds)):
        raws += rates("raw")
        ours += rates("provider")
    raw, provider = statistics.median(raws), statistics.median(ours)
    return {
        "raw_tokens_per_s": round(raw, 1),
        "provider_tokens_per_s": round(provider, 1),
        "ratio": round(provider / raw, 3),
    }


async def section_local_model(b: Bench) -> None:
    local = await asyncio.to_thread(local_model, b.config)
    b.report["local_model"] = local
    b.report["local_model_ratio"] = local["ratio"] if local else None
    if local is None:
        raise SkipSection("llama-cpp-python or the bundled model is not installed")


def ocr(config: PerfConfig) -> float:
    """Seconds per image, in a process of its own (solveverify_bench/perf/ocr_probe.py)."""
    command = [sys.executable, "-m", "solveverify_bench.perf.ocr_probe"]
    command += ["--images", str(config.ocr_images)]
    seconds: float = json.loads(run_probe(command, timeout_s=600))["seconds_per_image"]
    return seconds


async def section_ocr(b: Bench) -> None:
    b.report["ocr_seconds_per_image"] = round(await asyncio.to_thread(ocr, b.config), 3)


SECTION_WORK: dict[str, Callable[[Bench], Awaitable[None]]] = {
    "critical": section_critical,
    "throughput": section_throughput,
    "latency": section_latency,
    "fanout": section_fanout,
    "cost": section_cost,
    "verified": section_verified,
    "local_model": section_local_model,
    "ocr": section_ocr,
}


# ---------------------------------------------------------------- the run


async def run_perf(
    config: PerfConfig,
    say: Callable[[str], None] = print,
    save: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """The selected sections in order; `save(report)` after each (the --json file)."""
    names = selected(SECTIONS, config.only)
    with tempfile.TemporaryDirectory(prefix="solveverify-perf-") as tmp:
        b = Bench(config, Path(tmp), say)
        report = b.report
        report.update(
            {
                "machine": machine(),
                "latency_s": config.latency_s,
                "latencies_s": list(config.latencies_s),
                "sequential_calls": config.sequential_calls,
                "sections_requested": names,
                "load_average_before": load_average(),
                "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }
        )
        b.use_redis = await redis_reachable(config.redis_url)
        report["queue"] = "redis" if b.use_redis else "in-process"
        try:
            await run_sections(
                [(name, partial(SECTION_WORK[name], b)) for name in names],
                report,
                say=say,
                save=save,
            )
        finally:
            b.close()
            if b.use_redis:
                await delete_queue(config.redis_url or "", b.queue_name)
        report["load_average_after"] = load_average()
        if save is not None:
            save(report)
    return report


def upgrade(directory: Path, env: dict[str, str]) -> None:
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
