"""Recorded runs: replay providers through the real graph, convert-mav, bench service and
bench replay with both graders, on hand-built runs whose numbers are worked out below."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from app.bench.cli import bench_app
from app.bench.recorded import Candidate, RecordedProblem, load_recorded
from app.bench.service import ServiceBenchConfig, service_context
from app.pipeline.graph import build_graph, run_pipeline
from app.pipeline.state import SolveState

MAV_RUN = Path(__file__).parent.parent / "data" / "mav_run"


def candidate(answer: str, **verdicts: bool | None) -> Candidate:
    return Candidate("mav", "gen-1", f"The answer is {answer}.", answer, verdicts)


RUN = [
    # A: candidate 0 has 1/3 approvals (rejected at the 0.5 panel threshold) → retry;
    # candidate 1 has 3/3 → verified (raw 1.0 ≥ 0.8, no calibrator yet).
    RecordedProblem(
        "a",
        "Which whole number did the riddle describe? (replay a)",
        [candidate("41", v1=False, v2=False, v3=True), candidate("42", v1=True, v2=True, v3=True)],
        "42",
    ),
    # B: candidate 0 has 1/3 (v2 abstains: null) → retry; candidate 1 has 2/3 = 0.667: passed
    # but uncertain, and the attempts are used up → the best attempt (candidate 1), caution.
    RecordedProblem(
        "b",
        "Which whole number did the riddle describe? (replay b)",
        [candidate("7", v1=True, v2=None, v3=False), candidate("8", v1=True, v2=True, v3=None)],
        "8",
    ),
]


async def test_replay_providers_through_the_real_graph(sandbox, verify_settings) -> None:
    ctx, book = service_context(RUN, sandbox, verify_settings, ServiceBenchConfig())
    graph = build_graph()
    a = await run_pipeline(graph, ctx, SolveState(problem_text=RUN[0].problem))
    assert [x.final_answer for x in a.attempts] == ["41", "42"]  # attempt k gets candidate k
    assert a.verification_status == "verified" and a.solution.final_answer == "42"
    assert [x.verify_confidence for x in a.attempts] == [1 / 3, 1.0]
    b = await run_pipeline(graph, ctx, SolveState(problem_text=RUN[1].problem))
    assert [round(x.verify_confidence, 3) for x in b.attempts] == [0.333, 0.667]
    assert b.verification_status == "caution" and b.solution.final_answer == "8"
    # Every call counted: 2 solves + 2 quick verifies (no quick verifier recorded: abstain)
    # + 3 panel verifiers per attempt.
    assert book.calls == {"a": 10, "b": 10}
    assert a.model_calls == 2 + 6  # the graph's own count: quick verify + panel calls
    panel = [v for v in b.attempts[0].verdicts if v.verifier_id.endswith(":direct_approval")]
    assert sorted(v.verdict for v in panel) == ["abstain", "approve", "reject"]


def run_cli(*args: str) -> dict:
    result = CliRunner().invoke(bench_app, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.output[result.output.index("{") :])


def test_bench_replay_with_both_graders_matches_the_hand_computation(tmp_path: Path) -> None:
    # Correct by math-verify: p1 [T F T] (5.0 = 5), p2 [T F T] (2/4 = 1/2), p3 [F T T],
    # p4 [F F T]. By the paper's is_equiv (strings after strip_string): p1 [F F T],
    # p2 [F F T] (\frac{2}{4} ≠ \frac{1}{2}), p3 [F T T], p4 [F F T].
    mv = run_cli("replay", "--mav-run", str(MAV_RUN), "--out-dir", str(tmp_path / "mv"))
    mav = run_cli(
        "replay", "--mav-run", str(MAV_RUN), "--out-dir", str(tmp_path / "m"), "--grader", "mav"
    )
    # pass@1: first candidates right in p1, p2 (math-verify) / none (mav).
    # mean pass@1: (2+2+2+1)/3/4 = 58.33 / (1+1+2+1)/3/4 = 41.67.
    # bon_mav@2: most approvals among the first two, ties to the earliest: p1 c0, p2 c0,
    # p3 c1, p4 c0 → right in p1, p2, p3 (math-verify) / p3 only (mav).
    # oracle@2: any of the first two right: p1, p2, p3 / p3.
    picked = ("pass@1", "mean_pass@1", "bon_mav@2", "oracle@2")
    assert [mv["selection"][k] for k in picked] == [50.0, 58.33, 75.0, 75.0]
    assert [mav["selection"][k] for k in picked] == [0.0, 41.67, 25.0, 25.0]


def test_convert_mav_then_bench_service(tmp_path: Path) -> None:
    recorded = tmp_path / "run.jsonl"
    result = CliRunner().invoke(
        bench_app, ["convert-mav", "--mav-run", str(MAV_RUN), "--out", str(recorded)]
    )
    assert result.exit_code == 0, result.output
    problems = load_recorded(recorded)
    assert [p.id for p in problems] == ["p1", "p2", "p3", "p4"]
    first = problems[0].candidates[0]
    assert first.final_answer == "5.0"
    assert first.verdicts == {"gpt-4o-mini:math_step": True, "gemini-1.5-flash:edge_cases": True}
    out = tmp_path / "service"
    summary = run_cli(
        "service",
        "--run",
        str(recorded),
        "--out-dir",
        str(out),
        "--fit-fraction",
        "0.5",
        "--grader",
        "mav",
    )
    assert summary["n"] == 2 and summary["fit_problems"] == 2
    for key in (
        "answered",
        "verified",
        "verified_precision",
        "coverage",
        "accuracy",
        "caution",
        "unverified",
        "calls_per_scan",
        "ece",
        "brier",
        "threshold",
        "target_precision",
    ):
        assert key in summary
    # Two fit problems cannot show 95% precision: no threshold, so model evidence verifies
    # nothing and nothing wrong is shown as verified.
    assert summary["threshold"] is None and summary["target_precision"] == 0.95
    assert summary["verified"] == 0
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
    assert sorted(p.name for p in (out / "plots").iterdir()) == [
        "calibration.png",
        "coverage_accuracy.png",
        "pr_curve.png",
        "roc_curve.png",
    ]
