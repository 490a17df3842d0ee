"""Measure the difficulty rules (app/analysis/classifier.py) against data with known difficulty.

    .venv/bin/python scripts/difficulty_agreement.py --mav-run ../shared/data/mav-math-dev \
        [--reasoning-gym problems.json]

MAV run: MATH problems with 16 Gemini-1.5-Flash answers each; the share of answers math-verify
grades right is the problem's measured difficulty (>= 0.85 easy, >= 0.35 medium, else hard).
reasoning-gym: a JSON list of {"task", "level", "question"} made with reasoning-gym's curricula
at the lowest (0) and a top level; a problem at the top level should get a harder label than
the same task's at level 0. Development only: nothing in the product or its tests runs this.
"""

from __future__ import annotations

import argparse
import ast
import json
from collections import Counter, defaultdict
from contextlib import suppress
from pathlib import Path

from math_verify import parse, verify

from app.analysis.classifier import analyze

ORDER = {"easy": 0, "medium": 1, "hard": 2}


def measured(rate: float) -> int:
    return 0 if rate >= 0.85 else 1 if rate >= 0.35 else 2


def solve_rate(problem: dict[str, object]) -> float:
    answers = problem["extracted_answers"]
    answers = ast.literal_eval(answers) if isinstance(answers, str) else answers
    gold = parse(f"${problem['correct_answer']}$")
    right = 0
    for answer in answers:  # type: ignore[union-attr]
        with suppress(Exception):  # an unparsable answer is not right
            right += bool(verify(gold, parse(f"${answer}$")))
    return right / max(1, len(answers))  # type: ignore[arg-type]


def mav(run: Path) -> None:
    pairs = []
    for path in sorted(run.glob("problem_*.json")):
        problem = json.loads(path.read_text(encoding="utf-8"))
        truth = measured(solve_rate(problem))
        pairs.append((truth, ORDER[analyze(str(problem["problem"])).difficulty]))
    n = len(pairs)
    exact = sum(t == label for t, label in pairs) / n
    observed = sum(1 - abs(t - label) / 2 for t, label in pairs) / n
    truths, labels = Counter(t for t, _ in pairs), Counter(label for _, label in pairs)
    expected = sum(
        truths[i] * labels[j] * (1 - abs(i - j) / 2) for i in range(3) for j in range(3)
    ) / (n * n)
    print(
        f"MAV MATH problems: {n}; exact agreement {exact:.3f}; "
        f"linear-weighted kappa {(observed - expected) / (1 - expected):.3f}"
    )
    confusion = Counter(pairs)
    print("measured \\ label: easy medium hard")
    for t, name in enumerate(ORDER):
        print(f"  {name:6} {[confusion[(t, label)] for label in range(3)]}")


def reasoning_gym(path: Path) -> None:
    by_task: dict[str, dict[bool, list[int]]] = defaultdict(lambda: {False: [], True: []})
    for row in json.loads(path.read_text(encoding="utf-8")):
        by_task[row["task"]][row["level"] > 0].append(ORDER[analyze(row["question"]).difficulty])
    harder = same = easier = 0
    for levels in by_task.values():
        for low in levels[False]:
            for high in levels[True]:
                harder, same, easier = (
                    harder + (high > low),
                    same + (high == low),
                    easier + (high < low),
                )
    n = harder + same + easier
    print(
        f"reasoning-gym: {len(by_task)} tasks, {n} (level 0, top level) pairs of the same "
        f"task: harder label at the top {harder / n:.3f}, same {same / n:.3f}, "
        f"easier {easier / n:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mav-run", type=Path, required=True)
    parser.add_argument("--reasoning-gym", type=Path)
    args = parser.parse_args()
    mav(args.mav_run)
    if args.reasoning_gym:
        reasoning_gym(args.reasoning_gym)


if __name__ == "__main__":
    main()
