"""Run sympy/math-verify work in killable worker processes, awaited from asyncio.

Sympy can take unbounded time on adversarial input and a thread cannot be stopped, so every
symbolic call runs in a pebble process pool: the event loop never blocks, and a call that
overruns its time limit has its worker process killed and replaced.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import OrderedDict
from concurrent.futures import CancelledError
from typing import Any, TypeVar, cast

from pebble import ProcessPool

from app.metrics import SANDBOX_TIMEOUTS
from app.symbolic import checker, readings
from app.symbolic.checker import CheckResult
from app.symbolic.solver import SymbolicSolution

T = TypeVar("T")

WARMUP_TIMEOUT_S = 60.0
# Problem texts the reader found nothing in, remembered so a check need not read them again
# (the other worker may hold no reading of its own): word problems, most of a day's scans.
UNREAD_MEMORY = 4096


class SandboxTimeout(TimeoutError):
    """A symbolic computation ran past its time limit and was killed."""


class SandboxUnavailable(RuntimeError):
    """The sandbox is closed or a worker process died."""


class SymbolicSandbox:
    def __init__(self, workers: int = 2, timeout_s: float = 3.0) -> None:
        context = multiprocessing.get_context("forkserver")
        # Workers fork from a server that has sympy imported already: cheap to replace.
        context.set_forkserver_preload(["app.symbolic.checker"])
        self._pool = ProcessPool(max_workers=workers, context=context)
        self._workers = workers
        self.timeout_s = timeout_s
        self._unread: OrderedDict[str, None] = OrderedDict()

    async def _run(self, fn: Any, *args: Any, timeout: float | None = None) -> Any:
        limit = timeout if timeout is not None else self.timeout_s
        try:
            future = self._pool.schedule(fn, args=args, timeout=limit)
        except RuntimeError as exc:  # pool closed
            raise SandboxUnavailable(str(exc)) from exc
        try:
            # The outer bound also covers time spent queued behind other calls (asyncio.timeout,
            # not wait_for: on Python 3.11 wait_for can swallow the caller's cancellation).
            async with asyncio.timeout(limit * 2):
                return await asyncio.wrap_future(future)
        except (TimeoutError, CancelledError) as exc:  # ours or pebble's; a future pebble dropped
            future.cancel()  # type: ignore[no-untyped-call]  # pebble is untyped
            SANDBOX_TIMEOUTS.inc()
            raise SandboxTimeout(f"{getattr(fn, '__name__', fn)} exceeded {limit:.1f}s") from exc
        except (OSError, EOFError) as exc:  # worker died (e.g. out of memory)
            raise SandboxUnavailable(str(exc)) from exc

    async def run(self, fn: Any, *args: Any, timeout: float | None = None) -> Any:
        """`fn(*args)` in a killable worker: `fn` must be a module-level function of the
        project (picklable), its arguments and result picklable. Raises SandboxTimeout after
        `timeout` seconds (default: the sandbox's time slice), SandboxUnavailable when the pool
        is closed or the worker died."""
        return await self._run(fn, *args, timeout=timeout)

    async def warm_up(self) -> None:
        """Start every worker and load sympy/math-verify before the first request needs them."""
        await asyncio.gather(
            *(
                self._run(checker.check_answer, "1+1", "2", timeout=WARMUP_TIMEOUT_S)
                for _ in range(self._workers)
            )
        )

    async def solve(self, problem_text: str) -> SymbolicSolution | None:
        read, solution = await self._run(checker.solve_reading_with_choices, problem_text)
        if not read:
            self._unread[problem_text] = None
            self._unread.move_to_end(problem_text)
            if len(self._unread) > UNREAD_MEMORY:
                self._unread.popitem(last=False)
        return cast(SymbolicSolution | None, solution)

    async def check(self, problem_text: str, candidate: str) -> CheckResult:
        unread = problem_text in self._unread
        return cast(
            CheckResult, await self._run(checker.check_answer, problem_text, candidate, unread)
        )

    async def equivalent(self, a: str, b: str, problem: str | None = None) -> bool | None:
        """Strict: a unit may follow a number only when `problem` uses that word."""
        return cast(bool | None, await self._run(checker.answers_equivalent, a, b, problem))

    async def math_equivalent(self, gold: str, candidate: str) -> bool | None:
        """math-verify alone (LaTeX answers such as MATH's), no problem-specific parsing."""
        return cast(bool | None, await self._run(checker.math_verify_equivalent, gold, candidate))

    async def same_problem(self, first: str, second: str) -> bool:
        """Two readings of one photo: the same problem? (app/symbolic/readings.py)"""
        return cast(bool, await self._run(readings.same_problem, first, second))

    def close(self) -> None:
        self._pool.stop()  # type: ignore[no-untyped-call]  # pebble is untyped
        self._pool.join(timeout=5)
