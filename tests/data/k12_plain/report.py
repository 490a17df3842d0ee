"""Per-category figures of a `bench solve` run over k12_plain.jsonl.

    python tests/data/k12_plain/report.py bench-out/solve/results.jsonl

verified: answers marked verified; wrong: verified but not equal to the independent answer;
coverage: verified / items. Categories are the id prefixes ("percent-003" → percent).
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path


def main(results: Path) -> None:
    rows: dict[str, list[dict[str, object]]] = defaultdict(list)
    for line in results.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            rows[str(record["id"]).rsplit("-", 1)[0]].append(record)
    total = [0, 0, 0]
    print(f"{'category':<12} {'items':>5} {'verified':>8} {'wrong':>5} {'coverage':>8}")
    for category, records in sorted(rows.items()):
        verified = [r for r in records if r["status"] == "verified"]
        wrong = [r for r in verified if r["correct"] is not True]
        total = [total[0] + len(records), total[1] + len(verified), total[2] + len(wrong)]
        coverage = len(verified) / len(records)
        counts = f"{len(records):>5} {len(verified):>8} {len(wrong):>5}"
        print(f"{category:<12} {counts} {coverage:>8.1%}")
        for r in wrong:
            print(f"    WRONG {r['id']}: {r['problem']!r} gold {r['gold']!r} got {r['answer']!r}")
    print(f"{'all':<12} {total[0]:>5} {total[1]:>8} {total[2]:>5} {total[1] / total[0]:>8.1%}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
