"""The programmatic verdict through the real sandbox: right answers pass, unreadable abstains."""

from __future__ import annotations

from app.symbolic.sandbox import SymbolicSandbox
from app.verification.programmatic import programmatic_verdict


async def test_programmatic_verdicts(sandbox: SymbolicSandbox) -> None:
    question = "If 7 - 4x = 15, what is the value of 8x + 2?"
    assert (await programmatic_verdict(sandbox, question, "-14")).verdict == "approve"
    assert (await programmatic_verdict(sandbox, question, "-2")).verdict == "reject"
    remainder = "Find the remainder when x^3 + 2x + 1 is divided by x^2 + 1"
    assert (await programmatic_verdict(sandbox, remainder, "x + 1")).verdict == "abstain"
    assert (await programmatic_verdict(sandbox, "sqrt(x) = 3", "x = 3")).verdict == "reject"
