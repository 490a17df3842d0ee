"""The sandbox keeps sympy off the event loop and kills runaway work."""

from __future__ import annotations

import asyncio
import time

import pytest

from app.symbolic.sandbox import SandboxTimeout, SymbolicSandbox


def spin(seconds: float) -> float:
    """Stands in for a sympy call that never returns (module-level: it must be picklable)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return seconds


async def test_runaway_work_is_killed_and_the_pool_recovers() -> None:
    box = SymbolicSandbox(workers=1, timeout_s=0.5)
    try:
        await box.warm_up()
        started = time.perf_counter()
        with pytest.raises(SandboxTimeout):
            await box._run(spin, 30)
        assert time.perf_counter() - started < 5
        # the killed worker was replaced: the next call works
        solution = await box.solve("Solve 2x + 3 = 11")
        assert solution is not None and solution.final_answer == "x = 4"
    finally:
        box.close()


async def test_event_loop_stays_responsive(sandbox: SymbolicSandbox) -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    results = await asyncio.gather(*(sandbox.check("3/4 + 5/6 = ?", "19/12") for _ in range(40)))
    await asyncio.sleep(0.05)
    task.cancel()
    assert {r.verdict for r in results} == {"approve"}
    assert ticks > 0


async def test_check_results_cross_the_process_boundary(sandbox: SymbolicSandbox) -> None:
    result = await sandbox.check("Solve 2x + 3 = 11", "x = 5")
    assert result.verdict == "reject" and result.expected == "x = 4"
    assert await sandbox.equivalent("1/2", "0.5") is True
