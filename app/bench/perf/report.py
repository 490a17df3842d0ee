"""`bench perf`'s human-readable summary (README shows it)."""

from __future__ import annotations

from typing import Any


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def _latency_row(name: str, r: dict[str, Any], ratio: str, goal: str = "") -> str:
    return (
        f"| {name} | {_ms(r['p50_s'])} | {_ms(r['p95_s'])} | {_ms(r['p99_s'])} | {ratio} | {goal} |"
    )


def _throughput_rows(report: dict[str, Any]) -> list[str]:
    rows = []
    for key, label, goal in (
        ("sqlite", "sqlite, 1 process", ""),
        ("postgres", "postgres, 1 process", ""),
        ("postgres_multi", f"postgres, {report.get('workers_multi')} processes", "≥ 150"),
    ):
        if f"throughput_rps_{key}" not in report:
            continue
        t = report[f"throughput_{key}"]
        cpu = report.get(f"cpu_ms_per_scan_{key}")
        cpu_text = f"; CPU {cpu:.1f} ms/scan" if cpu is not None else ""
        rows.append(
            f"| overhead-only throughput, {label} | {t['p50_s'] * 1000:.1f} ms | "
            f"{t['p95_s'] * 1000:.1f} ms | {t['p99_s'] * 1000:.1f} ms | "
            f"{t['throughput_rps']:.0f} scans/s{cpu_text} | {goal} |"
        )
    return rows


def _cost_rows(report: dict[str, Any]) -> list[str]:
    rows = []
    for policy, cost in (report.get("cost_by_policy") or {}).items():
        request, background = cost["request"], cost["background"]
        later = (
            f"; background {background['calls']} calls, {background['tokens']} tokens"
            if background
            else ""
        )
        rows.append(
            f"| cost per scan, evidence `{policy}` | | | | request {request['calls']} calls, "
            f"{request['tokens']} tokens{later} | |"
        )
    return rows


def table(report: dict[str, Any]) -> list[str]:
    rows = [
        f"machine: {report['machine']}",
        f"model latency L = {report['latency_s'] * 1000:.0f} ms; critical path "
        f"{report.get('sequential_calls', 2)}L; queue: {report['queue']}",
        "",
        "| measure | p50 | p95 | p99 | ratio | goal |",
        "|---|---|---|---|---|---|",
    ]
    top = str(max(int(c) for c in report["critical_path"]))
    path = f"{report.get('sequential_calls', 2)}L"  # the model calls a scan waits on, in turn
    for clients, r in report["critical_path"].items():
        rows.append(
            _latency_row(
                f"POST /v1/scans, {clients} concurrent, sqlite, 1 process",
                r,
                f"{r.get('ratio_p50_to_critical_path', r.get('ratio_p50_to_2L')):.3f} × {path}",
            )
        )
    rows.append(
        _latency_row(
            f"hand-written asyncio baseline, {top} concurrent, 1 process",
            report["baseline_c50"],
            f"ours ÷ baseline {report['baseline_ratio_c50']:.3f}",
        )
    )
    if "critical_path_c50_multi" in report:
        n = report["critical_path_c50_multi"]["workers"]
        rows.append(
            _latency_row(
                f"POST /v1/scans, {top} concurrent, postgres, {n} processes",
                report["critical_path_c50_multi"],
                f"{report['critical_path_ratio_c50_multi']:.3f} × {path}",
                "≤ 1.10",
            )
        )
        rows.append(
            _latency_row(
                f"hand-written baseline, {top} concurrent, {n} processes",
                report["baseline_c50_multi"],
                f"ours ÷ baseline {report['baseline_ratio_c50_multi']:.3f}",
                "≤ 1.05",
            )
        )
    rows += _throughput_rows(report)
    if report.get("cpu_ms_per_scan") is not None:
        rows.append(
            f"| server CPU per scan (all its processes) | | | | "
            f"{report['cpu_ms_per_scan']:.1f} ms | ≤ 6 |"
        )
    for k, ratio in report["fanout_ratios"].items():
        goal = "≤ 1.10" if k == "6" else ""
        rows.append(
            f"| fan-out, K = {k} aspect verifiers | | | | {ratio:.3f} × one call | {goal} |"
        )
    rows += _cost_rows(report)
    local = report["local_model"]
    if local:
        rows.append(
            f"| local model (SmolLM2-135M) tokens/s | | | | {local['provider_tokens_per_s']} "
            f"vs raw {local['raw_tokens_per_s']} = {local['ratio']:.3f} | ≥ 0.95 |"
        )
    ocr_s = report["ocr_seconds_per_image"]
    rows.append(f"| OCR (RapidOCR, one formula image) | | | | {ocr_s:.3f} s/image | |")
    multi = report.get("server_multi_total_rss_mb")
    rows.append(
        f"| peak RSS | | | | server {report['server_peak_rss_mb']} MiB"
        + (f" (all processes of the multi-process server: {multi} MiB)" if multi else "")
        + f", worker {report['worker_peak_rss_mb']} MiB | |"
    )
    return rows
