"""`solveverify bench …` (also `python -m solveverify_bench`): verifiers, replay, gsm8k."""

from __future__ import annotations

import asyncio
import json
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Annotated, Any

import typer

from app.datasets import GSM8K_TEST
from app.settings import get_settings

bench_app = typer.Typer(
    help="Benchmarks: verifier patterns, replay of MAV runs, GSM8K.", no_args_is_help=True
)

PatternOption = Annotated[
    str, typer.Option(help="best_of_n | entailment | self_consistency | bon_mav | mars | consensus")
]


def _print(summary: dict[str, Any]) -> None:
    typer.echo(json.dumps(summary, indent=2, ensure_ascii=False))


@bench_app.command("verifiers")
def verifiers(
    data: Annotated[Path, typer.Option(exists=True, dir_okay=False, help="JSONL dataset.")],
    pattern: PatternOption = "self_consistency",
    n: Annotated[int, typer.Option(help="Candidates per example.")] = 4,
    seed: Annotated[int, typer.Option(help="Sets every candidate's sampling seed.")] = 0,
    temperature: Annotated[float, typer.Option(help="Sampling temperature of candidates.")] = 0.7,
    max_tokens: Annotated[int, typer.Option(help="Longest generated answer.")] = 400,
    candidates: Annotated[
        str, typer.Option(help="Grounded QA: generate (sampled) | labelled (the dataset's).")
    ] = "generate",
    critique_gate: Annotated[float, typer.Option(help="Self-consistency critique gate.")] = 0.7,
    revise: Annotated[bool, typer.Option(help="Targeted revision below the gate.")] = True,
    mars_agents: Annotated[
        str, typer.Option(help="Comma-separated providers as MARS agents (distinct models).")
    ] = "",
    max_examples: Annotated[int | None, typer.Option(help="Stop after this many.")] = None,
    out_dir: Annotated[Path, typer.Option(help="Artifacts (resumable).")] = Path("bench-out"),
    backend: Annotated[
        str,
        typer.Option(
            help="A configured provider (gemini, openai_compatible, llamacpp, …), 'stub' "
            "(deterministic seeded replies, no model) or 'replay' (only patterns that need none)"
        ),
    ] = "replay",
) -> None:
    """Run one verifier pattern over a dataset; write results.jsonl, summary.json, plots/."""
    from app.llm.base import ModelClient
    from app.resources import open_providers
    from app.verification.mars import MarsConfig
    from solveverify_bench.context import PatternContext
    from solveverify_bench.datasets import DatasetError
    from solveverify_bench.harness import run_benchmark
    from solveverify_bench.patterns import PATTERNS
    from solveverify_bench.stub import StubModel

    if pattern not in PATTERNS:
        raise typer.BadParameter(f"unknown pattern {pattern!r}; one of {', '.join(PATTERNS)}")
    if candidates not in ("generate", "labelled"):
        raise typer.BadParameter("--candidates is generate or labelled")
    settings = get_settings()

    async def run() -> dict[str, object]:
        async with AsyncExitStack() as stack:
            sandbox, _, registry = await open_providers(settings, stack)
            names = [a.strip() for a in mars_agents.split(",") if a.strip()]
            unknown = [b for b in [backend, *names] if b not in ("replay", "stub", *registry.order)]
            if unknown:
                raise typer.BadParameter(
                    f"{', '.join(unknown)} not configured; configured: "
                    f"{', '.join(registry.order)}, stub or replay"
                )
            model: ModelClient | None = StubModel(seed) if backend == "stub" else None
            if backend not in ("replay", "stub"):
                model = registry.get(backend, "verify")
            agents = [
                StubModel(seed, f"stub{i}") if a == "stub" else registry.get(a, "verify")
                for i, a in enumerate(names)
            ]
            ctx = PatternContext(
                backend=model,
                equivalent=sandbox.equivalent,
                n=n,
                aspect_keys=settings.verify.aspect_sets.get("math", []),
                mars=MarsConfig(settings.verify.mars_rounds, settings.verify.mars_threshold),
                seed=seed,
                temperature=temperature,
                max_tokens=max_tokens,
                critique_gate=critique_gate,
                revise=revise,
                candidates=candidates,  # type: ignore[arg-type]  # a choice typer checked
                mars_agents=agents,
            )
            return await run_benchmark(data, pattern, out_dir, ctx, max_examples=max_examples)

    try:
        _print(asyncio.run(run()))
    except (DatasetError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


@bench_app.command("replay")
def replay(
    mav_run: Annotated[
        Path,
        typer.Option(exists=True, file_okay=False, help="Directory of per-problem MAV JSON files."),
    ],
    out_dir: Annotated[Path, typer.Option()] = Path("bench-out/replay"),
    seed: Annotated[int, typer.Option(help="Seed of the held-out split.")] = 0,
    grader: Annotated[
        str, typer.Option(help="math-verify | mav (the paper's MATH is_equiv, its table)")
    ] = "math-verify",
) -> None:
    """Replay recorded MAV verifier runs: selection@n, detection, calibration."""
    from app.symbolic.sandbox import SymbolicSandbox
    from solveverify_bench.mav_equivalence import mav_equivalent
    from solveverify_bench.replay import ReplayFormatError, ReplayProblem, label, load_run, report

    if grader not in ("math-verify", "mav"):
        raise typer.BadParameter("--grader is math-verify or mav")

    async def labelled() -> list[ReplayProblem]:
        if grader == "mav":
            return await label(load_run(mav_run), mav_equivalent, normalize=False)
        sandbox = SymbolicSandbox(get_settings().verify.symbolic_workers, 5.0)
        try:
            return await label(load_run(mav_run), sandbox.math_equivalent)
        finally:
            sandbox.close()

    try:
        _print(report(asyncio.run(labelled()), out_dir, seed))
    except ReplayFormatError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


@bench_app.command("make-gsm8k-set")
def make_gsm8k_set(
    out: Annotated[Path, typer.Option(help="JSONL to write (math schema).")] = Path(
        "bench-out/gsm8k-candidates.jsonl"
    ),
    n_problems: Annotated[int, typer.Option()] = 50,
    seed: Annotated[int, typer.Option()] = 0,
    test_file: Annotated[Path, typer.Option(exists=True, dir_okay=False)] = (GSM8K_TEST),
) -> None:
    """Build a math set from GSM8K test: reference solutions plus hard negatives."""
    from solveverify_bench.gsm8k_candidates import make_candidates

    typer.echo(f"wrote {make_candidates(test_file, out, n_problems, seed)} problems to {out}")


@bench_app.command("gsm8k")
def gsm8k(
    n_problems: Annotated[int, typer.Option(help="Problems in the seeded sample.")] = 50,
    provider: Annotated[str | None, typer.Option(help="Solve with this provider first.")] = None,
    seed: Annotated[int, typer.Option()] = 0,
    out_dir: Annotated[Path, typer.Option()] = Path("bench-out/gsm8k"),
    test_file: Annotated[Path, typer.Option(exists=True, dir_okay=False)] = (GSM8K_TEST),
) -> None:
    """A seeded sample of GSM8K test problems through the service (as `bench solve`)."""
    import random

    from app.resources import open_resources
    from solveverify_bench.solve import load_problems, run_solve_bench

    settings = get_settings()
    if provider:
        order = settings.llm.default_provider_order
        settings.llm.default_provider_order = [provider, *(p for p in order if p != provider)]

    async def run() -> dict[str, Any]:
        async with open_resources(settings) as services:
            if provider and provider not in services.registry:
                raise typer.BadParameter(f"provider {provider!r} is not configured")
            problems = load_problems(test_file)
            sample = random.Random(seed).sample(problems, min(n_problems, len(problems)))
            return await run_solve_bench(services, sample, out_dir)

    _print(asyncio.run(run()))


@bench_app.command("perf")
def perf(
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the figures here.")] = None,
    latency: Annotated[
        list[float] | None,
        typer.Option(
            help="Fake model latency L, seconds; repeat it (--latency 0.2 --latency 1.0): the "
            "first is the critical and fanout sections' L, every one is measured in the "
            "latency section. Default: 0.2 and 1.0."
        ),
    ] = None,
    only: Annotated[
        list[str] | None,
        typer.Option(
            help="Run only this section (repeatable): critical, throughput, latency, fanout, "
            "cost, verified, local_model, ocr."
        ),
    ] = None,
    replay: Annotated[
        Path | None,
        typer.Option(
            help="Recorded run for the verified section (a MAV run directory or a "
            "recorded-run JSONL): calls and tokens per verified answer per evidence policy."
        ),
    ] = None,
    replay_policy: Annotated[
        list[str] | None,
        typer.Option(help="Evidence policy the verified section prices (repeatable)."),
    ] = None,
    replay_fit_passes: Annotated[
        int, typer.Option(help="`bench service --fit-passes` for the replay.")
    ] = 1,
    replay_quick_verifier: Annotated[
        str | None, typer.Option(help="`bench service --quick-verifier` for the replay.")
    ] = None,
    rounds: Annotated[int, typer.Option(help="Requests per client at each level.")] = 8,
    local_rounds: Annotated[
        int, typer.Option(help="Local model: raw and provider processes alternated N times.")
    ] = 3,
    throughput_s: Annotated[float, typer.Option(help="Seconds per throughput run.")] = 10.0,
    repeats: Annotated[
        int, typer.Option(help="Throughput runs, ours and the baseline alternated (medians).")
    ] = 1,
    redis_url: Annotated[
        str | None, typer.Option(help="Queue for follow-up jobs; in-process if unreachable.")
    ] = "redis://127.0.0.1:6379/14",
    postgres_admin_url: Annotated[
        str | None, typer.Option(help="Where a throwaway database is created; '' to skip.")
    ] = "postgresql://postgres@127.0.0.1:5432/postgres",
) -> None:
    """Overhead against the model critical path and a hand-written baseline (same model calls,
    same Postgres writes, a plain Starlette route): latency at every --latency, throughput and
    CPU per scan, verifier fan-out, calls and tokens per scan and per verified answer, local
    model and OCR speed, peak RSS. Each section is isolated: one that fails is reported and
    the rest still run and are written to --json (after every section). Exits 1 if a section
    failed."""
    from solveverify_bench.perf.run import SECTIONS, PerfConfig, run_perf, table
    from solveverify_bench.perf.sections import failed, selected
    from solveverify_bench.perf.verified import DEFAULT_POLICIES

    try:
        selected(SECTIONS, only or ())
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--only") from exc
    latencies = tuple(latency or (0.2, 1.0))
    config = PerfConfig(
        latency_s=latencies[0],
        latencies_s=latencies,
        rounds=rounds,
        local_rounds=max(1, local_rounds),
        throughput_s=throughput_s,
        repeats=max(1, repeats),
        redis_url=redis_url or None,
        postgres_admin_url=postgres_admin_url or None,
        only=tuple(only or ()),
        replay=replay,
        replay_policies=tuple(replay_policy or DEFAULT_POLICIES),
        replay_fit_passes=max(1, replay_fit_passes),
        replay_quick_verifier=replay_quick_verifier,
    )

    def save(report: dict[str, Any]) -> None:
        if json_out is not None:
            json_out.write_text(json.dumps(report, indent=2, ensure_ascii=False))

    report = asyncio.run(run_perf(config, say=lambda line: typer.echo(line, err=True), save=save))
    typer.echo("\n".join(table(report)))
    if failed(report):
        raise typer.Exit(1)


@bench_app.command("load")
def load(
    duration: Annotated[float, typer.Option(help="Seconds of load.")] = 60.0,
    concurrency: Annotated[int, typer.Option(help="Concurrent clients.")] = 50,
    latency: Annotated[float, typer.Option(help="Fake model latency, seconds.")] = 0.2,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the figures here.")] = None,
    images: Annotated[
        int,
        typer.Option(
            help="Instead of text: this many uploads of a 36 Mpx PNG, --concurrency at once; "
            "reports the server's peak and settled RSS and the 503s (OCR queue full)."
        ),
    ] = 0,
) -> None:
    """A bounded load test on loopback: `serve` on SQLite with fake providers, N clients for
    a duration. Exits 1 on any error or non-201 (with --images: on any 5xx but 503)."""
    if images:
        from solveverify_bench.perf.image_load import run_image_load_test

        report = asyncio.run(run_image_load_test(concurrency, images))
        _print(report)
        if json_out is not None:
            json_out.write_text(json.dumps(report, indent=2))
        if any(int(s) >= 500 and s != "503" for s in report["statuses"]) or report["errors"]:
            raise typer.Exit(1)
        return
    from solveverify_bench.perf.run import run_load_test

    summary = asyncio.run(run_load_test(duration, concurrency, latency))
    _print(summary)
    if json_out is not None:
        json_out.write_text(json.dumps(summary, indent=2))
    if summary["failed"]:
        raise typer.Exit(1)


@bench_app.command("solve")
def solve(
    data: Annotated[
        Path,
        typer.Option(
            exists=True, dir_okay=False, help='JSONL of {"id", "problem", "answer"} (or GSM8K).'
        ),
    ],
    limit: Annotated[int | None, typer.Option(help="Only the first N problems.")] = None,
    out_dir: Annotated[Path, typer.Option()] = Path("bench-out/solve"),
) -> None:
    """Problems through the service's graph: verified precision (Wilson lower 95%), coverage."""
    from app.resources import open_resources
    from solveverify_bench.solve import load_problems, run_solve_bench

    try:
        problems = load_problems(data, limit)
    except (ValueError, json.JSONDecodeError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    settings = get_settings()

    async def run() -> dict[str, Any]:
        async with open_resources(settings) as services:
            return await run_solve_bench(services, problems, out_dir)

    _print(asyncio.run(run()))


@bench_app.command("ocr")
def ocr(
    limit: Annotated[int | None, typer.Option(help="Only N of the photos (seeded sample).")] = None,
    seed: Annotated[int, typer.Option(help="Draws each photo's size, tilt, blur, JPEG.")] = 0,
    out_dir: Annotated[Path, typer.Option()] = Path("bench-out/ocr"),
    fonts: Annotated[
        str,
        typer.Option(
            help="Comma-separated: mathtext (dejavusans, cm, stix), handwriting (the "
            "handwriting-like fonts installed), all, or single font sets."
        ),
    ] = "mathtext",
    prefix: Annotated[
        str, typer.Option(help="mixed (drawn at random), none, zh (解方程：/计算：/化简：), en.")
    ] = "mixed",
) -> None:
    """Photos of typeset math (mathtext in three fonts) through the service's graph: read
    exactly, verified, verified wrong and coverage per structure (solveverify_bench/ocr.py)."""
    from app.resources import open_resources
    from solveverify_bench.ocr import font_choices, run_ocr_bench, styles

    try:
        fontsets = font_choices(fonts)
        styles(seed, fontsets, prefix)
    except (ValueError, LookupError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    settings = get_settings()

    async def run() -> dict[str, Any]:
        async with open_resources(settings) as services:
            return await run_ocr_bench(
                services, out_dir, seed=seed, limit=limit, fonts=fontsets, prefix=prefix
            )

    _print(asyncio.run(run()))


@bench_app.command("make-reasoning-gym")
def make_reasoning_gym(
    out: Annotated[Path, typer.Option(help="JSONL to write.")] = Path(
        "bench-out/reasoning-gym.jsonl"
    ),
    n: Annotated[int, typer.Option(help="Problems, split evenly over the datasets.")] = 300,
    seed: Annotated[int, typer.Option()] = 0,
    datasets: Annotated[str, typer.Option(help="Comma-separated reasoning-gym datasets.")] = (
        "simple_equations,polynomial_equations,basic_arithmetic,fraction_simplification,"
        "decimal_arithmetic"
    ),
) -> None:
    """Write seeded reasoning-gym problems as {"id", "problem", "answer"} JSONL (needs the
    `reasoning-gym` package, in the dev extra)."""
    from solveverify_bench.reasoning_gym import write

    names = tuple(d.strip() for d in datasets.split(",") if d.strip())
    typer.echo(f"wrote {write(out, n, seed, names)} problems to {out}")


@bench_app.command("steps")
def steps(
    data: Annotated[
        Path, typer.Option(exists=True, dir_okay=False, help="ProcessBench-format JSON list.")
    ],
    backend: Annotated[
        str,
        typer.Option(
            help="'stub' (symbolic only), a configured provider for the critique, or 'replay' "
            "(the recorded replies of --replay)."
        ),
    ] = "stub",
    limit: Annotated[int | None, typer.Option(help="Only the first N samples.")] = None,
    out_dir: Annotated[Path, typer.Option(help="results.jsonl and summary.json.")] = Path(
        "bench-out/steps"
    ),
    replay: Annotated[
        Path | None,
        typer.Option(exists=True, dir_okay=False, help="Recorded critiques (JSONL) to replay."),
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="Record every live critique reply here (JSONL).")
    ] = None,
    calibration: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="The critique's calibrator (default: none; its stated confidence must reach "
            "the raw verified threshold).",
        ),
    ] = None,
    fit_calibration: Annotated[
        Path | None,
        typer.Option(help="Fit the critique's calibrator on this run's labelled claims, write it."),
    ] = None,
    target_precision: Annotated[
        float | None,
        typer.Option(help="The promise the fitted threshold keeps (default: settings)."),
    ] = None,
) -> None:
    """Find the first wrong step (issue 30): ProcessBench F1, symbolic flag precision/recall,
    coverage per method, per subset; the critique live, recorded or replayed."""
    from datetime import UTC, datetime

    from app.llm.base import ModelClient
    from app.resources import open_providers
    from app.verification.admission import critique_admitted
    from app.verification.calibration_files import load_calibrator
    from app.verification.step_critique import critique_messages
    from solveverify_bench.steps import CritiqueJudge, load_samples, run_steps_bench
    from solveverify_bench.steps import fit_calibration as fit_critique
    from solveverify_bench.steps_replay import (
        CritiqueRecorder,
        CritiqueReplay,
        RecordedCritiqueError,
        load_critiques,
        prompt_key,
    )

    if (backend == "replay") != (replay is not None):
        raise typer.BadParameter("--backend replay goes with --replay FILE (and only it)")
    if record is not None and backend in ("stub", "replay"):
        raise typer.BadParameter("--record needs a live backend (a configured provider)")
    try:
        samples = load_samples(data, limit)
        recorded = load_critiques(replay) if replay is not None else None
        replayed = CritiqueReplay(recorded) if recorded is not None else None
    except (ValueError, json.JSONDecodeError) as exc:  # RecordedCritiqueError included
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    settings = get_settings()
    verify = settings.verify
    critic = CritiqueJudge(load_calibrator(calibration), verify.verified_threshold)

    async def run() -> dict[str, object]:
        async with AsyncExitStack() as stack:
            sandbox, _, registry = await open_providers(settings, stack)
            model: ModelClient | None = replayed
            if backend not in ("stub", "replay"):
                if backend not in registry.order:
                    raise typer.BadParameter(
                        f"{backend} is not configured; stub, replay or one of "
                        f"{', '.join(registry.order)}"
                    )
                model = registry.get(backend, "verify")
                if record is not None:
                    ids = {prompt_key(critique_messages(s.problem, s.steps)): s.id for s in samples}
                    model = CritiqueRecorder(model, record, ids)
            summary, results = await run_steps_bench(sandbox, model, samples, critic, out_dir)
            if fit_calibration is not None:
                fitted = fit_critique(
                    results,
                    target=target_precision or verify.target_precision,
                    delta=verify.precision_delta,
                    holdout_fraction=verify.calibration_holdout_fraction,
                    fitted_at=datetime.now(UTC).isoformat(timespec="seconds"),
                    measured_on=None if model is None else f"{model.provider}:{model.model}",
                )
                fit_calibration.parent.mkdir(parents=True, exist_ok=True)
                fitted.save(fit_calibration)
                summary["fitted_calibration"] = {
                    "path": str(fit_calibration),
                    "claims": fitted.n_samples,
                    "threshold": fitted.threshold,
                    "precision_lower_bound": fitted.precision_lower_bound,
                    "ece": fitted.ece,
                    "auroc": fitted.auroc,
                    "measured_on": fitted.measured_on,
                    "admitted": critique_admitted(fitted, verify.min_verifier_auroc),
                }
            if isinstance(model, CritiqueRecorder):
                summary["recorded"] = {"path": str(record), "replies": model.recorded}
            return summary

    try:
        _print(asyncio.run(run()))
    except RecordedCritiqueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


from solveverify_bench import cli_recorded  # noqa: E402,F401  (registers its commands)
