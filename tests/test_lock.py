"""The installed environment is the locked one: a warm pip cache, an older index or a hand
install cannot hide a version the lock does not name (README's commands install from
requirements/*.lock; scripts/lock.sh re-resolves them)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^(?P<name>[A-Za-z0-9_.\-]+)==(?P<version>[^\s;\\]+)\s*(?:;(?P<marker>[^\\]+))?")
# What a venv brings or the editable installs add (this repository's two distributions); none
# of it is imported by the product.
NOT_LOCKED = {"pip", "setuptools", "wheel", "solveverify", "solveverify-bench"}


def locked(name: str) -> dict[str, str]:
    """Package → pinned version, for the pins whose markers hold in this interpreter."""
    pins: dict[str, str] = {}
    for line in (ROOT / "requirements" / name).read_text().splitlines():
        match = PIN.match(line)
        if match and (match["marker"] is None or Marker(match["marker"]).evaluate()):
            pins[canonicalize_name(match["name"])] = match["version"]
    return pins


def test_installed_versions_are_the_locked_ones() -> None:
    pins = locked("dev.lock")
    installed = {
        canonicalize_name(dist.metadata["Name"]): dist.version for dist in metadata.distributions()
    }
    wrong = {
        name: f"installed {installed.get(name, 'nothing')}, locked {version}"
        for name, version in pins.items()
        if installed.get(name) != version and name not in NOT_LOCKED
    }
    unlocked = sorted(set(installed) - set(pins) - NOT_LOCKED)
    assert wrong == {}, "reinstall from requirements/dev.lock"
    assert unlocked == [], "installed but not in the lock: add them to pyproject.toml and relock"


def test_every_installed_requirement_is_met() -> None:
    """README installs the lock with --no-deps (pip resolves nothing); this is what a resolver
    would have checked: every installed package's own requirements are installed too."""
    check = subprocess.run(
        [sys.executable, "-m", "pip", "check"], capture_output=True, text=True, check=False
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_runtime_and_dev_locks_agree() -> None:
    dev = locked("dev.lock")
    assert {name: (version, dev.get(name)) for name, version in locked("base.lock").items()} == {
        name: (version, version) for name, version in locked("base.lock").items()
    }


def test_the_locks_satisfy_pyproject() -> None:
    """A requirement changed in pyproject.toml without relocking fails here, not on a user's
    machine."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    bench = tomllib.loads((ROOT / "bench" / "pyproject.toml").read_text())["project"]
    groups = {
        "base.lock": project["dependencies"],
        "dev.lock": [
            *project["dependencies"],
            *project["optional-dependencies"]["dev"],
            *project["optional-dependencies"]["local"],
            # The benchmark's own requirements; its `solveverify` is this repository.
            *(r for r in bench["dependencies"] if Requirement(r).name != project["name"]),
        ],
    }
    for lock, requirements in groups.items():
        pins = locked(lock)
        for requirement in map(Requirement, requirements):
            if requirement.marker is not None and not requirement.marker.evaluate():
                continue
            version = pins.get(canonicalize_name(requirement.name))
            assert version is not None, f"{requirement.name} missing from {lock}"
            assert Version(version) in requirement.specifier, f"{requirement} vs {version} ({lock})"


def test_the_runtime_lock_holds_nothing_only_the_benchmark_needs() -> None:
    """`pip install .` and the server image install base.lock: the benchmark's plotting and
    problem generator stay in dev.lock (tqdm is in both: rapidocr needs it too)."""
    assert {"matplotlib", "reasoning-gym"} & set(locked("base.lock")) == set()
    assert {"matplotlib", "reasoning-gym", "tqdm"} <= set(locked("dev.lock"))
