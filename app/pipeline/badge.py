"""The badge the app shows, and the one predicate that says "verified".

The retry edge and ENRICH both ask `is_verified`, with the thresholds of the run's settings,
so the two can never disagree about what counts as verified.
"""

from __future__ import annotations

from app.pipeline.context import PipelineContext
from app.pipeline.state import SolveState, VerificationStatus
from app.settings import VerifySettings

NO_PROVIDER = (
    "no model provider configured: the symbolic solver reads equations and arithmetic only"
)


def is_verified(state: SolveState, verify: VerifySettings) -> bool:
    """Passed verification with a confidence at or above the verified threshold."""
    return bool(state.verify_passed) and state.verify_confidence >= verify.verified_threshold


def badge(state: SolveState, ctx: PipelineContext) -> tuple[VerificationStatus, str | None]:
    if state.solution is None:
        if not ctx.registry.has_model_provider:
            return "unverified", NO_PROVIDER
        return "unverified", "no provider could solve this problem: " + "; ".join(
            state.solve_errors
        )
    if is_verified(state, ctx.verify):
        return "verified", None
    if state.verify_passed is None:
        reason = state.verify_error or "verification was skipped"
        if not ctx.registry.has_model_provider:
            reason = f"{reason} ({NO_PROVIDER})"
        return "unverified", reason
    if state.verify_passed:
        return "caution", f"low verification confidence ({state.verify_confidence:.2f})"
    return "caution", state.verify_error or "the answer failed verification"
