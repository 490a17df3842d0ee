"""The TypeScript client compiles against the server's current OpenAPI document: the types are
generated (openapi-typescript) from create_app().openapi() and clients/typescript/usage.ts is
type-checked (tsc) against them, with the versions pinned in package-lock.json."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from app.main import create_app

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "typescript"
SOURCES = ("package.json", "package-lock.json", "tsconfig.json", "usage.ts")
NPM = shutil.which("npm")


def _run(*command: str, cwd: Path) -> str:
    done = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.skipif(NPM is None, reason="npm is not installed (Node 20 + npm build the client)")
def test_generated_types_compile_with_the_usage_example(tmp_path: Path) -> None:
    # A copy of the client: the shared checkout's node_modules and generated files stay as
    # they are, and the lock file alone decides what is installed.
    for name in SOURCES:
        shutil.copy(CLIENT / name, tmp_path / name)
    (tmp_path / "openapi.json").write_text(json.dumps(create_app().openapi()))

    _run("npm", "ci", "--no-audit", "--no-fund", cwd=tmp_path)
    _run(
        "npx",
        "--no-install",
        "openapi-typescript",
        "openapi.json",
        "-o",
        "schema.d.ts",
        cwd=tmp_path,
    )
    schema = (tmp_path / "schema.d.ts").read_text()
    assert '"/v1/scans": {' in schema and "ErrorResponse: {" in schema
    _run("npx", "--no-install", "tsc", "--noEmit", cwd=tmp_path)


def test_pinned_tool_versions() -> None:
    package = json.loads((CLIENT / "package.json").read_text())
    lock = json.loads((CLIENT / "package-lock.json").read_text())
    for name in ("openapi-typescript", "typescript"):
        pinned = package["devDependencies"][name]
        assert pinned[0].isdigit(), f"{name} is not pinned: {pinned}"
        assert lock["packages"][f"node_modules/{name}"]["version"] == pinned
