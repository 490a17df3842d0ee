"""The CPU time a server spends across its process tree (uvicorn's workers, the symbolic
sandbox), read from /proc the same way for the service and the hand-written baseline."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from solveverify_bench.perf.stack import cpu_seconds, process_tree

T = TypeVar("T")


async def with_cpu(pid: int, work: Callable[[], Awaitable[T]]) -> tuple[T, float]:
    """`work()`'s result and the CPU seconds the server (pid and its children: uvicorn's
    workers, the symbolic sandbox) spent meanwhile."""
    pids = process_tree(pid)
    before = cpu_seconds(pids)
    result = await work()
    return result, cpu_seconds(pids) - before
