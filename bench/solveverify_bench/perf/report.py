"""`bench perf`'s human-readable summary (docs/performance.md shows it): the figures of the
sections that ran, the goals of issue 31 as met / not met, and how each section went with the
load average before and after it. Any section may be missing (--only, a failure)."""

from __future__ import annotations

from typing import Any


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def _load(values: list[float] | None) -> str:
    return "/".join(f"{v:.2f}" for v in values) if values else "?"


def _latency_row(name: str, r: dict[str, Any], ratio: str, goal: str = "") -> str:
    return (
        f"| {name} | {_ms(r['p50_s'])} | {_ms(r['p95_s'])} | {_ms(r['p99_s'])} | {ratio} | {goal} |"
    )


def _critical_rows(report: dict[str, Any], path: str) -> list[str]:
    if "critical_path" not in report:
        return []
    rows = []
    top = str(max(int(c) for c in report["critical_path"]))
    for clients, r in report["critical_path"].items():
        ratio = r.get("ratio_p50_to_critical_path", r.get("ratio_p50_to_2L"))
        name = f"POST /v1/scans, {clients} concurrent, sqlite, 1 process"
        rows.append(_latency_row(name, r, f"{ratio:.3f} × {path}"))
    if "baseline_c50" in report:
        kind = report.get("baseline_c50_kind", "hand-written asyncio, 1 process")
        rows.append(
            _latency_row(
                f"baseline ({kind}), {top} concurrent",
                report["baseline_c50"],
                f"ours ÷ baseline {report['baseline_ratio_c50']:.3f}",
            )
        )
    return rows


def _latency_rows(report: dict[str, Any], path: str) -> list[str]:
    rows = []
    for key, m in (report.get("critical_path_multi_by_latency") or {}).items():
        ours, theirs = m["ours"], m["baseline"]
        n = ours["workers"]
        goal = {"1": "≤ 1.05", "0.2": "≤ 1.25"}.get(key, "")
        label = f"L = {m['latency_s'] * 1000:.0f} ms"
        rows.append(
            _latency_row(
                f"POST /v1/scans, {ours['concurrency']} concurrent, postgres, {n} processes, "
                f"{label}",
                ours,
                f"{m['ratio_p50_to_critical_path']:.3f} × {path}; CPU "
                f"{ours['cpu_ms_per_scan']:.1f} ms/scan",
                goal,
            )
        )
        rows.append(
            _latency_row(
                f"baseline, {theirs['concurrency']} concurrent, postgres, {n} processes, {label}",
                theirs,
                f"{m['baseline_ratio_p50_to_critical_path']:.3f} × {path}; ours ÷ baseline "
                f"{m['ratio_p50_to_baseline']:.3f}; CPU {theirs['cpu_ms_per_scan']:.1f} ms/scan",
            )
        )
    return rows


