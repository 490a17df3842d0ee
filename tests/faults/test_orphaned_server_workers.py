"""`serve` killed with SIGKILL (an OOM kill, a supervisor's hard stop): its uvicorn worker
processes kept answering on the port as orphans, and a new `serve` then failed to bind it
("address already in use", exit status 3). Each worker now stops when its supervisor is gone.
Real processes: `serve --workers 2`."""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx

from solveverify_bench.perf.stack import process_tree
from tests.fixtures.processes import serve, stop


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited (its parent has not reaped it yet)


def test_the_workers_stop_when_serve_is_killed(tmp_path: Path) -> None:
    env = {
        "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'server.db'}",
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
    }
    process, base = serve(tmp_path, env, workers=2)
    tree = process_tree(process.pid)
    try:
        assert len(tree) > 2, tree  # the supervisor, two workers (and their sandboxes)
        assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200
        process.kill()
        process.wait()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(_alive(p) for p in tree[1:]):
            time.sleep(0.2)
        assert not [p for p in tree[1:] if _alive(p)], tree
        try:
            httpx.get(f"{base}/healthz", timeout=2)
            raise AssertionError("the port still answers")
        except httpx.TransportError:
            pass  # refused: free for the next `serve`
    finally:
        for pid in tree[1:]:  # orphans a failure left
            if _alive(pid):
                os.kill(pid, 9)
        stop(process)
