"""`solveverify bench convert-mav | make-recorded-gsm8k | service`: recorded runs (issue 15)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from app.settings import get_settings
from solveverify_bench.cli import bench_app


@bench_app.command("convert-mav")
def convert_mav_command(
    mav_run: Annotated[
        Path,
        typer.Option(exists=True, file_okay=False, help="Directory of per-problem MAV JSON files."),
    ],
    out: Annotated[Path, typer.Option(help="Recorded-run JSONL to write.")],
) -> None:
    """Convert an official MAV run directory to the recorded-run format."""
    from solveverify_bench.recorded import convert_mav, save_recorded
    from solveverify_bench.replay import ReplayFormatError

    try:
        typer.echo(f"wrote {save_recorded(convert_mav(mav_run), out)} problems to {out}")
    except ReplayFormatError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


@bench_app.command("make-recorded-gsm8k")
def make_recorded_gsm8k(
    data: Annotated[Path, typer.Option(exists=True, dir_okay=False, help="make-gsm8k-set output.")],
    out: Annotated[Path, typer.Option(help="Recorded-run JSONL to write.")],
    verifiers: Annotated[
        str,
        typer.Option(help='SIMULATED verifiers: JSON {"id": [P(approve|right), P(approve|wrong)]}'),
    ] = '{"sim:a": [0.9, 0.2], "sim:b": [0.85, 0.3], "sim:c": [0.8, 0.1]}',
    seed: Annotated[int, typer.Option()] = 0,
) -> None:
    """A recorded run from GSM8K candidates with simulated verdicts (exercises the service
    offline; it measures no model)."""
    from solveverify_bench.recorded import gsm8k_recorded, save_recorded

    rates = {k: (float(v[0]), float(v[1])) for k, v in json.loads(verifiers).items()}
    typer.echo(f"wrote {save_recorded(gsm8k_recorded(data, verifiers=rates, seed=seed), out)}")


@bench_app.command("service")
def service_command(
    run: Annotated[Path, typer.Option(exists=True, dir_okay=False, help="Recorded-run JSONL.")],
    out_dir: Annotated[Path, typer.Option()] = Path("bench-out/service"),
    fit_fraction: Annotated[float, typer.Option(help="Problems that fit the promise.")] = 0.33,
    seed: Annotated[int, typer.Option()] = 0,
    target_precision: Annotated[float | None, typer.Option(help="Default: settings.")] = None,
    grader: Annotated[
        str,
        typer.Option(
            help="math-verify | mav | either (right when either accepts); the other is reported "
            "beside it (mav beside either)."
        ),
    ] = "math-verify",
    quick_verifier: Annotated[
        str | None, typer.Option(help="A recorded verifier id that answers QUICK_VERIFY.")
    ] = None,
    fit_run: Annotated[
        Path | None,
        typer.Option(
            exists=True, dir_okay=False, help="Fit on this recorded run, measure on all of --run."
        ),
    ] = None,
    evidence: Annotated[
        str | None, typer.Option(help='Evidence spec, e.g. "samples:3+panel:6" (default: panel).')
    ] = None,
    fit_passes: Annotated[
        int,
        typer.Option(help="Passes over the fit problems (as many as candidates: each once first)."),
    ] = 1,
    measure_passes: Annotated[
        int, typer.Option(help="Passes over the measured problems (pass 1 is the summary).")
    ] = 1,
    max_attempts: Annotated[int | None, typer.Option(help="Default: settings.")] = None,
    cluster_by_problem: Annotated[
        bool,
        typer.Option(
            help="The promise's bound counts one problem's outcomes (its passes) as dependent "
            "trials (Kish's effective sample size), not as independent ones."
        ),
    ] = False,
) -> None:
    """A recorded run through the real graph: fit calibration and the verified threshold on
    a seeded part (or on --fit-run), then badges, precision and coverage on the rest (or on
    all of --run). A string-identical answer is always right; both graders are reported."""
    from app.symbolic.sandbox import SymbolicSandbox
    from solveverify_bench.mav_equivalence import mav_equivalent
    from solveverify_bench.recorded import RecordedRunError, load_recorded
    from solveverify_bench.service import Grade, ServiceBenchConfig, either, run_service_bench

    if grader not in ("math-verify", "mav", "either"):
        raise typer.BadParameter("--grader is math-verify, mav or either")
    verify = get_settings().verify
    config = ServiceBenchConfig(
        fit_fraction=fit_fraction,
        seed=seed,
        target_precision=target_precision or verify.target_precision,
        delta=verify.precision_delta,
        quick_verifier=quick_verifier,
        max_attempts=max_attempts or verify.max_attempts,
        evidence=evidence,
        fit_passes=max(1, fit_passes),
        measure_passes=max(1, measure_passes),
        cluster_by_problem=cluster_by_problem,
    )
    try:
        problems = load_recorded(run)
        fit_problems = load_recorded(fit_run) if fit_run is not None else None
    except RecordedRunError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc

    async def go() -> dict[str, Any]:
        sandbox = SymbolicSandbox(verify.symbolic_workers, 5.0)
        try:
            graders: dict[str, Grade] = {
                "mav": mav_equivalent,
                "math-verify": sandbox.math_equivalent,
            }
            grade: Grade
            other: Grade
            if grader == "either":
                grade, other = either(mav_equivalent, sandbox.math_equivalent), mav_equivalent
            else:
                grade = graders.pop(grader)
                (other,) = graders.values()  # reported beside the chosen one
            return await run_service_bench(
                problems,
                out_dir,
                sandbox,
                verify,
                grade,
                config,
                fit_problems=fit_problems,
                other_grade=other,
            )
        finally:
            sandbox.close()

    typer.echo(json.dumps(asyncio.run(go()), indent=2))


@bench_app.command("consensus")
def consensus_command(
    data: Annotated[
        Path, typer.Option(exists=True, dir_okay=False, help="Multi-model answers (JSONL).")
    ],
    fit_fraction: Annotated[float, typer.Option(help="Problems that teach fitness.")] = 0.5,
    seed: Annotated[int, typer.Option()] = 0,
) -> None:
    """The product's consensus with fitness learned on one part of recorded multi-model
    answers (validated against the gold answer), measured on the rest beside plain majority,
    the best single model and the oracle."""
    from solveverify_bench.replay_consensus import load_multi, run_consensus_bench

    summary = asyncio.run(
        run_consensus_bench(load_multi(data), fit_fraction=fit_fraction, seed=seed)
    )
    typer.echo(json.dumps(summary, indent=2))
