"""Data that ships inside the package, so a fresh `pip install` has it with nothing beside it.

GSM8K (MIT, see gsm8k/LICENSE): `train` fills the problem bank, `test` feeds the benchmarks.
Files are gzip-compressed JSONL; `open_text` reads either form.
"""

from __future__ import annotations

import gzip
from importlib.resources import files
from pathlib import Path
from typing import IO

GSM8K_DIR = Path(str(files(__name__).joinpath("gsm8k")))
GSM8K_TRAIN = GSM8K_DIR / "train.jsonl.gz"
GSM8K_TEST = GSM8K_DIR / "test.jsonl.gz"


def open_text(path: Path) -> IO[str]:
    """A text handle on a JSONL file, compressed (`.gz`) or not."""
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


def stem(path: Path) -> str:
    """`train.jsonl.gz` → `train`: stable external ids whether or not the file is compressed."""
    name = path.name
    for suffix in (".gz", ".jsonl", ".json"):
        name = name.removesuffix(suffix)
    return name
