"""The student-facing caution code of a finished run (the badge's reason, without vendors)."""

from __future__ import annotations

from app.pipeline.state import SolveState


def caution_code(state: SolveState) -> str | None:
    if state.verification_status == "verified":
        return None
    if state.ocr_unread:
        return "incomplete_reading"
    if state.readings_disagree:
        return "readings_disagree"
    if state.solution is None or not state.solution.final_answer:
        return "no_answer"
    if state.verify_passed is None:
        return "not_verified"
    if state.verify_passed:
        return "low_confidence"
    return "failed_verification"
