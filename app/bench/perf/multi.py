"""Several processes: the server's CPU time across its process tree, and the hand-written
baseline run as N processes when the service runs as N (`python -m app.bench.perf.multi`)."""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from typing import TypeVar

from app.bench.perf.load import LoadResult
from app.bench.perf.stack import cli_env, cpu_seconds, process_tree

T = TypeVar("T")


async def with_cpu(pid: int, work: Callable[[], Awaitable[T]]) -> tuple[T, float]:
    """`work()`'s result and the CPU seconds the server (pid and its children: uvicorn's
    workers, the symbolic sandbox) spent meanwhile."""
    pids = process_tree(pid)
    before = cpu_seconds(pids)
    result = await work()
    return result, cpu_seconds(pids) - before


async def baseline_processes(
    fake_url: str, clients: int, requests: int, processes: int
) -> LoadResult:
    """The baseline split over `processes` processes (clients and requests shared out), their
    latencies pooled."""
    if processes <= 1:
        from app.bench.perf.run import baseline, problems

        return await baseline(fake_url, problems(), clients, requests)
    command = [sys.executable, "-m", "app.bench.perf.multi", "--fake", fake_url]
    command += ["--clients", str(clients // processes)]
    command += ["--requests", str(requests // processes)]
    children = [
        await asyncio.create_subprocess_exec(*command, stdout=subprocess.PIPE, env=cli_env())
        for _ in range(processes)
    ]
    pooled = LoadResult(clients)
    for child in children:
        out, _ = await child.communicate()
        part = json.loads(out.decode().strip().splitlines()[-1])
        pooled.latencies_s += part["latencies_s"]
        pooled.statuses[201] += len(part["latencies_s"])
        pooled.elapsed_s = max(pooled.elapsed_s, part["elapsed_s"])
    return pooled


def main() -> None:
    parser = argparse.ArgumentParser(description="One process of the hand-written baseline.")
    parser.add_argument("--fake", required=True)
    parser.add_argument("--clients", type=int, required=True)
    parser.add_argument("--requests", type=int, required=True)
    args = parser.parse_args()
    from app.bench.perf.run import baseline, problems

    result = asyncio.run(baseline(args.fake, problems(), args.clients, args.requests))
    print(json.dumps({"latencies_s": result.latencies_s, "elapsed_s": result.elapsed_s}))


if __name__ == "__main__":
    main()
