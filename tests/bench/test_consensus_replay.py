"""`bench consensus`: fitness learned from validated outcomes on one half, the product's
consensus (and the best-supported fallback) measured on the other; hand-built answers."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from app.verification.consensus import ConsensusResult, NodeAnswer
from app.verification.selection import best_supported
from solveverify_bench.cli import bench_app


def problem(i: int, strong: str, weak: tuple[str, str], gold: str) -> dict:
    answers = [("strong", strong), ("weak_a", weak[0]), ("weak_b", weak[1])]
    return {
        "id": f"p{i}",
        "problem": f"problem {i}",
        "gold_answer": gold,
        "candidates": [{"source": s, "answer": a, "is_correct": a == gold} for s, a in answers],
    }


def test_learned_fitness_outvotes_two_weak_models_that_share_an_error(tmp_path: Path) -> None:
    # The strong model is right 9 times in 10; the weak ones are wrong together ("0") 8 times
    # in 10. Plain majority follows the weak pair; consensus with learned fitness does not.
    rows = [
        problem(i, "1" if i % 10 else "2", ("0", "0") if i % 5 else ("1", "3"), "1")
        for i in range(200)
    ]
    data = tmp_path / "answers.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in rows))
    result = CliRunner().invoke(bench_app, ["consensus", "--data", str(data)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output[result.output.index("{") :])
    assert summary["n"] == 100 and summary["fit_problems"] == 100
    assert summary["best_single"] == "strong"
    assert summary["consensus_accuracy"] >= summary["best_single_accuracy"]
    assert summary["consensus_accuracy"] > summary["majority_accuracy"]
    assert summary["oracle_accuracy"] >= summary["consensus_accuracy"]


def test_the_best_supported_answer_never_comes_from_order() -> None:
    undecided = ConsensusResult(None, "no_consensus", 0.0, 0.0, [[0], [1]], [])
    even = [NodeAnswer("a", "1", 0.7), NodeAnswer("b", "2", 0.7)]
    assert best_supported(undecided, even) is None  # a tie names nobody
    fitter = [NodeAnswer("a", "1", 0.2), NodeAnswer("b", "2", 0.9)]
    assert best_supported(undecided, fitter) == 1  # the fittest, not the first
    weightless = [NodeAnswer("a", "1", 0.0), NodeAnswer("b", "2", 0.0)]
    assert best_supported(undecided, weightless) is None
    agreed = ConsensusResult("2", "exact_match", 0.67, 0.6, [[0], [1, 2]], [1, 2])
    three = [NodeAnswer("a", "1", 0.9), NodeAnswer("b", "2", 0.1), NodeAnswer("c", "2", 0.3)]
    assert best_supported(agreed, three) == 2  # consensus decides; its fittest member
