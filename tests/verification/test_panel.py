"""Concurrency and early stopping of a verifier panel."""

from __future__ import annotations

import asyncio
import itertools
import time

import pytest

from app.verification.aspects import ASPECTS, AspectVerifier
from app.verification.panel import run_panel, settled
from app.verification.verdict import Verdict, abstain
from tests.fixtures.scripted import ScriptedClient


def verdict(kind: str) -> Verdict:
    if kind == "abstain":
        return abstain("llm", "v", "no line")
    return Verdict(kind, "llm", "v", 1.0 if kind == "approve" else 0.0)  # type: ignore[arg-type]


def instant(kind: str):
    async def check() -> Verdict:
        await asyncio.sleep(0)
        return verdict(kind)

    return check


async def test_six_verifiers_take_about_one_calls_time() -> None:
    verifiers = [
        AspectVerifier(
            ScriptedClient(f"m{i}", ["FINAL VERIFICATION ANSWER: True"], delay_s=0.2),
            ASPECTS["general_correctness:direct_approval"],
        )
        for i in range(6)
    ]
    started = time.perf_counter()
    result = await run_panel([lambda v=v: v.verify("q", "s") for v in verifiers], early_stop=False)
    elapsed = time.perf_counter() - started
    assert result.approvals == 6 and result.score == 1.0
    assert 0.2 <= elapsed < 0.35, elapsed  # one call's latency, not six


KINDS = ("approve", "reject", "abstain")


async def test_early_stopping_never_changes_a_verdict() -> None:
    """Every panel of up to 5 verifiers, every mix of verdicts, several thresholds and
    concurrency limits: stopping early gives the full panel's verdict."""
    saved_somewhere = 0
    for size in range(1, 6):
        for kinds in itertools.product(KINDS, repeat=size):
            for threshold in (0.34, 0.5, 0.67, 0.8, 1.0):
                full = await run_panel(
                    [instant(k) for k in kinds], threshold=threshold, early_stop=False
                )
                for limit in (1, 2, size):
                    early = await run_panel(
                        [instant(k) for k in kinds], threshold=threshold, max_concurrency=limit
                    )
                    assert early.outcome == full.outcome, (kinds, threshold, limit)
                    assert early.calls_saved == size - early.started >= 0
                    saved_somewhere += early.calls_saved
    assert saved_somewhere > 1000  # sequential panels stop early a lot


@pytest.mark.parametrize(
    ("approvals", "rejections", "pending", "threshold", "expected"),
    [
        (3, 0, 3, 0.5, "approve"),  # three rejections more would still leave half approving
        (1, 4, 1, 0.5, "reject"),
        (2, 3, 1, 0.5, None),  # the last verdict decides
        (0, 0, 0, 0.5, "undecided"),  # an empty panel is no evidence, not a rejection
        (0, 0, 6, 0.5, None),
        (0, 2, 1, 0.5, "reject"),  # at best 1/3 approving
    ],
)
def test_settled(approvals, rejections, pending, threshold, expected) -> None:
    assert settled(approvals, rejections, pending, threshold, 1) == expected


async def test_abstentions_never_count_as_rejections() -> None:
    """Budget outage: every verifier abstains. The panel is undecided, not a 0% rejection."""
    result = await run_panel([instant("abstain")] * 6, early_stop=False)
    assert result.outcome == "undecided" and result.score is None
    assert not result.approved and not result.rejected


async def test_score_divides_by_decisive_verdicts() -> None:
    """Two approvals and four abstentions: 2/2 approving, not 2/6 (the old score)."""
    kinds = ["approve", "abstain", "abstain", "approve", "abstain", "abstain"]
    thin = await run_panel([instant(k) for k in kinds], early_stop=False)
    assert thin.score == 1.0
    assert thin.outcome == "undecided"  # 2 decisive < quorum 3: too thin to move anything
    kinds[1] = "approve"
    enough = await run_panel([instant(k) for k in kinds], early_stop=False)
    assert enough.outcome == "approve"
    kinds[1] = "reject"
    kinds[2] = "reject"
    split = await run_panel([instant(k) for k in kinds], early_stop=False, threshold=0.67)
    assert split.score == 0.5 and split.outcome == "reject"


async def test_min_decisive_is_the_quorum() -> None:
    kinds = ["reject", "abstain", "abstain"]
    assert (await run_panel([instant(k) for k in kinds], min_decisive=2)).outcome == "undecided"
    assert (await run_panel([instant(k) for k in kinds], min_decisive=1)).outcome == "reject"


async def test_cancelled_stragglers_do_not_leak() -> None:
    slow_started = asyncio.Event()

    async def slow() -> Verdict:
        slow_started.set()
        await asyncio.sleep(10)
        return verdict("approve")

    result = await run_panel([instant("reject"), instant("reject"), slow], threshold=0.67)
    assert result.approved is False
    assert all(
        not t.done() or t.cancelled()
        for t in asyncio.all_tasks()
        if t.get_coro().__name__ == "slow"
    )  # type: ignore[union-attr]
