"""Every branch of the design's should_retry_after_verify, and the other edges."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from langgraph.runtime import Runtime

from app.llm.outputs import SolveOutput
from app.pipeline.routing import route_after_ocr, route_after_solve, should_retry_after_verify
from app.pipeline.state import SolveState
from app.settings import VerifySettings


def runtime(**verify: Any) -> Runtime[Any]:
    """The routing function reads only the run's verify settings."""
    return Runtime(context=SimpleNamespace(verify=VerifySettings(**verify), calibrator=None))


@pytest.mark.parametrize(
    ("passed", "confidence", "attempts", "expected"),
    [
        (True, 0.95, 1, "enrich"),  # verified
        (True, 0.8, 1, "enrich"),  # exactly at the threshold counts as verified
        (True, 0.79, 1, "solve"),  # passed but not confident enough: retry
        (True, 0.79, 2, "enrich"),  # ... unless attempts are used up
        (None, 0.0, 1, "enrich"),  # timeout / skipped: never retried
        (None, 0.0, 2, "enrich"),
        (False, 0.9, 1, "solve"),  # failed verification: retry on another provider
        (False, 0.0, 2, "enrich"),  # max attempts: return with caution
        (False, 0.0, 3, "enrich"),
    ],
)
async def test_should_retry_after_verify(
    passed: bool | None, confidence: float, attempts: int, expected: str
) -> None:
    state = SolveState(verify_passed=passed, verify_confidence=confidence, attempt_count=attempts)
    assert await should_retry_after_verify(state, runtime()) == expected


async def test_thresholds_come_from_settings() -> None:
    state = SolveState(verify_passed=True, verify_confidence=0.85, attempt_count=1)
    assert await should_retry_after_verify(state, runtime(verified_threshold=0.9)) == "solve"
    failed = SolveState(verify_passed=False, attempt_count=2)
    assert await should_retry_after_verify(failed, runtime(max_attempts=3)) == "solve"


async def test_route_after_ocr() -> None:
    assert await route_after_ocr(SolveState(problem_text="1+1")) == "analyze"
    assert await route_after_ocr(SolveState(problem_text="  ")) == "__end__"
    assert await route_after_ocr(SolveState(problem_text="x", error="no_text_found")) == "__end__"


async def test_route_after_solve() -> None:
    solved = SolveState(solution=SolveOutput(final_answer="4"), solved_this_round=True)
    assert await route_after_solve(solved) == "quick_verify"
    assert await route_after_solve(SolveState(solved_this_round=False)) == "enrich"


async def test_the_uncertain_band_retries_and_the_best_attempt_is_returned() -> None:
    from app.pipeline.badge import best_attempt, standing
    from app.pipeline.state import AttemptRecord

    ctx = SimpleNamespace(verify=VerifySettings(), calibrator=None)
    # An LLM "correct" at 0.7 is uncertain (not a failure): retried while attempts remain.
    uncertain = SolveState(verify_passed=True, verify_confidence=0.7, attempt_count=1)
    assert standing(uncertain, ctx) == "uncertain"
    assert await should_retry_after_verify(uncertain, runtime()) == "solve"

    def record(n: int, passed: bool | None, confidence: float) -> AttemptRecord:
        return AttemptRecord(n, f"p{n}", "m", str(n), passed, confidence, [], 0.0)

    # The uncertain first attempt beats a rejected second one; the last one is not returned.
    attempts = [record(1, True, 0.7), record(2, False, 0.9)]
    assert best_attempt(attempts, ctx).number == 1
    # verified beats unverified beats rejected; within a standing, the higher confidence
    assert best_attempt([record(1, None, 0.0), record(2, False, 0.1)], ctx).number == 1
    assert best_attempt([record(1, True, 0.65), record(2, True, 0.75)], ctx).number == 2
    assert best_attempt([record(1, True, 0.85), record(2, True, 0.99)], ctx).number == 2


async def test_a_proof_verifies_and_a_fitted_promise_replaces_the_hand_set_threshold() -> None:
    from app.pipeline.badge import is_verified
    from app.verification.calibration import Calibrator

    proof = SolveState(
        verify_passed=True, verify_method="programmatic", verify_signal=1.0, verify_confidence=0.3
    )
    calibrated = SolveState(
        verify_passed=True, verify_method="llm", verify_confidence=0.9, verify_calibrated=True
    )
    promise = Calibrator(threshold=0.93, target_precision=0.95)
    assert is_verified(proof, SimpleNamespace(verify=VerifySettings(), calibrator=promise))
    assert not is_verified(calibrated, SimpleNamespace(verify=VerifySettings(), calibrator=promise))
    lower = Calibrator(threshold=0.85, target_precision=0.95)
    assert is_verified(calibrated, SimpleNamespace(verify=VerifySettings(), calibrator=lower))
    # A promise that no threshold could keep: model evidence never verifies.
    none = Calibrator(threshold=None, target_precision=0.95)
    assert not is_verified(calibrated, SimpleNamespace(verify=VerifySettings(), calibrator=none))
