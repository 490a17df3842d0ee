"""The project is self-contained: its data ships inside the package, nothing is read from
beside the repository."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import app
from app.datasets import GSM8K_TEST, GSM8K_TRAIN
from app.retrieval.gsm8k import parse_gsm8k
from app.settings import RetrievalSettings

ROOT = Path(__file__).resolve().parents[1]


def test_problem_bank_loads_from_the_package() -> None:
    path = RetrievalSettings().problem_bank_path
    assert path == GSM8K_TRAIN
    assert path.is_relative_to(Path(app.__file__).parent)  # inside the installed package
    rows = parse_gsm8k(path)
    assert len(rows) == 7473
    assert rows[0]["external_id"] == "train-1" and rows[0]["final_answer"] == "72"
    assert len(parse_gsm8k(GSM8K_TEST)) == 1319


def test_the_wheel_carries_the_data_and_its_license(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(tmp_path), str(ROOT)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("solveverify-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("train.jsonl.gz", "test.jsonl.gz", "LICENSE"):
        assert f"app/datasets/gsm8k/{name}" in names


def test_nothing_reads_outside_the_repository() -> None:
    """No code climbs out of the repository to the reference material kept beside it on the
    team's machines (a user's fresh clone has nothing there)."""
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in ("app", "migrations")
        for path in (ROOT / folder).rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "shared" in line and (".parent" in line or "parents[" in line or "../" in line)
    ]
    assert offenders == []
