"""Run many verifiers on one answer concurrently, stopping once the verdict is settled.

Abstention is abstention: the panel's score is approvals ÷ *decisive* verdicts (approvals and
rejections), never ÷ all verifiers, and its outcome has three values:

- `approve`: at least `min_decisive` verifiers spoke and approvals ÷ decisive ≥ threshold;
- `reject`: at least `min_decisive` spoke and the approval share is below the threshold;
- `undecided`: too few spoke (a budget outage, a provider down, a verifier unsure). An
  undecided panel is no evidence either way: it never moves a badge, fitness or a label.

With early stopping, verifiers are started at most `max_concurrency` at a time and no new one
is started once the remaining ones can no longer change the outcome, whatever each of them
would say (approve, reject or abstain): the outcome is always the one the full panel would
reach (tests enumerate every small case).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from app.verification.verdict import Verdict

Check = Callable[[], Awaitable[Verdict]]
Outcome = Literal["approve", "reject", "undecided"]


def quorum(total: int) -> int:
    """The fewest decisive verdicts a panel of `total` needs: half of it, at least one."""
    return max(1, math.ceil(total / 2))


def _outcome(approvals: int, rejections: int, threshold: float, min_decisive: int) -> Outcome:
    decisive = approvals + rejections
    if decisive < min_decisive or decisive == 0:
        return "undecided"
    return "approve" if approvals >= threshold * decisive - 1e-9 else "reject"


def settled(
    approvals: int, rejections: int, pending: int, threshold: float, min_decisive: int
) -> Outcome | None:
    """The panel's outcome if no way the `pending` verifiers could answer changes it, else
    None. The outcome is monotone in each pending verdict's direction, so checking the
    extremes (all abstain, all approve, all reject) covers every mix."""
    extremes = {
        _outcome(approvals, rejections, threshold, min_decisive),
        _outcome(approvals + pending, rejections, threshold, min_decisive),
        _outcome(approvals, rejections + pending, threshold, min_decisive),
    }
    return extremes.pop() if len(extremes) == 1 else None


@dataclass(slots=True)
class PanelResult:
    total: int
    threshold: float
    min_decisive: int = 1
    verdicts: list[Verdict] = field(default_factory=list)  # in completion order
    started: int = 0

    @property
    def approvals(self) -> int:
        return sum(v.verdict == "approve" for v in self.verdicts)

    @property
    def rejections(self) -> int:
        return sum(v.verdict == "reject" for v in self.verdicts)

    @property
    def abstentions(self) -> int:
        return sum(v.verdict == "abstain" for v in self.verdicts)

    @property
    def decisive(self) -> int:
        return self.approvals + self.rejections

    @property
    def score(self) -> float | None:
        """Approvals ÷ decisive verdicts; None when nobody decided (no evidence, not 0)."""
        return self.approvals / self.decisive if self.decisive else None

    @property
    def outcome(self) -> Outcome:
        """The full panel's outcome (settled early or not; see `settled`)."""
        pending = self.total - len(self.verdicts)
        found = settled(self.approvals, self.rejections, pending, self.threshold, self.min_decisive)
        if found is not None:
            return found
        return _outcome(self.approvals, self.rejections, self.threshold, self.min_decisive)

    @property
    def approved(self) -> bool:
        return self.outcome == "approve"

    @property
    def rejected(self) -> bool:
        return self.outcome == "reject"

    @property
    def calls_saved(self) -> int:
        return self.total - self.started


# Adaptive evidence: given the verdicts so far and the ids of the verifiers not yet heard
# (queued or running), True when no answer of theirs could change what the evidence decides.
Settled = Callable[[Sequence[Verdict], Sequence[str]], bool]


async def run_panel(
    checks: Sequence[Check],
    *,
    threshold: float = 0.5,
    early_stop: bool = True,
    max_concurrency: int | None = None,
    min_decisive: int | None = None,
    ids: Sequence[str] | None = None,
    stop_when: Settled | None = None,
) -> PanelResult:
    """`min_decisive`: default `quorum(len(checks))`; a panel thinner than that is undecided.

    `stop_when` (with `ids`, one per check): the caller's own rule for "nothing left can
    change it" (the combiner's badge, app/verification/combiner.py `settled_badge`), asked
    before each wave instead of the panel's outcome rule."""
    need = quorum(len(checks)) if min_decisive is None else max(1, min_decisive)
    result = PanelResult(total=len(checks), threshold=threshold, min_decisive=need)
    limit = max_concurrency or len(checks) or 1
    names = list(ids) if ids is not None else [str(i) for i in range(len(checks))]
    queue = list(zip(names, checks, strict=True))
    running: dict[asyncio.Future[Verdict], str] = {}
    try:
        while queue or running:
            if stop_when is not None:
                if stop_when(result.verdicts, [n for n, _ in queue] + list(running.values())):
                    break
            else:
                pending = len(queue) + len(running)
                decided = settled(result.approvals, result.rejections, pending, threshold, need)
                if early_stop and decided is not None:
                    break
            while queue and len(running) < limit:
                name, check = queue.pop(0)
                running[asyncio.ensure_future(check())] = name
                result.started += 1
            done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                running.pop(task)
            result.verdicts.extend(task.result() for task in done)
    finally:
        for task in running:  # settled early: the answers still in flight are not needed
            task.cancel()
    return result
