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
    return Runtime(context=SimpleNamespace(verify=VerifySettings(**verify)))


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
def test_should_retry_after_verify(
    passed: bool | None, confidence: float, attempts: int, expected: str
) -> None:
    state = SolveState(verify_passed=passed, verify_confidence=confidence, attempt_count=attempts)
    assert should_retry_after_verify(state, runtime()) == expected


def test_thresholds_come_from_settings() -> None:
    state = SolveState(verify_passed=True, verify_confidence=0.85, attempt_count=1)
    assert should_retry_after_verify(state, runtime(verified_threshold=0.9)) == "solve"
    failed = SolveState(verify_passed=False, attempt_count=2)
    assert should_retry_after_verify(failed, runtime(max_attempts=3)) == "solve"


def test_route_after_ocr() -> None:
    assert route_after_ocr(SolveState(problem_text="1+1")) == "analyze"
    assert route_after_ocr(SolveState(problem_text="  ")) == "__end__"
    assert route_after_ocr(SolveState(problem_text="x", error="no_text_found")) == "__end__"


def test_route_after_solve() -> None:
    solved = SolveState(solution=SolveOutput(final_answer="4"), solved_this_round=True)
    assert route_after_solve(solved) == "quick_verify"
    assert route_after_solve(SolveState(solved_this_round=False)) == "enrich"
