"""Run many verifiers on one answer concurrently, stopping once the verdict is settled.

The panel approves when approvals ÷ verifiers ≥ threshold (MAV's score; an abstention is not
an approval). With early stopping, verifiers are started at most `max_concurrency` at a time
and no new one is started once the remaining ones can no longer change the outcome — the
verdict is always the one the full panel would reach (tests enumerate every small case).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from app.verification.verdict import Verdict

Check = Callable[[], Awaitable[Verdict]]


def settled(approvals: int, pending: int, total: int, threshold: float) -> bool | None:
    """The panel's outcome if it no longer depends on the `pending` verdicts, else None."""
    if total == 0:
        return False  # nobody approved: an empty panel never approves
    needed = math.ceil(threshold * total - 1e-9)
    if approvals >= needed:
        return True
    if approvals + pending < needed:
        return False
    return None


@dataclass(slots=True)
class PanelResult:
    total: int
    threshold: float
    verdicts: list[Verdict] = field(default_factory=list)  # in completion order
    started: int = 0

    @property
    def approvals(self) -> int:
        return sum(v.verdict == "approve" for v in self.verdicts)

    @property
    def abstentions(self) -> int:
        return sum(v.verdict == "abstain" for v in self.verdicts)

    @property
    def score(self) -> float:
        """MAV score: approvals ÷ verifiers (a lower bound when the panel stopped early)."""
        return self.approvals / self.total if self.total else 0.0

    @property
    def approved(self) -> bool:
        outcome = settled(
            self.approvals, self.total - len(self.verdicts), self.total, self.threshold
        )
        return bool(outcome)

    @property
    def calls_saved(self) -> int:
        return self.total - self.started


async def run_panel(
    checks: Sequence[Check],
    *,
    threshold: float = 0.5,
    early_stop: bool = True,
    max_concurrency: int | None = None,
) -> PanelResult:
    result = PanelResult(total=len(checks), threshold=threshold)
    limit = max_concurrency or len(checks) or 1
    queue = list(checks)
    running: set[asyncio.Future[Verdict]] = set()
    try:
        while queue or running:
            decided = settled(result.approvals, len(queue) + len(running), result.total, threshold)
            if early_stop and decided is not None:
                break
            while queue and len(running) < limit:
                running.add(asyncio.ensure_future(queue.pop(0)()))
                result.started += 1
            done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            result.verdicts.extend(task.result() for task in done)
    finally:
        for task in running:  # settled early: the answers still in flight are not needed
            task.cancel()
    return result
