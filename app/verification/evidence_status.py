"""The badge follows later evidence (tier 2 consensus, tier 3 spot checks).

Credible evidence only: a proof (programmatic or ground truth), an agreement of independent
providers, or a credible spot panel. An abstention is never a rejection. One arbiter's
opinion moves fitness, never the badge. A badge that a proof granted is never taken away by
models (validator priority, design-notes DELLM).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Status = Literal["verified", "unverified", "caution"]
AGREEMENT = ("exact_match", "semantic_aggregation", "weighted_majority")


@dataclass(frozen=True, slots=True)
class StatusChange:
    """A move of the badge, with the confidence it leaves: the one model's P where it read the
    ledger (`calibrated`), a proof's 1 or 0, else the raw signal the change rests on (a panel's
    approval share, the returned answer's share of a consensus vote). None: no new figure,
    the stored one stays."""

    to: Status
    reason: str
    confidence: float | None = None
    calibrated: bool = False


@dataclass(frozen=True, slots=True)
class Judged:
    """A verdict already in the ledger on the returned answer: by whom, and which way."""

    verifier_provider: str
    method: str
    approved: bool


def outside_the_vote(ledger: list[Judged], voters: set[str]) -> tuple[int, int]:
    """Approvals and rejections of the answer by verifiers that did not vote for it: proofs,
    and model verifiers on providers outside `voters` (a solver never confirms itself)."""
    approvals = rejections = 0
    for judged in ledger:
        if judged.method == "llm" and judged.verifier_provider in voters:
            continue
        if judged.approved:
            approvals += 1
        else:
            rejections += 1
    return approvals, rejections


def consensus_validated(method: str, *, approvals: int, rejections: int) -> bool:
    """Whether a consensus answer was checked by something other than the vote itself: a
    proof decided it, or an independent verifier approved it and none rejected it. Only then
    does it earn fitness (no reward for an error every solver shares)."""
    return method == "proof" or (approvals > 0 and rejections == 0)


def after_consensus(
    current: str,
    *,
    approved: bool | None,
    method: str,
    confirmations: int,
    min_confirmations: int,
    proven_at_response: bool,
    approved_outside: int = 0,
    rejected_outside: int = 0,
    proof_only: str | None = None,
    score: float | None = None,
) -> StatusChange | None:
    """`confirmations`: other providers whose answers agree with the returned one;
    `approved_outside`, `rejected_outside`: independent verifiers (not on a provider that voted)
    that approved or rejected it; `score`: the returned answer's share of the voters' weight
    (the raw confidence a change leaves). An agreement of solvers verifies only once validated
    (`consensus_validated`): three solvers sharing 0 for 9 ÷ 0 while every verifier abstained
    verified it, and three saying 41 against two verifiers computing 40 verify nothing."""
    if approved is None or method not in ("proof", *AGREEMENT):
        return None
    if not approved:
        if current == "unverified" or (current == "verified" and not proven_at_response):
            why = f"a later consensus check rejected it ({method})"
            return StatusChange("caution", why, 0.0 if method == "proof" else score)
        return None
    if current == "verified":
        return None
    if method == "proof":
        return StatusChange("verified", "a later check proved it", 1.0)
    if (
        current == "unverified"
        and confirmations >= min_confirmations
        and consensus_validated(method, approvals=approved_outside, rejections=rejected_outside)
        and proof_only is None  # agreement is no proof: "circa 12", a figure read as code
    ):
        return StatusChange(
            "verified",
            f"{confirmations} other providers agreed independently ({method}), and a verifier"
            " outside the vote approved it",
            score,
        )
    return None


def after_spot_check(
    current: str, *, credible: bool | None, score: float | None, proven_at_response: bool
) -> StatusChange | None:
    """A spot panel moves a model-verified answer to caution only on a credible rejection
    (`outcomes.spot_outcome`: enough decisive verdicts, lopsided enough). `credible` None —
    abstentions (a budget outage), a thin or split panel — is no evidence: nothing moves."""
    if current == "verified" and credible is False and not proven_at_response:
        share = "" if score is None else f" ({score:.0%} approving)"
        return StatusChange("caution", f"a spot check's verifier panel rejected it{share}", score)
    return None


def after_later_panel(
    current: str,
    *,
    badge: Status,
    probability: float,
    may_verify: bool,
    proven_at_response: bool,
    by: str,
    proof_only: str | None = None,
) -> StatusChange | None:
    """A later panel's verdicts joined the ledger and the one fitted model read it all again
    (`combiner.judge_ledger`): the badge follows that reading — no private bar. A badge a proof
    granted stays; `verified` is reached only where the model may verify (every voter known
    to it). A caution stays: it may rest on a credible rejection the model does not weigh
    (the judge's rule), and MARS gives such answers their second chance."""
    if proven_at_response or badge == current or current == "caution":
        return None
    if badge == "verified" and not (may_verify and proof_only is None):
        return None
    if badge == "verified":
        why = f"with {by} the evidence verifies it (P {probability:.2f})"
    elif badge == "caution":
        why = f"{by} turned the evidence against it (P {probability:.2f})"
    else:
        why = f"with {by} the evidence no longer verifies it (P {probability:.2f})"
    return StatusChange(badge, why, probability, calibrated=True)
