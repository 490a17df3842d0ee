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
    to: Status
    reason: str


def after_consensus(
    current: str,
    *,
    approved: bool | None,
    method: str,
    confirmations: int,
    min_confirmations: int,
    proven_at_response: bool,
) -> StatusChange | None:
    """`confirmations`: other providers whose answers agree with the returned one."""
    if approved is None or method not in ("proof", *AGREEMENT):
        return None
    if not approved:
        if current == "verified" and not proven_at_response:
            return StatusChange("caution", f"a later consensus check rejected it ({method})")
        if current == "unverified":
            return StatusChange("caution", f"a later consensus check rejected it ({method})")
        return None
    if current == "verified":
        return None
    if method == "proof":
        return StatusChange("verified", "a later check proved it")
    if current == "unverified" and confirmations >= min_confirmations:
        return StatusChange(
            "verified", f"{confirmations} other providers agreed independently ({method})"
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
        return StatusChange("caution", f"a spot check's verifier panel rejected it{share}")
    return None
