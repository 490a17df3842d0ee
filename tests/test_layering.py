"""The house rules of docs (DESIGN's layering), checked on every import statement — at module
level and inside functions — and on what the server process actually loads."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"
BENCH = ROOT / "bench" / "solveverify_bench"  # the benchmark, a distribution of its own

# Layers free of the web framework and the ORM: the API, the worker and the benchmarks drive
# the same graph and verifiers through them.
PURE_LAYERS = ["pipeline", "llm", "verification", "bench", "symbolic"]
# The product's domains: each owns its endpoints, use cases, repositories and schemas.
DOMAINS = (
    "app.scans",
    "app.solutions",
    "app.checks",
    "app.calibration",
    "app.analytics",
    "app.auth",
    "app.idempotency",
)
# (The benchmark's fake model server is a plain Starlette app: an HTTP peer, not our API.)
WEB_OR_ORM = ("fastapi", "sqlalchemy", "app.api", "app.db.models", "app.db.repositories")
# The same for the core, which knows no domain (with their endpoints and repositories).
CORE_WEB_OR_ORM = WEB_OR_ORM + DOMAINS
# Every query lives in a repository (the infrastructure's, or a domain's `*repository.py`),
# or the analysts' SQL module.
QUERY_HOMES = ("app/db/repositories/", "app/analytics/queries.py", "app/db/session.py")
QUERY_BUILDERS = {"select", "insert", "update", "delete", "text"}


def imports(path: Path) -> list[tuple[str, set[str], int]]:
    """(module, imported names, line) for every import statement in the file."""
    found: list[tuple[str, set[str], int]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, set(), node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, {a.name for a in node.names}, node.lineno))
    return found


def files(under: str = "") -> list[Path]:
    return sorted((BENCH if under == "bench" else APP / under).rglob("*.py"))


def module_name(path: Path) -> str:
    base = BENCH.parent if path.is_relative_to(BENCH) else ROOT
    return ".".join(path.relative_to(base).with_suffix("").parts).removesuffix(".__init__")


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


@pytest.mark.parametrize("layer", PURE_LAYERS)
def test_pure_layers_import_no_web_framework_or_orm(layer: str) -> None:
    bad = [
        f"{rel(path)}:{line} imports {module}"
        for path in files(layer)
        for module, _, line in imports(path)
        if within(module, WEB_OR_ORM if layer == "bench" else CORE_WEB_OR_ORM)
    ]
    assert bad == []


def test_db_models_import_neither_llm_nor_schemas() -> None:
    bad = [
        f"{rel(path)}:{line} imports {module}"
        for path in files("db/models")
        for module, _, line in imports(path)
        if within(module, ("app.llm", "app.schemas", "app.api", "app.pipeline", *DOMAINS))
    ]
    assert bad == []


def test_nothing_in_the_package_imports_tests() -> None:
    bad = [
        f"{rel(path)}:{line} imports {module}"
        for path in files()
        for module, _, line in imports(path)
        if within(module, ("tests",))
    ]
    assert bad == []


def test_the_product_never_imports_the_benchmark() -> None:
    """Benchmark code lives in bench/ (solveverify-bench); app imports neither it nor what only
    it needs (the CLI finds its `bench` commands through an entry point)."""
    bad = [
        f"{rel(path)}:{line} imports {module}"
        for path in files()
        for module, _, line in imports(path)
        if within(module, ("solveverify_bench", "matplotlib", "tqdm", "reasoning_gym"))
    ]
    assert bad == []


def is_domain_repository(path: Path) -> bool:
    return within(module_name(path), DOMAINS) and path.name.endswith("repository.py")


def test_queries_live_in_repositories() -> None:
    bad = [
        f"{rel(path)}:{line} builds a query ({', '.join(sorted(names & QUERY_BUILDERS))})"
        for path in files()
        if not (rel(path).startswith(QUERY_HOMES) or is_domain_repository(path))
        for module, names, line in imports(path)
        if within(module, ("sqlalchemy",)) and names & QUERY_BUILDERS
    ]
    assert bad == []


@pytest.mark.parametrize("layer", PURE_LAYERS)
def test_pure_layers_load_no_web_framework_or_orm(layer: str) -> None:
    """The import closure too: importing every module of the layer loads neither."""
    names = [module_name(path) for path in files(layer) if path.name != "__main__.py"]
    assert names, f"no modules in {layer}"
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('fastapi', 'sqlalchemy'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"{layer} pulls in {result.stdout.strip()}"


def test_the_server_process_loads_no_benchmark_code() -> None:
    code = (
        "import sys\n"
        "import app.server, app.main, app.worker.settings\n"
        "app.main.create_app()\n"
        "print(','.join(sorted(m for m in sys.modules if m.startswith('solveverify_bench'))))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


# Function-level imports of the product's own modules, each allowed for the reason given: start-up
# cost or an optional dependency, never to dodge an import circle (the layers contract in
# pyproject.toml forbids the circle itself).
DEFERRED_IMPORTS_ALLOWED = {
    "app/cli.py": "a command imports what it runs: --help answers without the model stack",
    "app/auth/cli.py": "the `keys` commands, as app/cli.py: no database layer for --help",
    "app/server.py": "`serve` before uvicorn starts: metrics and migrations only when used",
    "app/process.py": "the schema check loads Alembic only for an external database",
    "app/llm/factory.py": "the OpenAI-compatible provider's SDK only when one is configured",
    "app/api/openapi_docs.py": "the request and event schemas only when the document is built",
    "app/api/request_context.py": "the error renderer only on the rare unhandled error",
    "app/scans/text_input.py": "the settings at call time: tests and servers differ",
    "app/symbolic/checker.py": "the second reading only for an assignment-shaped answer",
    "app/verification/calibration.py": "the precision search only when a threshold is fitted",
}


def deferred_app_imports(path: Path) -> list[tuple[str, int]]:
    """(module, line) of each `app.*` import that is not at module level (an `if
    TYPE_CHECKING:` block at module level counts as module level: it runs for no one)."""
    tree = ast.parse(path.read_text(), str(path))
    module_level: set[int] = set()
    for node in tree.body:
        blocks = [node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            blocks = list(node.body)
        module_level |= {id(b) for b in blocks}
    found = []
    for node in ast.walk(tree):
        if id(node) in module_level:
            continue
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names if within(a.name, ("app",))]
        elif isinstance(node, ast.ImportFrom) and node.module and within(node.module, ("app",)):
            found.append((node.module, node.lineno))
    return found


def test_no_function_level_import_of_the_product_outside_the_allow_list() -> None:
    bad = [
        f"{rel(path)}:{line} imports {module} inside a function"
        for path in files()
        if rel(path) not in DEFERRED_IMPORTS_ALLOWED
        for module, line in deferred_app_imports(path)
    ]
    assert bad == []


def test_the_allow_list_names_only_files_that_still_need_it() -> None:
    stale = [name for name in DEFERRED_IMPORTS_ALLOWED if not deferred_app_imports(ROOT / name)]
    assert stale == []


def test_the_deferred_import_finder_sees_one(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "from app.settings import Settings\n"
        "if TYPE_CHECKING:\n"
        "    from app.errors import DomainError\n"
        "def f() -> None:\n"
        "    from app.resources import Resources\n"
    )
    assert deferred_app_imports(sample) == [("app.resources", 6)]


def layers_contract() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers: list[str] = next(c for c in config["contracts"] if c["id"] == "layers")["layers"]
    return layers


def row_of(layers: list[str], module: str) -> int:
    """The index of the row naming `module` (or a package above it)."""
    rows = [
        i
        for i, row in enumerate(layers)
        for name in row.replace("|", ":").split(":")
        if within(module, (name.strip(),))
    ]
    assert len(rows) == 1, f"{module} is in rows {rows}"
    return rows[0]


def test_the_composition_sits_above_the_tasks_above_the_job_infrastructure() -> None:
    """No circle among them: the composition root (app.resources) over the task registry over
    each domain's tasks over the queues and the JobContext over the use cases."""
    layers = layers_contract()
    order = [
        row_of(layers, name)
        for name in (
            "app.resources",
            "app.worker.tasks",
            "app.scans.tasks",
            "app.worker.queue",
            "app.worker.context",
            "app.scans.service",
        )
    ]
    assert order == sorted(order) and len(set(order)) == len(order)


def test_every_module_of_a_domain_has_its_row_in_the_layers() -> None:
    """A module the contract does not name would be free of it: each domain module (or its
    subpackage) sits in exactly one row."""
    layers = layers_contract()
    for path in files():
        module = module_name(path)
        if within(module, DOMAINS) and module not in DOMAINS:
            row_of(layers, module)
