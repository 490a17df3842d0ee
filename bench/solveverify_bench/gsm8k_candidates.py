"""A math benchmark set from GSM8K: each problem's reference solution plus hard negatives.

The negatives are the same worked solution with the final answer changed (off by one, doubled,
off by ten): plausible text, a wrong answer — exactly what a verifier has to catch. Labels
are known by construction.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from app.retrieval.gsm8k import parse_gsm8k


def _as_text(value: float) -> str:
    return str(int(value)) if value.is_integer() else f"{value:g}"


def _wrong_answers(answer: str, rng: random.Random) -> list[str]:
    try:
        value = float(answer)
    except ValueError:
        return []
    wrong = {_as_text(value + 1), _as_text(value * 2 if value else 2), _as_text(value + 10)}
    wrong.discard(answer)
    return sorted(wrong, key=lambda _: rng.random())


def make_candidates(test_file: Path, out: Path, n_problems: int, seed: int = 0) -> int:
    rng = random.Random(seed)
    problems = rng.sample(parse_gsm8k(test_file, "gsm8k-test"), n_problems)
    records = []
    for problem in problems:
        gold = problem["final_answer"]
        reference = f"{problem['solution']}\nFinal answer: {gold}"
        candidates = [{"source": "reference", "solution": reference, "correct": True}]
        for i, wrong in enumerate(_wrong_answers(gold, rng)):
            candidates.append(
                {
                    "source": f"negative{i}",
                    "correct": False,
                    "solution": f"{problem['solution']}\nFinal answer: {wrong}",
                }
            )
        rng.shuffle(candidates)
        records.append(
            {
                "id": problem["external_id"],
                "problem": problem["question"],
                "gold_answer": gold,
                "candidates": candidates,
            }
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return len(records)