def _throughput_rows(report: dict[str, Any]) -> list[str]:
    rows = []
    n = report.get("workers_multi")
    for key, label in (
        ("sqlite", "sqlite, 1 process"),
        ("postgres", "postgres, 1 process"),
        ("postgres_multi", f"postgres, {n} processes"),
    ):
        for who, prefix in (("ours", ""), ("baseline", "baseline_")):
            t = report.get(f"{prefix}throughput_{key}")
            if t is None:
                continue
            cpu = report.get(f"{prefix}cpu_ms_per_scan_{key}")
            cpu_text = f"; CPU {cpu:.1f} ms/scan" if cpu is not None else ""
            name = "overhead-only throughput" if who == "ours" else "baseline throughput"
            rows.append(
                f"| {name}, {label} | {t['p50_s'] * 1000:.1f} ms | "
                f"{t['p95_s'] * 1000:.1f} ms | {t['p99_s'] * 1000:.1f} ms | "
                f"{t['throughput_rps']:.0f} scans/s{cpu_text} | |"
            )
    if report.get("cpu_ratio_to_baseline") is not None:
        rows.append(
            f"| server CPU per scan ÷ baseline's (postgres, 1 process) | | | | "
            f"{report['cpu_ms_per_scan']:.1f} ÷ {report['baseline_cpu_ms_per_scan']:.1f} ms = "
            f"{report['cpu_ratio_to_baseline']:.3f} | ≤ 1.5 |"
        )
    elif report.get("cpu_ms_per_scan") is not None:
        rows.append(
            f"| server CPU per scan (all its processes) | | | | "
            f"{report['cpu_ms_per_scan']:.1f} ms | |"
        )
    if report.get("throughput_ratio_to_baseline") is not None:
        rows.append(
            f"| saturation throughput ÷ baseline's ({n} processes each) | | | | "
            f"{report['throughput_ratio_to_baseline']:.3f} | ≥ 0.67 |"
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


def _verified_rows(report: dict[str, Any]) -> list[str]:
    verified = report.get("verified_cost")
    if not verified:
        return []
    rows = []
    for policy, r in verified["policies"].items():
        calls = r["calls_per_verified"]
        tokens = r["tokens_per_verified"]
        price = (
            f"{calls} calls, {tokens if tokens is not None else '?'} tokens per verified"
            if calls is not None
            else "nothing verified"
        )
        precision = r["verified_precision"]
        rows.append(
            f"| replay, evidence `{policy}` | | | | {price}; {r['verified']}/{r['n']} verified "
            f"(coverage {r['coverage']}), precision {precision}, {r['verified_wrong']} wrong; "
            f"{r['calls_per_scan']} calls/scan | "
            f"{'keeps the promise' if r['keeps_promise'] else 'does not keep it'} |"
        )
    return rows


def goals(report: dict[str, Any]) -> list[tuple[str, str, bool | None]]:
    """Issue 31's goals: (goal, the figure, met? — None where it was not measured)."""

    def check(value: Any, ok: bool) -> tuple[str, bool | None]:
        return ("not measured", None) if value is None else (f"{value}", ok)

    out: list[tuple[str, str, bool | None]] = []
    cpu = report.get("cpu_ratio_to_baseline")
    cpu_goal = "server CPU per scan ≤ 1.5 × baseline's"
    out.append((cpu_goal, *check(cpu, cpu is not None and cpu <= 1.5)))
    by = report.get("critical_path_multi_by_latency") or {}
    for key, limit in (("1", 1.05), ("0.2", 1.25)):
        ratio = by.get(key, {}).get("ratio_p50_to_critical_path")
        out.append(
            (
                f"p50 at 50 clients ≤ {limit} × 3L at L = {float(key) * 1000:.0f} ms",
                *check(ratio, ratio is not None and ratio <= limit),
            )
        )
    throughput = report.get("throughput_ratio_to_baseline")
    out.append(
        (
            "saturation throughput ≥ 0.67 × baseline's",
            *check(throughput, throughput is not None and throughput >= 0.67),
        )
    )
    verified = report.get("verified_cost")
    if verified:
        policies = verified["policies"]
        unpriced = [p for p, r in policies.items() if r["calls_per_verified"] is None]
        figure = f"{len(policies)} policies" + (
            f" ({', '.join(unpriced)}: nothing verified, no price)" if unpriced else ""
        )
        out.append(("cost per verified answer reported for every policy", figure, bool(policies)))
        ratio = verified.get("default_to_cheapest_calls_ratio")
        cheapest = verified["cheapest_policy_keeping_promise"]
        figure = f"{verified['default_policy']} ÷ {cheapest} = {ratio}"
        out.append(
            (
                "default policy ≤ 1.5 × cheapest promise-keeping policy",
                figure if ratio is not None else "not measurable (" + figure + ")",
                None if ratio is None else ratio <= 1.5,
            )
        )
    else:
        out.append(("cost per verified answer for every policy", "not measured", None))
    return out


def table(report: dict[str, Any]) -> list[str]:
    path = f"{report.get('sequential_calls', 2)}L"  # the model calls a scan waits on, in turn
    latency = report.get("latency_s")
    rows = [
        f"machine: {report.get('machine', '?')}",
        f"model latency L = {latency * 1000:.0f} ms" if latency is not None else "model latency ?",
        f"critical path {path}; queue: {report.get('queue', '?')}; load average (1/5/15 min) "
        f"before {_load(report.get('load_average_before'))}, after "
        f"{_load(report.get('load_average_after'))}",
        "",
        "| measure | p50 | p95 | p99 | ratio | goal |",
        "|---|---|---|---|---|---|",
    ]
    rows += _critical_rows(report, path)
    rows += _latency_rows(report, path)
    rows += _throughput_rows(report)
    for k, ratio in (report.get("fanout_ratios") or {}).items():
        goal = "≤ 1.10" if k == "6" else ""
        rows.append(
            f"| fan-out, K = {k} aspect verifiers | | | | {ratio:.3f} × one call | {goal} |"
        )
    rows += _cost_rows(report)
    rows += _verified_rows(report)
    local = report.get("local_model")
    if local:
        rows.append(
            f"| local model (SmolLM2-135M) tokens/s | | | | {local['provider_tokens_per_s']} "
            f"vs raw {local['raw_tokens_per_s']} = {local['ratio']:.3f} | ≥ 0.95 |"
        )
    if report.get("ocr_seconds_per_image") is not None:
        ocr_s = report["ocr_seconds_per_image"]
        rows.append(f"| OCR (RapidOCR, one formula image) | | | | {ocr_s:.3f} s/image | |")
    if report.get("server_peak_rss_mb") is not None:
        multi = report.get("server_multi_total_rss_mb")
        rows.append(
            f"| peak RSS | | | | server {report['server_peak_rss_mb']} MiB"
            + (f" (all processes of the multi-process server: {multi} MiB)" if multi else "")
            + f", worker {report.get('worker_peak_rss_mb')} MiB | |"
        )
    rows += ["", "| goal (issue 31) | figure | met |", "|---|---|---|"]
    for goal, figure, met in goals(report):
        verdict = "not measured" if met is None else ("met" if met else "not met")
        rows.append(f"| {goal} | {figure} | {verdict} |")
    sections = report.get("sections") or {}
    if sections:
        rows += ["", "| section | status | seconds | load before → after |", "|---|---|---|---|"]
        for name, s in sections.items():
            status = s["status"]
            if status != "ok":
                status += f": {s.get('error') or s.get('reason')}"[:300]
            rows.append(
                f"| {name} | {status} | {s['seconds']} | "
                f"{_load(s['load_before'])} → {_load(s['load_after'])} |"
            )
    return rows
