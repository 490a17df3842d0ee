"""The bounded load test and the benchmark's parts, short enough for CI. The long run is
`solveverify bench load --duration 60 --concurrency 50` (README)."""

from __future__ import annotations

import pytest

from solveverify_bench.perf.load import percentile
from solveverify_bench.perf.run import fanout, run_load_test, table
from solveverify_bench.perf.stack import fake_provider, stop


async def test_load_on_loopback_has_no_errors() -> None:
    summary = await run_load_test(duration_s=6, clients=20, latency_s=0.05)
    print(f"load: {summary}")  # p50/p99 in the CI log
    assert summary["failed"] == 0, summary
    assert summary["ok"] >= 20 and summary["statuses"] == {"201": summary["ok"]}
    assert 0.1 <= summary["p50_s"] <= summary["p99_s"]  # two 50 ms model calls at least


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 50), percentile(values, 99), percentile(values, 100)) == (
        50.0,
        99.0,
        100.0,
    )
    assert percentile([], 50) == 0.0


async def test_parallel_verifiers_cost_about_one_call(tmp_path) -> None:
    from solveverify_bench.perf.run import PerfConfig

    process, url = fake_provider(tmp_path, 0.2)
    try:
        ratios = await fanout(url, PerfConfig(fanout=(1, 6)))
    finally:
        stop(process)
    assert ratios[1] == pytest.approx(1.0, abs=0.2)
    assert ratios[6] < 1.5  # six calls at once, not six in a row (that would be 6.0)


def test_table_shows_every_measure() -> None:
    row = {"p50_s": 0.41, "p95_s": 0.43, "p99_s": 0.45, "throughput_rps": 90.0}
    report = {
        "machine": "test",
        "latency_s": 0.2,
        "queue": "redis",
        "critical_path": {"50": {**row, "ratio_p50_to_2L": 1.02}},
        "baseline_c50": row,
        "baseline_ratio_c50": 1.01,
        "throughput_sqlite": row,
        "throughput_rps_sqlite": 90.0,
        "fanout_ratios": {"6": 1.03},
        "local_model": {"provider_tokens_per_s": 99.0, "raw_tokens_per_s": 100.0, "ratio": 0.99},
        "ocr_seconds_per_image": 0.4,
        "server_peak_rss_mb": 300.0,
        "worker_peak_rss_mb": 200.0,
    }
    text = "\n".join(table(report))
    for needle in ("1.020 × 2L", "ours ÷ baseline 1.010", "90 scans/s", "1.030 × one call",
                   "0.990", "0.400 s/image", "server 300.0 MiB"):  # fmt: skip
        assert needle in text
