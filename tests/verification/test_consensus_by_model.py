"""Consensus reads the one fitted model (issue 25, deliverable 2): its vote joins the answer's
ledger and the badge follows the model's P over all of it. Consensus labels the outcomes the
model is fitted on, so the model never learns a weight for its vote: alone it never verifies,
before a fit or after (the raw rule, two confirmations, stands before a fit only when a
verifier outside the vote approved the answer: tests/solutions/test_badge_transitions.py)."""

from __future__ import annotations

from app.llm.registry import build_registry
from app.resources import Resources
from app.verification.calibration import Calibrator
from app.worker.tasks import TASKS
from tests.fixtures.jobs import ctx_of, job_context, with_model
from tests.fixtures.providers import verdict_json, verifier
from tests.fixtures.scripted import ScriptedClient
from tests.solutions.test_badge_transitions import solution_of, solve_only
from tests.solutions.test_consensus_checks import PROBLEM, submitted

# P = σ(8 · approval share − 4): 0.98 with every vote approving, 0.5 at half; verified from 0.9.
MODEL = Calibrator(
    feature_set="evidence",
    features=["approval_share", "vote:judge:quick_verify"],
    weights=[8.0, 0.0],
    bias=-4.0,
    threshold=0.9,
    target_precision=0.97,
    n_samples=500,
)


async def consensus(services: Resources, calibrator: Calibrator | None, *clients: ScriptedClient):
    """PROBLEM solved by the first client and stored; then a consensus check with the others,
    `calibrator` the process's fitted model. Returns the stored solution."""
    registry = build_registry(["symbolic"], [services.registry.get("symbolic"), *clients])
    solution = await submitted(services, registry, PROBLEM)
    context = job_context(services, registry)
    if calibrator is not None:
        context = with_model(services, context, calibrator)
    await TASKS["consensus_check"](ctx_of(context), str(solution.id))
    return await solution_of(services, str(solution.id))


async def test_agreement_alone_never_verifies(services: Resources) -> None:
    agreeing = [solve_only(n, "86") for n in ("first", "b", "c")]
    raw = await consensus(services, None, *agreeing)
    assert raw.verification_status == "unverified"  # nothing outside the vote approved it
    read = await consensus(services, MODEL, *[solve_only(n, "86") for n in ("first", "b", "c")])
    # The model reads the approval at P 0.98, but never learned what a consensus vote is worth.
    assert read.verification_status == "unverified" and read.status_history == []


async def test_a_rejection_moves_the_badge_as_far_as_the_model_says(services: Resources) -> None:
    # A verifier approved 90 at response time; three other providers say 86. The raw rule
    # calls it caution; the model reads one approval and one rejection: P 0.50, unverified.
    clients = [
        solve_only("first", "90"),
        verifier("judge", verdict_json(True, 0.95, "90")),
        *[solve_only(n, "86") for n in ("b", "c", "d")],
    ]
    read = await consensus(services, MODEL, *clients)
    assert read.verification_status == "unverified"
    assert read.status_history[-1]["reason"] == (
        "with a later consensus check the evidence no longer verifies it (P 0.50)"
    )
