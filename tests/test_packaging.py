"""The project is self-contained: its data ships inside the package, nothing is read from
beside the repository."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from packaging.requirements import Requirement

import app
from app.datasets import GSM8K_TEST, GSM8K_TRAIN
from app.db.migrate import SCRIPT_LOCATION
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
    """Built from a copy of the source tree (git's files, none it ignores): setuptools builds in
    place and packs whatever a stale build/lib holds, which would hide a file the configuration
    no longer ships."""
    tree = out / "source"
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=source,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    for name in filter(None, listed.split("\0")):
        if (source / name).is_file():  # not a file deleted and not yet committed
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source / name, tree / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(tree)],
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


def test_the_wheel_carries_the_migrations(product_wheel: zipfile.ZipFile) -> None:
    """Alembic loads them by path (versions/ is no package): they ship as package data."""
    names = set(product_wheel.namelist())
    versions = sorted((SCRIPT_LOCATION / "versions").glob("*.py"))
    assert len(versions) >= 12
    expected = {"env.py", "script.py.mako"} | {f"versions/{path.name}" for path in versions}
    missing = {f"app/db/migrations/{name}" for name in expected} - names
    assert missing == set()


# Run in a directory outside the checkout, with only the wheel's files ahead on the path: the
# migrations reach head on a fresh SQLite file and the start-up schema check is satisfied.
MIGRATE_FROM_THE_WHEEL = """
import asyncio, json, sqlite3, sys
from pathlib import Path

import app
from app.db.migrate import SCRIPT_LOCATION, schema_problem, upgrade

database = Path("fresh.db").resolve()
url = f"sqlite+aiosqlite:///{database}"
upgrade(url)
with sqlite3.connect(database) as connection:
    tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master")]
    (version,) = connection.execute("SELECT version_num FROM alembic_version").fetchone()
print(json.dumps({
    "app": app.__file__,
    "scripts": str(SCRIPT_LOCATION),
    "tables": tables,
    "version": version,
    "problem": asyncio.run(schema_problem(url)),
}))
"""


PIP_INSTALL = [sys.executable, "-m", "pip", "install", "-q", "--no-deps"]


def test_the_installed_wheel_migrates_a_fresh_database(
    product_wheel: zipfile.ZipFile, tmp_path: Path
) -> None:
    target, work = tmp_path / "site", tmp_path / "work"
    work.mkdir()
    assert product_wheel.filename is not None
    subprocess.run(
        [*PIP_INSTALL, "--target", str(target), str(product_wheel.filename)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    # The dependencies come from this environment; `app` must come from the wheel alone.
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "PYTHONPATH": str(target)}
    result = subprocess.run(
        [sys.executable, "-c", MIGRATE_FROM_THE_WHEEL],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    assert Path(report["app"]).is_relative_to(target), report["app"]
    assert Path(report["scripts"]).is_relative_to(target), report["scripts"]
    assert {"scans", "solutions", "verifications", "problem_bank", "checks"} <= set(
        report["tables"]
    )
    assert {"v_answers", "v_quality"} <= set(report["tables"])  # the last revision's views
    head = ScriptDirectory(str(SCRIPT_LOCATION)).get_current_head()
    assert report["version"] == head
    assert report["problem"] is None


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
        for path in (ROOT / "app").rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "shared" in line and (".parent" in line or "parents[" in line or "../" in line)
    ]
    assert offenders == []
