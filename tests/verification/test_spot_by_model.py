"""Spot checks read the one fitted model (issue 25, deliverable 2): the panel's verdicts join
the answer's ledger and the badge follows the model's P over all of it, with no private bar
of the spot check's own; before any model is fitted the raw rule stands."""

from __future__ import annotations

from functools import partial

import pytest

from app.llm.registry import build_registry
from app.resources import Resources
from app.verification.calibration import Calibrator
from app.verification.evidence_status import after_later_panel
from app.worker.tasks import TASKS
from tests.fixtures.jobs import ctx_of, job_context, with_model
from tests.fixtures.providers import verdict_json, verifier
from tests.solutions.test_badge_transitions import solution_of, solve_only
from tests.solutions.test_consensus_checks import PROBLEM, submitted

APPROVE = "Checked each step.\nFINAL VERIFICATION ANSWER: True"
REJECT = "Step 2 is wrong.\nFINAL VERIFICATION ANSWER: False"


def model(votes: tuple[str, ...] = ()) -> Calibrator:
    """A fitted evidence model: P rises with the approval share (0.98 at all approving, 0.02
    at none), `votes` the verifiers it learned a (zero) weight for; verified from 0.9."""
    return Calibrator(
        feature_set="evidence",
        features=["approval_share", *(f"vote:{v}" for v in votes)],
        weights=[8.0, *(0.0 for _ in votes)],
        bias=-4.0,
        threshold=0.9,
        target_precision=0.95,
        n_samples=500,
    )


async def spot(
    services: Resources, calibrator: Calibrator | None, *replies: str, first: str | None = None
) -> str:
    """Solve PROBLEM (86), verified at response by the judge's quick verify; then a spot
    check whose panel answers `replies`, with `calibrator` as the process's fitted model.
    Returns the solution id."""
    judge = verifier("judge", first or verdict_json(True, 0.95, "86"), *replies)
    registry = build_registry(
        ["symbolic"], [services.registry.get("symbolic"), solve_only("s", "86"), judge]
    )
    solution = await submitted(services, registry, PROBLEM)
    context = job_context(services, registry)
    if calibrator is not None:
        context = with_model(services, context, calibrator)
    await TASKS["spot_check"](ctx_of(context), str(solution.id), "random sample")
    return str(solution.id)


async def test_two_rejections_the_raw_rule_ignores_turn_the_model_against_it(
    services: Resources,
) -> None:
    # Two decisive rejections, the rest unparseable: too thin for the raw rule (3 decisive),
    # but the model reads approvals 1 of 3 as P 0.21: evidence against.
    replies = (REJECT, REJECT, *["I am not sure."] * 6)
    raw = await solution_of(services, await spot(services, None, *replies))
    assert raw.verification_status == "verified"
    read = await solution_of(services, await spot(services, model(), *replies))
    assert read.verification_status == "caution"
    assert "against it (P 0.21)" in read.status_history[-1]["reason"]
    # The stored figure is the model's P, the one the badge follows (not the response's).
    assert read.verification_confidence == pytest.approx(0.21, abs=0.005)
    assert read.confidence_calibrated
    assert read.status_history[-1]["confidence"] == read.verification_confidence


PANEL = tuple(
    f"judge:scripted-1:{aspect}"
    for aspect in (
        "general_correctness:domain_knowledge",
        "general_correctness:edge_cases",
        "general_correctness:explain_differently",
        "logical_soundness:step_by_step",
        "mathematical_correctness:step_by_step",
        "unit_conversions:step_by_step",
    )
)


async def test_approvals_verify_only_where_the_model_knows_every_voter(
    services: Resources,
) -> None:
    # Unverified at response (the judge's 0.6 is under the raw bar); a spot panel approves.
    unsure = verdict_json(True, 0.6, "86")
    unknown = await solution_of(
        services, await spot(services, model(), *[APPROVE] * 6, first=unsure)
    )
    assert unknown.verification_status == "unverified"  # voters the model never weighed
    known = model(("judge:scripted-1:quick_verify", *PANEL))
    read = await solution_of(services, await spot(services, known, *[APPROVE] * 6, first=unsure))
    assert read.verification_status == "verified"
    assert (
        "with a spot check's panel the evidence verifies it (P 0.98)"
        in read.status_history[-1]["reason"]
    )
    assert read.verification_confidence == pytest.approx(0.98, abs=0.005)


def test_the_later_panel_rule() -> None:
    move = partial(after_later_panel, by="a spot check's panel")
    assert move("unverified", badge="verified", probability=0.95, may_verify=True,
                proven_at_response=False).to == "verified"  # fmt: skip
    assert move("unverified", badge="verified", probability=0.95, may_verify=False,
                proven_at_response=False) is None  # fmt: skip
    assert move("verified", badge="unverified", probability=0.7, may_verify=True,
                proven_at_response=False).to == "unverified"  # fmt: skip
    assert move("verified", badge="caution", probability=0.1, may_verify=True,
                proven_at_response=True) is None  # fmt: skip
    assert move("caution", badge="verified", probability=0.99, may_verify=True,
                proven_at_response=False) is None  # fmt: skip
