"""The step checks (app.symbolic.steps) run in the symbolic sandbox's killable workers."""

from __future__ import annotations

import logging
from typing import cast

from app.symbolic.sandbox import SandboxTimeout, SandboxUnavailable, SymbolicSandbox
from app.symbolic.steps import StepFinding, check_step_list

log = logging.getLogger(__name__)

# A derivation solves one small polynomial per line: a few sandbox time slices at most.
TIME_SLICES = 3


def unchecked(steps: list[str], why: str) -> list[StepFinding]:
    return [StepFinding("unchecked", None, None, why) for _ in steps]


async def check_steps(
    sandbox: SymbolicSandbox, problem: str, steps: list[str]
) -> list[StepFinding]:
    """One finding per step; every step `unchecked` when the sandbox runs out of time."""
    try:
        findings = await sandbox.run(
            check_step_list, problem, steps, timeout=sandbox.timeout_s * TIME_SLICES
        )
    except SandboxTimeout:
        return unchecked(steps, "the symbolic step checks ran out of time")
    except SandboxUnavailable:
        return unchecked(steps, "the symbolic sandbox is unavailable")
    except Exception:  # the checks are an aid: their failure is an abstention, not a 500
        log.exception("symbolic step checks failed")
        return unchecked(steps, "the symbolic step checks failed")
    return cast(list[StepFinding], findings)
