"""`bench make-reasoning-gym`: procedural math problems from the `reasoning-gym` package.

Offline and seeded: the same arguments always write the same JSONL of {"id", "problem",
"answer"} for `bench solve`. The problems are split evenly over the datasets.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DEFAULT_DATASETS = (
    "simple_equations",
    "polynomial_equations",
    "basic_arithmetic",
    "fraction_simplification",
    "decimal_arithmetic",
)


def generate(
    n: int, seed: int, datasets: tuple[str, ...] = DEFAULT_DATASETS
) -> list[dict[str, Any]]:
    import reasoning_gym  # loaded only by the generator (a slow import)

    if not datasets:
        raise ValueError("name at least one reasoning-gym dataset")
    rows: list[dict[str, Any]] = []
    share, extra = divmod(n, len(datasets))
    for index, name in enumerate(datasets):
        size = share + (index < extra)
        if size == 0:
            continue
        # One seed per dataset, derived from the run's, so adding a dataset changes no other.
        for i, entry in enumerate(reasoning_gym.create_dataset(name, size=size, seed=seed + index)):
            rows.append(
                {
                    "id": f"{name}-{seed}-{i}",
                    "problem": entry["question"],
                    "answer": str(entry["answer"]),
                }
            )
    return rows


def write(out: Path, n: int, seed: int, datasets: tuple[str, ...] = DEFAULT_DATASETS) -> int:
    rows = generate(n, seed, datasets)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return len(rows)
