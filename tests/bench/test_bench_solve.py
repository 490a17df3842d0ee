"""`bench solve` through the real service graph, its summary, and the reasoning-gym generator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.datasets import GSM8K_TEST
from solveverify_bench.reasoning_gym import generate, write
from solveverify_bench.solve import Problem, load_problems, run_solve_bench, summarize, wilson_lower


def test_wilson_lower_bound() -> None:
    assert wilson_lower(0, 0) is None
    assert wilson_lower(10, 10) == pytest.approx(0.7225, abs=1e-4)
    assert wilson_lower(95, 100) == pytest.approx(0.8882, abs=1e-4)
    assert wilson_lower(0, 5) == pytest.approx(0.0, abs=1e-12)


def test_loads_our_schema_and_gsm8k(tmp_path: Path) -> None:
    data = tmp_path / "set.jsonl"
    data.write_text(
        '{"id": 1, "problem": "1+1=?", "answer": "2"}\n\n'
        '{"id": "b", "problem": "2x=4", "answer": 2}\n'
    )
    assert load_problems(data) == [Problem("1", "1+1=?", "2"), Problem("b", "2x=4", "2")]
    gsm8k = load_problems(GSM8K_TEST, limit=2)
    assert len(gsm8k) == 2 and gsm8k[0].answer == "18" and "Janet" in gsm8k[0].problem
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": 1, "problem": "1+1=?"}\n')
    with pytest.raises(ValueError, match=r"broken\.jsonl:1: missing field 'answer'"):
        load_problems(broken)


def test_summary_counts_and_lists_verified_wrong_answers() -> None:
    def record(status: str, correct: bool | None, method: str | None, answer: str | None = "1"):
        return {"id": status, "problem": "p", "gold": "1", "answer": answer, "correct": correct,
                "status": status, "method": method}  # fmt: skip

    records = [
        record("verified", True, "programmatic"),
        record("verified", False, "llm"),
        record("unverified", None, None, answer=None),
        record("caution", False, "programmatic"),
    ]
    summary = summarize(records)
    assert {k: summary[k] for k in ("n", "answered", "verified", "verified_correct")} == {
        "n": 4, "answered": 3, "verified": 2, "verified_correct": 1,
    }  # fmt: skip
    assert summary["verified_precision"] == 0.5 and summary["coverage"] == 0.5
    assert summary["answered_accuracy"] == pytest.approx(0.3333, abs=1e-4)
    assert (summary["caution"], summary["unverified"]) == (1, 1)
    assert summary["by_method"]["programmatic"] == {"verified": 1, "caution": 1}
    assert [w["id"] for w in summary["verified_wrong"]] == ["verified"]


async def test_runs_through_the_service_graph(services, tmp_path: Path) -> None:
    problems = [
        Problem("eq", "Solve 2x + 3 = 11", "4"),
        Problem("frac", "3/4 + 5/6 = ?", "19/12"),
        Problem("word", "A baker bakes 7 trays of 13 muffins and keeps 5. How many sold?", "86"),
    ]
    summary = await run_solve_bench(services, problems, tmp_path)
    assert summary["n"] == 3 and summary["verified"] == 2 and summary["verified_correct"] == 2
    assert summary["verified_precision"] == 1.0 and summary["verified_wrong"] == []
    assert summary["by_method"]["programmatic"] == {"verified": 2}
    assert json.loads((tmp_path / "summary.json").read_text()) == summary
    results = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [r["id"] for r in results] == ["eq", "frac", "word"]
    assert results[0]["correct"] is True and results[2]["status"] == "unverified"


def test_reasoning_gym_set_is_seeded_and_split(tmp_path: Path) -> None:
    pytest.importorskip("reasoning_gym")
    rows = generate(7, seed=0, datasets=("simple_equations", "basic_arithmetic"))
    assert [r["id"].rsplit("-", 2)[0] for r in rows] == ["simple_equations"] * 4 + [
        "basic_arithmetic"
    ] * 3
    assert rows == generate(7, seed=0, datasets=("simple_equations", "basic_arithmetic"))
    assert rows != generate(7, seed=1, datasets=("simple_equations", "basic_arithmetic"))
    out = tmp_path / "rg.jsonl"
    assert write(out, 5, 0) == 5
    assert [Problem(**json.loads(line)).id for line in out.read_text().splitlines()] == [
        r["id"] for r in generate(5, 0)
    ]
