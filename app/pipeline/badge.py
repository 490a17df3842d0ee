"""The badge the app shows, and the one predicate that says "verified".

The retry edge, the best-attempt choice and ENRICH all ask `is_verified` / `standing`, with
the settings and the calibrator of the run's context, so they can never disagree about what
counts as verified.

`verified` means right (design-notes §5, and the precision promise of
app/verification/precision.py). The one judge is app/verification/combiner.py: a
programmatic proof or a ground-truth match at its validator threshold verifies; any other
evidence verifies only when its calibrated probability clears the threshold fitted on
labelled outcomes for the target precision; `caution` needs evidence against (a proof
against, a credible rejection, or P < 0.5), never a mere lack of evidence. Until a fitted
calibrator exists, the raw signal must reach `verified_threshold` (flagged uncalibrated).
"""

from __future__ import annotations

from typing import Literal

from app.pipeline.context import PipelineContext
from app.pipeline.state import AttemptRecord, SolveState, VerificationStatus
from app.settings import VerifySettings
from app.verification.calibration import Calibrator
from app.verification.combiner import Judgement, Proof, judge, only_a_proof

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


def judgement(
    attempt: SolveState | AttemptRecord, verify: VerifySettings, calibrator: Calibrator | None
) -> Judgement:
    """THE judge of one attempt (app/verification/combiner.py): a proof, or the calibrated
    P(correct) against the promised threshold; caution only on evidence against."""
    passed, method = attempt.verify_passed, attempt.verify_method
    proof: Proof | None = None
    if method in PROOF_METHODS and passed is not None:
        assert method is not None
        if not passed:
            proof = "against"
        elif attempt.verify_signal >= _proof_threshold(method, verify):
            proof = "for"
        else:  # a proof below its validator's threshold verifies nothing, nor counts against
            return Judgement("unverified", attempt.verify_confidence, "the check was inconclusive")
    # Before calibration, a decisive rejection (the quick verifier recomputed another answer,
    # a credible panel) is the evidence against; once calibrated, P(correct) weighs it.
    rejection = None
    if passed is False and not attempt.verify_calibrated:
        rejection = attempt.verify_error or "the answer failed verification"
    return judge(
        proof=proof,
        probability=None if passed is None else attempt.verify_confidence,
        calibrated=attempt.verify_calibrated,
        calibrator=calibrator,
        raw_verified=verify.verified_threshold,
        credible_rejection=rejection,
        proof_only=_proof_only(attempt),
    )


def _proof_only(attempt: SolveState | AttemptRecord) -> str | None:
    if isinstance(attempt, AttemptRecord):
        return attempt.proof_only
    if attempt.solution is None:
        return None
    return only_a_proof(attempt.solution.final_answer, attempt.problem_text)


def is_verified(state: SolveState, ctx: PipelineContext) -> bool:
    """Is the current answer verified? (reads settings and calibrator at run time)"""
    return judgement(state, ctx.verify, ctx.calibrator).badge == "verified"


def standing(state: SolveState | AttemptRecord, ctx: PipelineContext) -> Standing:
    """verified; uncertain (passed, confidence in [uncertain_threshold, verified); retried
    when attempts remain); unverified (nothing could verify); rejected (failed, or passed
    below the uncertain band)."""
    passed, confidence = state.verify_passed, state.verify_confidence
    if judgement(state, ctx.verify, ctx.calibrator).badge == "verified":
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
    judged = judgement(state, ctx.verify, ctx.calibrator)
    if judged.badge == "unverified" and state.verify_passed is None:
        reason = state.verify_error or "verification was skipped"
        if not ctx.registry.has_model_provider:
            reason = f"{reason} ({NO_PROVIDER})"
        return "unverified", reason
    return judged.badge, judged.reason
