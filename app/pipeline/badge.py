"""The badge the app shows, and the one predicate that says "verified".

The retry edge, the best-attempt choice and ENRICH all ask `is_verified` / `standing`, with
the settings and the calibrator of the run's context, so they can never disagree about what
counts as verified.

`verified` means right (design-notes §5, and the precision promise of
app/verification/precision.py): a programmatic proof or a ground-truth match at its
validator threshold verifies; any other evidence verifies only when its calibrated
probability clears the threshold fitted on labelled outcomes for the target precision. Until
a fitted calibrator exists, the raw signal must reach `verified_threshold` (flagged
uncalibrated).
"""

from __future__ import annotations

from typing import Literal

from app.pipeline.context import PipelineContext
from app.pipeline.state import AttemptRecord, SolveState, VerificationStatus
from app.settings import VerifySettings
from app.verification.calibration import Calibrator

NO_PROVIDER = (
    "no model provider configured: the symbolic solver reads equations and arithmetic only"
)
PROOF_METHODS = ("programmatic", "ground_truth")
Standing = Literal["verified", "uncertain", "unverified", "rejected"]
RANK: dict[Standing, int] = {"verified": 3, "uncertain": 2, "unverified": 1, "rejected": 0}


def _proof_threshold(method: str, verify: VerifySettings) -> float:
    return (
        verify.programmatic_threshold if method == "programmatic" else verify.ground_truth_threshold
    )


def verified_by(
    passed: bool | None,
    method: str | None,
    signal: float,
    confidence: float,
    calibrated: bool,
    verify: VerifySettings,
    calibrator: Calibrator | None,
) -> bool:
    """THE predicate: a proof, or calibrated evidence above the promised threshold."""
    if not passed:
        return False
    if method in PROOF_METHODS:
        assert method is not None
        return signal >= _proof_threshold(method, verify)
    if calibrated and calibrator is not None and calibrator.target_precision is not None:
        # A fitted promise: None means no threshold kept the target on the evidence so far.
        return calibrator.threshold is not None and confidence >= calibrator.threshold
    return confidence >= verify.verified_threshold


def is_verified(state: SolveState, ctx: PipelineContext) -> bool:
    """Is the current answer verified? (reads settings and calibrator at run time)"""
    return verified_by(
        state.verify_passed,
        state.verify_method,
        state.verify_signal,
        state.verify_confidence,
        state.verify_calibrated,
        ctx.verify,
        ctx.calibrator,
    )


def standing(state: SolveState | AttemptRecord, ctx: PipelineContext) -> Standing:
    """verified; uncertain (passed, confidence in [uncertain_threshold, verified); retried
    when attempts remain); unverified (nothing could verify); rejected (failed, or passed
    below the uncertain band)."""
    passed, confidence = state.verify_passed, state.verify_confidence
    if verified_by(
        passed,
        state.verify_method,
        state.verify_signal,
        confidence,
        state.verify_calibrated,
        ctx.verify,
        ctx.calibrator,
    ):
        return "verified"
    if passed is None:
        return "unverified"
    if passed and confidence >= ctx.verify.uncertain_threshold:
        return "uncertain"
    return "rejected"


def best_attempt(attempts: list[AttemptRecord], ctx: PipelineContext) -> AttemptRecord:
    """The attempt to return: verified beats uncertain beats unverified beats rejected, then
    the higher (calibrated) confidence, then the later attempt."""
    return max(
        enumerate(attempts),
        key=lambda ia: (RANK[standing(ia[1], ctx)], ia[1].verify_confidence, ia[0]),
    )[1]


def badge(state: SolveState, ctx: PipelineContext) -> tuple[VerificationStatus, str | None]:
    if state.solution is None:
        if not ctx.registry.has_model_provider:
            return "unverified", NO_PROVIDER
        return "unverified", "no provider could solve this problem: " + "; ".join(
            state.solve_errors
        )
    if is_verified(state, ctx):
        return "verified", None
    if state.verify_passed is None:
        reason = state.verify_error or "verification was skipped"
        if not ctx.registry.has_model_provider:
            reason = f"{reason} ({NO_PROVIDER})"
        return "unverified", reason
    if state.verify_passed:
        return "caution", f"low verification confidence ({state.verify_confidence:.2f})"
    return "caution", state.verify_error or "the answer failed verification"
