"""The badge follows later evidence (tier 2 consensus, tier 3 spot checks).

Credible evidence only: a proof (programmatic or ground truth), or an agreement of
independent providers. One arbiter's opinion moves fitness, never the badge. A badge that a
proof granted is never taken away by models (validator priority, design-notes DELLM).
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
    current: str, *, approved: bool, score: float, proven_at_response: bool
) -> StatusChange | None:
    """A MAV panel that rejects a model-verified answer turns the badge to caution."""
    if current == "verified" and not approved and not proven_at_response:
        return StatusChange("caution", f"a spot check's verifier panel rejected it ({score:.0%})")
    return None
