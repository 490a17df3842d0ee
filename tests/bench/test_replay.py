"""Replay of a recorded MAV run whose numbers are worked out by hand below."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from solveverify_bench.replay import ReplayFormatError, label, load_run, report, selection

V_BOTH = {"gpt-4o-mini_math_step": True, "gemini_edge_cases": True}
V_ONE = {"gpt-4o-mini_math_step": True, "gemini_edge_cases": False}
V_NONE = {"gpt-4o-mini_math_step": False, "gemini_edge_cases": False}


def write_run(directory: Path) -> None:
    problems = {
        # A: the first answer is wrong, the other 15 right and approved by both verifiers.
        "a": ("5", ["4"] + ["5"] * 15, [V_ONE] + [V_BOTH] * 15),
        # B: three spellings of 1/2 (right), then thirteen 3s (wrong); candidate 1 unapproved.
        "b": (
            "\\frac{1}{2}",
            ["0.5", "1/2", "\\frac12"] + ["3"] * 13,
            [V_ONE, V_NONE] + [V_ONE] * 14,
        ),
        # C: nothing right; the first answer could not be extracted.
        "c": ("7", [None] + ["8"] * 15, [V_BOTH] * 16),
    }
    for name, (gold, answers, approvals) in problems.items():
        (directory / f"{name}.json").write_text(
            json.dumps(
                {
                    "problem": f"problem {name}",
                    "correct_answer": gold,
                    "solutions": [f"... \\boxed{{{a}}}" for a in answers],
                    "extracted_answers": answers,
                    "all_solution_vera_approvals": approvals,
                }
            )
        )


async def test_selection_numbers_match_the_hand_computation(tmp_path: Path, sandbox) -> None:
    write_run(tmp_path)
    problems = await label(load_run(tmp_path), sandbox.math_equivalent)
    assert [p.correct[:4] for p in problems] == [
        [False, True, True, True],
        [True, True, True, False],
        [False, False, False, False],
    ]
    third, two_thirds = 33.33, 66.67
    assert selection(problems) == {
        "pass@1": third,
        "mean_pass@1": 37.5,  # (15/16 + 3/16 + 0) / 3
        "cons@1": third,
        "class_majority@1": third,
        "bon_mav@1": third,
        "oracle@1": third,
        # A: "4" and "5" tie at n=2, the earlier wins for majority; BoN-MAV prefers the 2-vote 5
        "cons@2": third,
        "class_majority@2": third,
        "bon_mav@2": two_thirds,
        "oracle@2": two_thirds,
        # B at n=4: four different strings (cons takes the first, 0.5), one class of three
        "cons@4": two_thirds,
        "class_majority@4": two_thirds,
        "bon_mav@4": two_thirds,
        "oracle@4": two_thirds,
        # B at n=8: five 3s outvote the three halves, but the verifiers still pick 0.5
        "cons@8": third,
        "class_majority@8": third,
        "bon_mav@8": two_thirds,
        "oracle@8": two_thirds,
        "cons@16": third,
        "class_majority@16": third,
        "bon_mav@16": two_thirds,
        "oracle@16": two_thirds,
    }


async def test_report_artifacts(tmp_path: Path, sandbox) -> None:
    run, out = tmp_path / "run", tmp_path / "out"
    run.mkdir()
    write_run(run)
    summary = report(await label(load_run(run), sandbox.math_equivalent), out, seed=1)
    assert set(summary["selection"]) >= {
        "pass@1",
        "mean_pass@1",
        "cons@16",
        "bon_mav@16",
        "oracle@16",
    }
    calibration = summary["calibration"]
    assert set(calibration) >= {"ece", "brier", "raw_ece", "raw_brier"}
    assert all(0 <= calibration[k] <= 1 for k in ("ece", "brier", "raw_ece", "raw_brier"))
    assert summary["held_out"]["fit_problems"] == 1 and summary["held_out"]["test_problems"] == 2
    assert json.loads((out / "summary.json").read_text()) == json.loads(json.dumps(summary))
    lines = (out / "results.jsonl").read_text().splitlines()
    assert [json.loads(line)["id"] for line in lines] == ["a", "b", "c"]
    for name in ("calibration", "pr_curve", "roc_curve", "coverage_accuracy"):
        image = Image.open(out / "plots" / f"{name}.png").convert("L")
        assert image.size == (600, 450)
        dark = sum(image.histogram()[:128])
        assert dark > 2000, f"{name}.png looks blank"  # axes, labels and a plotted curve


def test_format_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(ReplayFormatError, match="no per-problem"):
        load_run(tmp_path)
    (tmp_path / "x.json").write_text(json.dumps({"problem": "p"}))
    with pytest.raises(ReplayFormatError, match=r"x\.json: missing keys"):
        load_run(tmp_path)
