"""The cost of the promise: model calls and tokens per VERIFIED answer, per evidence policy.

Each policy runs the recorded-run replay of `bench service` (solveverify_bench/service.py, used
here as a library: the real graph, replay providers that count every call and estimate its
tokens, the promise fitted on a seeded part and measured on the rest). Its summary gives calls
and tokens per scan over the measured problems, how many were verified, and verified precision
and coverage; a verified answer costs (calls per scan × scans) ÷ verified scans. A policy that
verifies nothing has no price per verified answer (None): it buys no verified answers at all.

A policy "keeps the promise" on the replay when it verifies something and its verified
precision is at least the target (settings.verify.target_precision); its verified-wrong count
is reported beside it. The data (an official MAV run directory, or a recorded-run JSONL that
`bench convert-mav` wrote) is given by path on the command line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

DEFAULT_POLICIES = ("quick", "panel:3", "panel:5", "samples:3", "samples:3+panel:5")


def load_replay(path: Path) -> list[Any]:
    """Recorded problems from a MAV run directory or a recorded-run JSONL."""
    from solveverify_bench.recorded import convert_mav, load_recorded

    if not path.exists():
        raise FileNotFoundError(f"replay data not found: {path}")
    return convert_mav(path) if path.is_dir() else load_recorded(path)


def per_verified(summary: dict[str, Any], target: float) -> dict[str, Any]:
    """Calls and tokens per verified answer from a `bench service` summary (per-scan figures
    over its `n` measured scans)."""
    n, verified = int(summary["n"]), int(summary["verified"])
    calls = (summary.get("calls_per_scan") or 0.0) * n
    tokens = summary.get("tokens_per_scan")
    total_tokens = None if tokens is None else tokens * n
    precision = summary.get("verified_precision")
    return {
        "n": n,
        "verified": verified,
        "verified_precision": precision,
        "coverage": summary.get("coverage"),
        "verified_wrong": summary.get("verified_wrong"),
        "calls_per_scan": summary.get("calls_per_scan"),
        "tokens_per_scan": tokens,
        "calls_per_verified": round(calls / verified, 2) if verified else None,
        "tokens_per_verified": (
            round(total_tokens / verified) if verified and total_tokens is not None else None
        ),
        "keeps_promise": bool(verified and precision is not None and precision >= target),
        "threshold": summary.get("threshold"),
    }


def cheapest_keeping_promise(rows: dict[str, dict[str, Any]]) -> str | None:
    kept = {p: r for p, r in rows.items() if r["keeps_promise"] and r["calls_per_verified"]}
    return min(kept, key=lambda p: kept[p]["calls_per_verified"]) if kept else None


def default_policy() -> str:
    """The service's policy for a scan that no more specific evidence rule matches."""
    from app.settings import get_settings

    return get_settings().verify.evidence.get("*") or "quick"


async def verified_costs(
    data: Path,
    policies: tuple[str, ...],
    out_dir: Path,
    *,
    seed: int = 0,
    fit_passes: int = 1,
    quick_verifier: str | None = None,
) -> dict[str, Any]:
    """Per policy, the replay's figures per verified answer; the default policy's price against
    the cheapest policy that keeps the promise."""
    from app.settings import get_settings
    from app.symbolic.sandbox import SymbolicSandbox
    from solveverify_bench.mav_equivalence import mav_equivalent
    from solveverify_bench.service import ServiceBenchConfig, run_service_bench

    problems = load_replay(data)
    verify = get_settings().verify
    rows: dict[str, dict[str, Any]] = {}
    sandbox = SymbolicSandbox(verify.symbolic_workers, 5.0)
    try:
        for policy in policies:
            config = ServiceBenchConfig(
                seed=seed,
                target_precision=verify.target_precision,
                delta=verify.precision_delta,
                quick_verifier=quick_verifier,
                max_attempts=verify.max_attempts,
                evidence=policy,
                fit_passes=max(1, fit_passes),
            )
            summary = await run_service_bench(
                problems,
                out_dir / policy.replace(":", "-").replace("+", "_"),
                sandbox,
                verify,
                sandbox.math_equivalent,
                config,
                other_grade=mav_equivalent,
            )
            rows[policy] = per_verified(summary, verify.target_precision)
    finally:
        sandbox.close()
    default = default_policy()
    cheapest = cheapest_keeping_promise(rows)
    ratio = None
    if cheapest and default in rows and rows[default]["calls_per_verified"]:
        ratio = round(rows[default]["calls_per_verified"] / rows[cheapest]["calls_per_verified"], 3)
    return {
        "data": str(data),
        "problems": len(problems),
        "target_precision": verify.target_precision,
        "fit_passes": fit_passes,
        "quick_verifier": quick_verifier,
        "policies": rows,
        "default_policy": default,
        "cheapest_policy_keeping_promise": cheapest,
        "default_to_cheapest_calls_ratio": ratio,
    }
