"""GSM8K JSONL: question, worked solution (calculator annotations removed), final answer."""

from __future__ import annotations

import json
import re
from pathlib import Path

from app.datasets import open_text, stem

_GSM8K_FINAL = re.compile(r"####\s*(.+?)\s*$", re.S)
_CALCULATOR = re.compile(r"<<[^>]*>>")


def parse_gsm8k(path: Path, source: str = "gsm8k") -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    with open_text(path) as handle:
        for line_no, line in enumerate(handle, 1):
            if not line.strip():
                continue
            record = json.loads(line)
            answer = record["answer"]
            final = _GSM8K_FINAL.search(answer)
            if final is None:
                raise ValueError(f"{path}:{line_no}: answer has no '#### <final>' line")
            rows.append(
                {
                    "source": source,
                    "external_id": f"{stem(path)}-{line_no}",
                    "question": record["question"].strip(),
                    # GSM8K's <<48/2=24>> calculator annotations are noise for a worked example.
                    "solution": _CALCULATOR.sub("", answer[: final.start()]).strip(),
                    "final_answer": final.group(1).replace(",", "").strip(),
                }
            )
    return rows
