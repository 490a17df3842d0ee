"""`bench verifiers`: datasets, each pattern on scripted backends, resumability, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.datasets import GSM8K_TEST
from app.verification.aspects import DEFAULT_MATH_SET
from solveverify_bench.datasets import DatasetError, load_dataset
from solveverify_bench.harness import run_benchmark
from solveverify_bench.patterns import PatternContext, claims_of, token_f1
from tests.fixtures.scripted import ScriptedClient

ROOT = Path(__file__).resolve().parents[2]

MATH = [
    {
        "id": "frac",
        "problem": "What is 3/4 + 5/6?",
        "gold_answer": "19/12",
        "candidates": [
            {"source": "m1", "solution": "3/4 + 5/6 = 8/10. Final answer: 8/10"},
            {"source": "m2", "solution": "9/12 + 10/12 = 19/12. Final answer: 19/12"},
            {"source": "m3", "solution": "Common denominator: \\boxed{\\frac{19}{12}}"},
            {"source": "m4", "solution": "Final answer: 1.5"},
        ],
    },
    {
        "id": "apples",
        "problem": "Tom has 12 apples and buys 3 bags of 4.",
        "gold_answer": "24",
        "candidates": [
            {"source": "m1", "solution": "12 + 12 = 24\n#### 24"},
            {"source": "m2", "solution": "12 + 3 = 15. Final answer: 15", "correct": False},
            {"source": "m3", "solution": "Final answer: 24"},
            {"source": "m4", "solution": "Final answer: 20"},
        ],
    },
]
GROUNDED = [
    {
        "id": "g1",
        "question": "Where do plants make food?",
        "gold_answer": "in the chloroplasts",
        "evidence": [
            {"evidence_id": "e1", "text": "Photosynthesis happens in chloroplasts."},
            {"evidence_id": "e2", "text": "Roots absorb water."},
        ],
        "gold_citations": [{"evidence_id": "e1"}],
    }
]


def write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_dataset_errors_name_the_line(tmp_path: Path) -> None:
    data = write(tmp_path / "d.jsonl", [MATH[0], {"id": "x", "problem": "p"}])
    with pytest.raises(DatasetError, match=r"d\.jsonl:2: .*gold_answer"):
        load_dataset(data)
    (tmp_path / "bad.jsonl").write_text('{"id": 1\n')
    with pytest.raises(DatasetError, match=r"bad\.jsonl:1: not JSON"):
        load_dataset(tmp_path / "bad.jsonl")
    with pytest.raises(DatasetError, match="duplicate id"):
        load_dataset(write(tmp_path / "dup.jsonl", [MATH[0], MATH[0]]))
    kinds = [e.kind for e in load_dataset(write(tmp_path / "ok.jsonl", [MATH[0], GROUNDED[0]]))]
    assert kinds == ["math", "grounded"]


def approve_if(good: str):
    """A scripted verifier: approves (in every prompt format) when the solution contains `good`."""

    def reply(messages) -> str:
        text = messages[-1].content
        ok = good in text.split("INSTRUCTIONS")[0].split("Requirements")[0]
        if "verifying another agent" in text:
            return json.dumps({"score": 0.9 if ok else 0.2, "feedback": "check the sum"})
        if "FINAL VERIFICATION ANSWER" in text:
            return f"FINAL VERIFICATION ANSWER: {ok}"
        if "You must arbitrate" in text:  # a 2-2 split is no majority: the arbiter decides
            return f"ANSWER: {good}\nREASONING: recomputed\nCONFIDENCE: 0.9"
        return json.dumps({"is_correct": ok, "confidence": 0.9})

    return reply


@pytest.mark.parametrize(
    "pattern", ["self_consistency", "best_of_n", "bon_mav", "mars", "consensus"]
)
async def test_math_patterns(tmp_path: Path, sandbox, pattern: str) -> None:
    data = write(tmp_path / "math.jsonl", MATH[:1])
    backend = ScriptedClient("judge", [approve_if("19/12")])
    ctx = PatternContext(
        backend=backend, equivalent=sandbox.equivalent, n=4, aspect_keys=DEFAULT_MATH_SET[:2]
    )
    summary = await run_benchmark(data, pattern, tmp_path / "out", ctx, progress=False)
    (record,) = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").open()]
    assert record["candidates"][:3] == ["8/10", "19/12", "\\frac{19}{12}"]
    assert record["candidate_correct"] == [False, True, True, False]
    assert record["correct"] is True and record["selected_index"] in (1, 2)
    assert summary["selection"] == {"pass@1": 0.0, "best_of_n": 100.0, "oracle": 100.0}
    for name in ("calibration", "pr_curve", "roc_curve", "coverage_accuracy"):
        assert (tmp_path / "out" / "plots" / f"{name}.png").stat().st_size > 5000


async def test_runs_resume_where_they_stopped(tmp_path: Path, sandbox) -> None:
    data = write(tmp_path / "math.jsonl", MATH)
    backend = ScriptedClient("judge", [approve_if("19/12")])
    ctx = PatternContext(backend=backend, equivalent=sandbox.equivalent, n=4)
    await run_benchmark(data, "best_of_n", tmp_path / "out", ctx, max_examples=1, progress=False)
    calls = len(backend.calls)
    summary = await run_benchmark(data, "best_of_n", tmp_path / "out", ctx, progress=False)
    assert len(backend.calls) == calls + 4  # only the second example's four candidates
    await run_benchmark(data, "best_of_n", tmp_path / "out", ctx, progress=False)
    assert len(backend.calls) == calls + 4  # nothing left to do
    ids = [json.loads(line)["id"] for line in (tmp_path / "out" / "results.jsonl").open()]
    assert ids == ["frac", "apples"] and summary["n_examples"] == 2


def grounded_model(messages) -> str:
    prompt = messages[-1].content
    if "Does the evidence support the claim?" in prompt:
        claim = prompt.split("<claim>")[1].split("</claim>")[0]
        evidence = prompt.split("Evidence:")[1]
        if "chloroplast" in claim.lower() and "chloroplasts" in evidence:
            return "SUPPORTED"
        if "moon" in claim.lower():
            return "UNSUPPORTED"
        return "UNCERTAIN"
    if "Only state what these snippets support" in prompt:
        return "Plants make food in the chloroplasts [cite:e1]."
    return "Plants make food in the chloroplasts [cite:e1]. They do it on the moon [cite:e2]."


async def test_entailment_checks_claims_and_revises(tmp_path: Path, sandbox) -> None:
    data = write(tmp_path / "g.jsonl", GROUNDED)
    ctx = PatternContext(
        backend=ScriptedClient("m", [grounded_model]), equivalent=sandbox.equivalent
    )
    summary = await run_benchmark(data, "entailment", tmp_path / "out", ctx, progress=False)
    (record,) = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").open()]
    assert record["revision_used"] is True
    assert record["selected_answer"] == "Plants make food in the chloroplasts [cite:e1]."
    assert record["supported_claim_rate"] == 1.0 and record["citation_precision"] == 1.0
    assert summary["grounding"]["revisions"] == 1
    # Buckets come from the answers' error labels (here the token-F1 fallback, named).
    assert set(summary["failure_buckets"]) == {
        "unsupported claim",
        "wrong citation",
        "evidence omission",
    }
    assert summary["labels"]["token_f1_fallback"] == 2 and summary["labels"]["from_dataset"] == 0

    no_revision = PatternContext(
        backend=ScriptedClient("m", [grounded_model]), equivalent=sandbox.equivalent, revise=False
    )
    await run_benchmark(data, "entailment", tmp_path / "raw", no_revision, progress=False)
    (raw,) = [json.loads(line) for line in (tmp_path / "raw" / "results.jsonl").open()]
    assert raw["supported_claim_rate"] == 0.5
    assert raw["citation_coverage"] == 1.0 and raw["citation_precision"] == 0.5
    assert raw["failure_buckets"] == ["unsupported claim"]  # F1 0.4 < 0.5: label unsupported
    assert raw["verifier_flags"] == ["unsupported claim"]  # what the claim checks found


def test_claims_and_token_f1() -> None:
    assert claims_of("A is B [cite:e1]. C is D.") == [("A is B.", ["e1"]), ("C is D.", [])]
    assert token_f1("in the chloroplasts [cite:e1]", "in the chloroplasts") == 1.0
    assert token_f1("on the moon", "in the chloroplasts") == pytest.approx(1 / 3)


def test_cli_entry_points(tmp_path: Path) -> None:
    data = write(tmp_path / "math.jsonl", MATH)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "solveverify_bench",
            "verifiers",
            "--data",
            str(data),
            "--pattern",
            "self_consistency",
            "--out-dir",
            str(tmp_path / "out"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["selection"]["best_of_n"] == 100.0
    broken = write(tmp_path / "broken.jsonl", [{"id": "x", "problem": "p"}])
    failed = subprocess.run(
        [sys.executable, "-m", "app", "bench", "verifiers", "--data", str(broken)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert failed.returncode == 2 and "broken.jsonl:1" in failed.stderr


async def test_gsm8k_bench_through_the_pipeline(services, tmp_path: Path, monkeypatch) -> None:
    """A seeded GSM8K sample through the real graph, with a scripted solver that knows the
    answers and a scripted verifier that recomputes them, so every number is checkable."""
    import random
    from dataclasses import replace

    from app.llm.delimit import unwrap
    from app.llm.registry import build_registry
    from solveverify_bench.solve import load_problems, run_solve_bench
    from tests.fixtures.providers import solution_json, verdict_json

    problems = load_problems(GSM8K_TEST)
    answers = {p.problem: p.answer for p in problems}

    def known(messages) -> str:  # type: ignore[no-untyped-def]
        return answers[unwrap("problem", messages[-1].content)]

    oracle = ScriptedClient(
        "oracle", [lambda m: solution_json(known(m))], capabilities=frozenset({"solve"})
    )
    checker = ScriptedClient(
        "checker",
        [lambda m: verdict_json(True, 0.9, independent=known(m))],
        capabilities=frozenset({"verify"}),
    )
    registry = build_registry(["symbolic"], [services.registry.get("symbolic"), oracle, checker])
    monkeypatch.setattr(services, "pipeline", replace(services.pipeline, registry=registry))
    sample = random.Random(7).sample(problems, 3)
    summary = await run_solve_bench(services, sample, tmp_path)
    assert summary["n"] == 3 and summary["answered_accuracy"] == 1.0
    assert summary["verified"] == 3 and summary["verified_precision"] == 1.0
    assert summary["calls_per_problem"] == 3.0  # symbolic declines, oracle solves, checker checks
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 3
