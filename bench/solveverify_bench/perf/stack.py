"""Processes the benchmarks (and the process-level tests) run: `solveverify serve`,
`solveverify worker`, and fake providers, each in its own process on loopback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from app.settings import REPO_ROOT

CLI = [sys.executable, "-m", "app"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def cli_env(env: dict[str, str] | None = None) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO_ROOT), **(env or {})}


def spawn(args: list[str], cwd: Path, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    # Output goes to a file: an unread pipe fills up and blocks the child.
    with log.open("a") as sink:
        return subprocess.Popen(args, cwd=cwd, env=env, stdout=sink, stderr=subprocess.STDOUT)


def wait_until_up(
    process: subprocess.Popen[bytes], url: str, log: Path, timeout: float = 120
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url} exited:\n{log.read_text()[-3000:]}")
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"{url} did not come up:\n{log.read_text()[-3000:]}")


def serve(
    directory: Path, env: dict[str, str], workers: int = 1
) -> tuple[subprocess.Popen[bytes], str]:
    """`solveverify serve --workers N` on a free port, once /readyz answers."""
    port = free_port()
    log = directory / f"server-{port}.log"
    args = [*CLI, "serve", "--port", str(port), "--workers", str(workers)]
    process = spawn(args, directory, cli_env(env), log)
    base = f"http://127.0.0.1:{port}"
    wait_until_up(process, f"{base}/readyz", log)
    return process, base


def start_worker(
    directory: Path, env: dict[str, str], name: str = "worker"
) -> subprocess.Popen[bytes]:
    return spawn([*CLI, "worker"], directory, cli_env(env), directory / f"{name}.log")


def fake_provider(directory: Path, latency_s: float) -> tuple[subprocess.Popen[bytes], str]:
    """A loopback model server (solveverify_bench.fake_llm) answering every request after
    latency_s."""
    port = free_port()
    log = directory / f"fake-{port}.log"
    process = spawn(
        [sys.executable, "-m", "solveverify_bench.fake_llm", "--port", str(port), "--latency",
         str(latency_s)],
        directory, cli_env(), log,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    wait_until_up(process, f"{url}/v1/models", log)
    return process, url


def stop(process: subprocess.Popen[Any] | None, timeout: float = 30) -> None:
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def kill(process: subprocess.Popen[Any]) -> None:
    """SIGKILL: no shutdown hooks, as when a machine dies."""
    process.send_signal(signal.SIGKILL)
    process.wait()


def process_tree(pid: int) -> list[int]:
    """`pid` and its descendants (uvicorn's supervisor and its worker processes)."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time the live processes `pids` have used (/proc/<pid>/stat fields 14
    and 15, in clock ticks)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (after pid and comm)
    return total / ticks


def peak_rss_mb(pid: int) -> float | None:
    """The process's peak resident set size (Linux VmHWM), in MiB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def serve_baseline(
    directory: Path, env: dict[str, str], workers: int = 1
) -> tuple[subprocess.Popen[bytes], str]:
    """The hand-written baseline (solveverify_bench/perf/baseline_server.py) under uvicorn with
    `workers` processes on a free port, once /readyz answers."""
    port = free_port()
    log = directory / f"baseline-{port}.log"
    args = [sys.executable, "-m", "uvicorn", "solveverify_bench.perf.baseline_server:app",
            "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
            "--log-level", "warning", "--no-access-log"]  # fmt: skip
    process = spawn(args, directory, cli_env(env), log)
    base = f"http://127.0.0.1:{port}"
    wait_until_up(process, f"{base}/readyz", log)
    return process, base


def run_probe(args: list[str], timeout_s: float) -> str:
    """A measuring child process's last stdout line; its crash (a signal, a non-zero exit, a
    timeout) is a RuntimeError saying how it ended, with the end of its stderr."""
    name = " ".join(args[1:])[:120]  # "-m solveverify_bench.perf.ocr_probe --images 5"
    try:
        done = subprocess.run(
            args, env=cli_env(), capture_output=True, text=True, timeout=timeout_s, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise RuntimeError(f"{name} did not finish in {timeout_s:.0f} s") from exc
    if done.returncode != 0:
        how = (
            f"killed by {signal.Signals(-done.returncode).name}"
            if done.returncode < 0
            else f"exit status {done.returncode}"
        )
        raise RuntimeError(f"{name}: {how}: {done.stderr.strip()[-1500:]}")
    lines = done.stdout.strip().splitlines()
    if not lines:
        raise RuntimeError(f"{name} printed nothing")
    return lines[-1]
