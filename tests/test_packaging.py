"""The project is self-contained: its data ships inside the package, nothing is read from
beside the repository."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from packaging.requirements import Requirement

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


def build_wheel(source: Path, out: Path) -> zipfile.ZipFile:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = out.glob("*.whl")
    return zipfile.ZipFile(wheel)


def metadata(wheel: zipfile.ZipFile, file: str) -> str:
    (path,) = [n for n in wheel.namelist() if n.endswith(f".dist-info/{file}")]
    return wheel.read(path).decode()


@pytest.fixture(scope="module")
def product_wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """The wheel `pip install .` installs (and the server image's `pip install -e .` mirrors)."""
    return build_wheel(ROOT, tmp_path_factory.mktemp("product"))


def test_the_wheel_carries_the_data_and_its_license(product_wheel: zipfile.ZipFile) -> None:
    names = set(product_wheel.namelist())
    for name in ("train.jsonl.gz", "test.jsonl.gz", "LICENSE"):
        assert f"app/datasets/gsm8k/{name}" in names


def test_the_product_wheel_holds_no_benchmark(product_wheel: zipfile.ZipFile) -> None:
    """The benchmark is solveverify-bench (bench/): not in the product's wheel, and none of
    what only it needs is a requirement of the product."""
    names = product_wheel.namelist()
    assert "app/cli.py" in names  # the right wheel
    assert {n.split("/")[0] for n in names if ".dist-info/" not in n} == {"app"}
    assert [n for n in names if n.startswith("app/bench/")] == []
    requires = Parser().parsestr(metadata(product_wheel, "METADATA")).get_all("Requires-Dist")
    assert requires, "the product has requirements"
    names_required = {Requirement(r).name.lower() for r in requires}
    assert "fastapi" in names_required
    assert names_required & {"matplotlib", "tqdm", "reasoning-gym", "reasoning_gym"} == set()


def test_the_bench_wheel_carries_its_data_and_its_command(tmp_path: Path) -> None:
    wheel = build_wheel(ROOT / "bench", tmp_path)
    names = set(wheel.namelist())
    for name in ("grounded_qa_sample.jsonl", "math_sample.jsonl"):
        assert f"solveverify_bench/data/{name}" in names
    assert "solveverify_bench/perf/run.py" in names
    assert "[solveverify.commands]\nbench = solveverify_bench.cli:bench_app" in metadata(
        wheel, "entry_points.txt"
    )
    requires = Parser().parsestr(metadata(wheel, "METADATA")).get_all("Requires-Dist") or []
    assert {"solveverify", "matplotlib", "tqdm", "reasoning-gym"} <= {
        Requirement(r).name.lower() for r in requires
    }


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
