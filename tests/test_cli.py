"""The console script, run as a newcomer would: real processes, real files, real server."""

from __future__ import annotations

import json
import os
import subprocess
import sysconfig
import venv
from importlib.metadata import entry_points
from pathlib import Path

import httpx
import pytest

from app.cli import PLUGIN_GROUP
from tests.conftest import create_postgres_database, drop_postgres_database
from tests.fixtures.images import draw_text
from tests.fixtures.processes import run_cli, serve, stop


def test_solve_text_on_embedded_defaults(tmp_path: Path) -> None:
    result = run_cli("solve", "--text", "Solve 2x + 3 = 11", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert body["final_answer"] == "x = 4"
    assert body["verification_status"] == "verified"
    assert (tmp_path / "solveverify.db").exists()  # the SQLite default, in the working directory


def test_solve_image(tmp_path: Path) -> None:
    image = tmp_path / "problem.png"
    image.write_bytes(draw_text("3/4 + 5/6 = ?"))
    result = run_cli("solve", "--image", str(image), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert (body["final_answer"], body["verification_status"]) == ("19/12", "verified")


def test_solve_needs_input(tmp_path: Path) -> None:
    result = run_cli("solve", cwd=tmp_path)
    assert result.returncode != 0
    assert "--text or --image" in result.stderr


def too_many_pixels() -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("1", (7000, 7000)).save(out, "PNG")  # 49,000,000 pixels in a few kB
    return out.getvalue()


@pytest.mark.parametrize(
    ("contents", "code"),
    [(b"hello", "unsupported_media_type"), (too_many_pixels(), "image_too_large")],
    ids=["not-an-image", "too-many-pixels"],
)
@pytest.mark.parametrize(
    "command",
    [
        ("check", "--problem", "What is 2 + 2?", "--answer", "4", "--work-image"),
        ("check", "--answer", "4", "--image"),
        ("solve", "--image"),
    ],
    ids=["check-work-image", "check-image", "solve-image"],
)
def test_an_image_refused_is_one_line(
    tmp_path: Path, command: tuple[str, ...], contents: bytes, code: str
) -> None:
    """Refused as POST /v1/checks would refuse it: one JSON line and exit 2, no traceback."""
    image = tmp_path / "photo.png"
    image.write_bytes(contents)
    result = run_cli(*command, str(image), cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert json.loads(result.stderr)["error"]["code"] == code


def _post_and_get(base: str) -> dict:
    response = httpx.post(f"{base}/v1/scans", json={"text": "Solve 2x + 3 = 11"}, timeout=30)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["verification_status"] == "verified"
    scan = httpx.get(f"{base}/v1/scans/{body['scan_id']}", timeout=10).json()
    assert scan["solution"]["final_answer"] == "x = 4"
    return body


def test_serve_on_sqlite(tmp_path: Path) -> None:
    process, base = serve(tmp_path, {})
    try:
        _post_and_get(base)
    finally:
        stop(process)


@pytest.mark.postgres
async def test_db_upgrade_and_serve_on_postgres(tmp_path: Path) -> None:
    url = await create_postgres_database()
    try:
        env = {"SOLVEVERIFY_DATABASE_URL": url}
        upgraded = run_cli("db", "upgrade", cwd=tmp_path, env=env)
        assert upgraded.returncode == 0, upgraded.stderr
        process, base = serve(tmp_path, env)
        try:
            body = _post_and_get(base)
        finally:
            stop(process)
        import asyncpg

        connection = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
        try:
            row = await connection.fetchrow(
                "SELECT s.problem_text, v.verification_status FROM scans s "
                "JOIN solutions v ON v.scan_id = s.id WHERE v.id = $1::uuid",
                body["solution_id"],
            )
            bank = await connection.fetchval("SELECT count(*) FROM problem_bank")
        finally:
            await connection.close()
        assert tuple(row) == ("Solve 2x + 3 = 11", "verified")
        assert bank > 7000
        assert not (tmp_path / "solveverify.db").exists()
    finally:
        await drop_postgres_database(url)


def test_solve_through_an_openai_compatible_server(tmp_path: Path) -> None:
    from solveverify_bench.fake_llm import FakeLLMServer, Reply
    from tests.fixtures.providers import solution_json

    server = FakeLLMServer(default=Reply(solution_json("86", "7 × 13 = 91", "91 − 5 = 86")))
    server.start()
    try:
        env = {
            "SOLVEVERIFY_OPENAI_COMPATIBLE_BASE_URL": f"{server.url}/v1",
            "SOLVEVERIFY_OPENAI_COMPATIBLE_MODEL": "qwen2.5-7b-instruct",
            "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        }
        problem = "A baker fills 7 trays with 13 muffins each and sells all but 5. How many sold?"
        result = run_cli("solve", "--text", problem, cwd=tmp_path, env=env)
    finally:
        server.stop()
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert (body["provider"], body["final_answer"]) == ("openai_compatible", "86")
    assert body["verification_status"] == "unverified"  # no second provider to check it
    assert server.requests[0]["body"]["model"] == "qwen2.5-7b-instruct"


def test_the_bench_commands_come_from_their_entry_point(tmp_path: Path) -> None:
    """solveverify-bench registers `bench` in the CLI's plugin group; app never imports it."""
    (plugin,) = [p for p in entry_points(group=PLUGIN_GROUP) if p.name == "bench"]
    assert plugin.value == "solveverify_bench.cli:bench_app"
    assert plugin.dist is not None and plugin.dist.name == "solveverify-bench"
    for args in (("bench", "--help"), ("bench", "solve", "--help")):
        result = run_cli(*args, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert "Not installed" not in result.stdout
    assert "verifiers" in run_cli("bench", "--help", cwd=tmp_path).stdout


def venv_without_the_bench(directory: Path) -> Path:
    """A virtual environment holding this one's packages (links) but solveverify-bench's (its
    dist-info with the entry point, and its editable finder): a product-only install. Returns
    its python."""
    venv.create(directory, with_pip=False, symlinks=True)
    paths = {"base": str(directory), "platbase": str(directory)}
    target = Path(sysconfig.get_paths(vars=paths)["purelib"])
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if "solveverify_bench" not in entry.name:
            (target / entry.name).symlink_to(entry)
    return directory / "bin" / "python"


def test_the_cli_builds_without_the_bench(tmp_path: Path) -> None:
    python = venv_without_the_bench(tmp_path / "venv")

    def run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(python), "-c", code, *args],
            cwd=tmp_path,  # not the repository: only the environment provides packages
            env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    missing = run("import solveverify_bench")
    assert "No module named 'solveverify_bench'" in missing.stderr  # the bench is really gone
    cli = "import sys; sys.argv[0] = 'solveverify'; from app.cli import app; app()"
    listed = run(cli, "--help")
    assert listed.returncode == 0, listed.stderr
    assert "solve" in listed.stdout and "Not installed" in listed.stdout
    hint = run(cli, "bench", "verifiers", "--data", "x.jsonl")
    assert hint.returncode == 1
    assert "comes with solveverify-bench" in hint.stderr
    solved = run(cli, "solve", "--text", "Solve 2x + 3 = 11")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["verification_status"] == "verified"
