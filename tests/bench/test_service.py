"""Recorded runs: replay providers through the real graph, convert-mav, bench service and
bench replay with both graders, on hand-built runs whose numbers are worked out below."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from app.pipeline.graph import build_graph, run_pipeline
from app.pipeline.state import SolveState
from solveverify_bench.cli import bench_app
from solveverify_bench.recorded import Candidate, RecordedProblem, load_recorded, save_recorded
from solveverify_bench.service import (
    ServiceBenchConfig,
    either,
    fit_promise,
    identical_first,
    service_context,
)

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
    # B: candidate 0 has 1 of 2 decisive verdicts (v2 abstains: null, no evidence) = 0.5:
    # passed below the uncertain band → retry; candidate 1 has 2 of 2 decisive (v3 abstains;
    # quorum 2 of 3 met) = 1.0 → verified (raw, no calibrator yet). An abstention is never
    # counted as a rejection.
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
    assert [round(x.verify_confidence, 3) for x in b.attempts] == [0.5, 1.0]
    assert b.verification_status == "verified" and b.solution.final_answer == "8"
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
    # Two fit problems cannot show 97% precision: no threshold, so model evidence verifies
    # nothing and nothing wrong is shown as verified.
    assert summary["threshold"] is None and summary["target_precision"] == 0.97
    assert summary["verified"] == 0
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
    assert sorted(p.name for p in (out / "plots").iterdir()) == [
        "calibration.png",
        "coverage_accuracy.png",
        "pr_curve.png",
        "roc_curve.png",
    ]


async def test_a_string_identical_answer_is_always_right() -> None:
    async def never(gold: str, answer: str) -> bool | None:
        return False  # math-verify on \\frac{\\sqrt{3}}{2} against itself, for one

    grade = identical_first(never)
    assert await grade("\\frac{\\sqrt{3}}{2}", " \\frac{\\sqrt{3}}{2} ") is True
    assert await grade("1/2", "0.5") is False  # anything else: the grader decides
    # The same number written with a currency sign, thousands commas or trailing zeros (MAV
    # problem 205: gold \$2.50, sixteen solutions 2.5, both graders said wrong)
    assert await grade("\\$2.50", "2.5") is True
    assert await grade("1{,}000", "1000") is False  # not a plain number: the grader decides
    assert await grade("$1,000", "1000.0") is True
    assert await grade("2.50", "2.05") is False


async def test_fit_labels_take_either_graders_acceptance() -> None:
    async def strings(gold: str, answer: str) -> bool | None:
        return gold == answer  # MAV's grader: \frac{411}{333} is not \frac{137}{111}

    async def symbolic(gold: str, answer: str) -> bool | None:
        return {gold, answer} == {"137/111", "411/333"} or gold == answer

    grade = either(strings, symbolic)
    assert await grade("137/111", "411/333") is True
    assert await grade("137/111", "411/334") is False


SAMPLED = RecordedProblem(
    "s",
    "Which whole number did the riddle describe? (replay s)",
    [
        # attempt 1's answer is the odd one out, and its verifiers approve it
        candidate("41", v1=True, v2=True, v3=True),
        Candidate("mav", "gen-1", "Six sevens: 42.", "42", dict(v1=True, v2=False, v3=True)),
        Candidate("mav", "gen-1", "40 + 2 = 42.", "42", dict(v1=False, v2=None, v3=True)),
        Candidate("mav", "gen-1", "84 / 2 = 42.", "42", dict(v1=True, v2=True, v3=None)),
    ],
    "42",
)


async def test_samples_select_the_best_supported_answer_and_the_panel_judges_it(
    sandbox, verify_settings
) -> None:
    config = ServiceBenchConfig(evidence="samples:3+panel:3", max_attempts=1)
    ctx, book = service_context([SAMPLED], sandbox, verify_settings, config)
    state = await run_pipeline(build_graph(), ctx, SolveState(problem_text=SAMPLED.problem))
    assert state.solution is not None and state.solution.final_answer == "42"
    (attempt,) = state.attempts
    sampled = [v for v in attempt.verdicts if v.verifier_id.endswith(":self_consistency")]
    assert [v.score for v in sampled] == [2 / 3]  # two other candidates agree with the first 42
    # The panel judged the chosen candidate (the first 42: v1 ✓, v2 ✗, v3 ✓), not the last
    # one drawn nor attempt 1's 41 (all ✓).
    panel = sorted(v.verdict for v in attempt.verdicts if v.verifier_id.endswith("_approval"))
    assert panel == ["approve", "approve", "reject"]
    assert book.calls["s"] == 1 + 1 + 3 + 3  # solve, quick verify, samples, panel


def test_the_promise_is_fitted_by_cross_fitting() -> None:
    # Ledger rows as the service writes them: 80 clear right answers (both verifiers approve,
    # every sample agrees), 60 clear wrong ones, 20 muddled (half right) and 10 proofs.
    def attempt(a: float, b: float, agreement: float, correct: bool) -> dict:
        signals = {"verifier:p:a": a, "verifier:q:b": b, "self_consistency": agreement}
        return {"signals": signals, "correct": correct}

    records = [{"attempt_signals": [attempt(1, 1, 1.0, True)]} for _ in range(80)]
    records += [{"attempt_signals": [attempt(-1, -1, 0.0, False)]} for _ in range(60)]
    records += [{"attempt_signals": [attempt(1, -1, 0.5, i % 2 == 0)]} for i in range(20)]
    proof = {"programmatic": 1.0, "verifier:symbolic:evaluation": 1.0}
    records += [{"attempt_signals": [{"signals": proof, "correct": True}]} for _ in range(10)]
    fitted = fit_promise(records, ServiceBenchConfig(target_precision=0.95))
    assert fitted.feature_set == "evidence"
    assert "vote:p:a" in fitted.features and "agreement" in fitted.features
    # The promise is chosen on the 160 model-only outcomes; proofs verify by themselves.
    assert fitted.threshold is not None and fitted.evidence == 160
    assert fitted.precision_lower_bound is not None and fitted.precision_lower_bound >= 0.95
    assert fitted.predict(attempt(1, 1, 1.0, True)["signals"]) >= fitted.threshold
    muddled = fitted.predict(attempt(1, -1, 0.5, True)["signals"])
    assert muddled < fitted.threshold and abs(muddled - 0.5) < 0.1  # isotonic: observed rate
    assert fitted.predict(attempt(-1, -1, 0.0, False)["signals"]) < 0.05
    assert fitted.predict(proof) == 1.0
    too_few = fit_promise(records[:5], ServiceBenchConfig())
    assert too_few.threshold is None  # only proofs verify until there is evidence


def test_bench_service_fits_on_one_run_and_measures_another(tmp_path: Path) -> None:
    fit_run, measured = tmp_path / "fit.jsonl", tmp_path / "run.jsonl"
    save_recorded(RUN, fit_run)
    save_recorded([SAMPLED], measured)
    summary = run_cli(
        "service",
        "--fit-run",
        str(fit_run),
        "--run",
        str(measured),
        "--out-dir",
        str(tmp_path / "out"),
        "--evidence",
        "samples:3+panel:3",
        "--max-attempts",
        "1",
    )
    assert summary["n"] == 1 and summary["fit_problems"] == 2
    assert summary["accuracy"] == 1.0 and summary["other_grader"]["accuracy"] == 1.0
    assert summary["calls_per_scan"] == 8
    assert summary["right_shown_as_caution"] == 0.0
