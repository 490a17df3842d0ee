"""MARS keeps no private bar: its agents' agreement may replace an answer, only a proof
verifies it; and its write survives a busy SQLite writer (retried, never lost)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy.exc import OperationalError

from app.db.models import Solution
from app.llm.registry import ProviderRegistry, build_registry
from app.resources import Resources, unit_of_work
from app.scans.repository import ScanRepository
from app.scans.service import submit_scan
from app.solutions.followups.mars import retry_when_locked
from app.verification.calibration import Calibrator
from app.worker.tasks import TASKS
from tests.fixtures.jobs import ctx_of, job_context, with_model
from tests.solutions.test_mars_second_chance import agent

RIDDLE = "Which whole number did the riddle on the blackboard describe? (mars riddle)"


async def submitted_with(services: Resources, registry: ProviderRegistry, text: str) -> Solution:
    """`text` scanned with `registry` as the process's providers."""
    original = services.pipeline
    services.pipeline = replace(original, registry=registry)
    try:
        async with unit_of_work(services) as session:
            _, solution = await submit_scan(services, session, text=text)
    finally:
        services.pipeline = original
    return solution


async def test_a_model_only_mars_answer_replaces_but_never_verifies(services: Resources) -> None:
    wrong = agent("riddle_wrong", "x = 5", solves=True)
    right = agent("riddle_right", "x = 4", solves=False)
    registry = build_registry([wrong.provider, right.provider], [wrong, right])
    solution = await submitted_with(services, registry, RIDDLE)
    assert solution.verification_status != "verified"
    ctx = ctx_of(job_context(services, registry))
    outcome = await TASKS["mars_second_chance"](ctx, str(solution.id))
    assert outcome.startswith("replaced: riddle_right=x = 4"), outcome
    async with services.sessionmaker() as session:
        stored = await ScanRepository(session).get_solution(solution.id)
    assert stored is not None
    # The agents scored it 0.95 (over MARS's 0.7): evidence for it, not a proof.
    assert (stored.final_answer, stored.verification_status) == ("x = 4", "unverified")
    assert all(change["to"] != "verified" for change in stored.status_history)


def locked() -> OperationalError:
    return OperationalError("INSERT", {}, Exception("database is locked"))


async def test_a_locked_write_is_retried_until_it_lands() -> None:
    tries: list[int] = []

    async def write() -> None:
        tries.append(1)
        if len(tries) < 3:
            raise locked()

    await retry_when_locked(write)
    assert len(tries) == 3


async def test_other_database_errors_are_not_retried() -> None:
    tries: list[int] = []

    async def write() -> None:
        tries.append(1)
        raise OperationalError("INSERT", {}, Exception("disk I/O error"))

    with pytest.raises(OperationalError):
        await retry_when_locked(write)
    assert len(tries) == 1


async def test_mars_seats_admitted_agents_only(services: Resources) -> None:
    """An agent measured under the AUROC bar never judges: one admitted provider is no MARS."""
    wrong = agent("bar_wrong", "x = 5", solves=True)
    weak = agent("bar_weak", "x = 4", solves=False)
    registry = build_registry([wrong.provider, weak.provider], [wrong, weak])
    solution = await submitted_with(services, registry, RIDDLE + " (bar)")
    verify = services.settings.verify.model_copy(update={"verifier_auroc": {"bar_weak": 0.5}})
    settings = services.settings.model_copy(update={"verify": verify})
    context = replace(job_context(services, registry), settings=settings)
    outcome = await TASKS["mars_second_chance"](ctx_of(context), str(solution.id))
    assert outcome == "skipped: MARS needs two different model providers"


def evidence_model(approval_weight: float, *, knows_mars: bool = False) -> Calibrator:
    """A fitted evidence model: P = σ(w · approval share − 4), verified from 0.9; it learned a
    (zero) weight for the MARS pair's vote when `knows_mars`."""
    mars = ["vote:mars:mars_right+mars_wrong"] if knows_mars else []
    return Calibrator(
        feature_set="evidence",
        features=["approval_share", *mars],
        weights=[approval_weight, *(0.0 for _ in mars)],
        bias=-4.0,
        threshold=0.9,
        target_precision=0.97,
        caution_below=0.5,
        n_samples=500,
    )


async def mars_with(services: Resources, calibrator: Calibrator, tag: str) -> tuple[str, Solution]:
    """The riddle answered wrong (x = 5), then MARS (its agents score x = 4 at 0.95) with
    `calibrator` as the process's fitted model. Returns MARS's outcome and the stored answer."""
    wrong = agent("mars_wrong", "x = 5", solves=True)
    right = agent("mars_right", "x = 4", solves=False)
    registry = build_registry([wrong.provider, right.provider], [wrong, right])
    solution = await submitted_with(services, registry, f"{RIDDLE} ({tag})")
    context = with_model(services, job_context(services, registry), calibrator)
    outcome = await TASKS["mars_second_chance"](ctx_of(context), str(solution.id))
    async with services.sessionmaker() as session:
        stored = await ScanRepository(session).get_solution(solution.id)
    assert stored is not None
    return outcome, stored


async def test_a_fitted_model_reads_mars_like_any_verifier(services: Resources) -> None:
    """No bar of MARS's own once a model is fitted: its agents' 0.95 is a vote the model
    weighs. Read as evidence against: nothing replaced. For, with the vote unknown to the
    model: replaced, unverified. For, with the vote known: verified at the promise."""
    outcome, stored = await mars_with(services, evidence_model(0.0), "against")
    assert outcome.startswith("kept") and stored.final_answer == "x = 5"

    outcome, stored = await mars_with(services, evidence_model(8.0), "unknown vote")
    assert (stored.final_answer, stored.verification_status) == ("x = 4", "unverified")
    assert "not against (P 0.98)" in stored.status_history[-1]["reason"]

    outcome, stored = await mars_with(services, evidence_model(8.0, knows_mars=True), "known")
    assert (stored.final_answer, stored.verification_status) == ("x = 4", "verified")
    assert "verifies its new answer (P 0.98)" in stored.status_history[-1]["reason"]
    # The answer, badge and figure move together: the model's P, not MARS's own 0.95.
    assert stored.verification_confidence == pytest.approx(0.982, abs=0.001)
    assert stored.confidence_calibrated
    assert stored.status_history[-1]["confidence"] == stored.verification_confidence
