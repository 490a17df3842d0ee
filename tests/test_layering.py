"""DESIGN.md: pipeline/, llm/, verification/ and bench/ import neither FastAPI nor SQLAlchemy."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import app

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ["app.pipeline", "app.llm", "app.verification", "app.bench"]


def modules(package: str) -> list[str]:
    path = [str(Path(app.__file__).parent / package.split(".")[1])]
    return [package] + [
        f"{package}.{m.name}" for m in pkgutil.walk_packages(path) if m.name != "__main__"
    ]


@pytest.mark.parametrize("layer", LAYERS)
def test_layer_imports_no_web_or_orm(layer: str) -> None:
    names = modules(layer)
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('fastapi', 'sqlalchemy'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert result.stdout.strip() == "", f"{layer} pulls in {result.stdout.strip()}"
