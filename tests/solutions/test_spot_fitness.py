"""Spot-check verdicts feed fitness (a credible panel only), and an answer a later check turns
to caution gets the MARS second chance staged in the same transaction."""

from __future__ import annotations

import uuid

from sqlalchemy import select

from app.db.models import OutboxMessage, ProviderFitness
from app.resources import Resources
from app.solutions.followups.spot_check import spot_check
from app.worker.tasks import TASKS
from tests.fixtures.providers import solution_json, solver, verdict_json, verifier
from tests.fixtures.scripted import ScriptedClient
from tests.solutions.test_badge_transitions import solution_of, solve_only
from tests.solutions.test_consensus_checks import stored

APPROVE = "Checked each step.\nFINAL VERIFICATION ANSWER: True"
REJECT = "Step 2 is wrong.\nFINAL VERIFICATION ANSWER: False"


async def fitness_of(services: Resources, provider: str) -> ProviderFitness | None:
    async with services.sessionmaker() as session:
        return await session.scalar(
            select(ProviderFitness).where(ProviderFitness.provider == provider)
        )


async def mars_staged(services: Resources, solution_id: str) -> bool:
    async with services.sessionmaker() as session:
        found = await session.scalar(
            select(OutboxMessage.id).where(
                OutboxMessage.job_id == f"mars_second_chance:{solution_id}"
            )
        )
    return found is not None


async def test_a_credible_approving_panel_counts_as_a_right_outcome(services: Resources) -> None:
    name = f"spot_right_{uuid.uuid4().hex[:6]}"
    judge = ScriptedClient("judge", [APPROVE], capabilities=frozenset({"verify"}))
    solution_id, ctx = await stored(services, solver(name, "86"), judge)
    outcome = await spot_check(ctx, solution_id, "random sample")
    assert outcome.startswith("approved by")
    row = await fitness_of(services, name)
    assert row is not None and (row.n_correct, row.n_validated) == (1, 1)
    # minimal reasoning (+0.03), fast (+0.01): the design's deltas, in one upsert
    assert abs(row.fitness - 0.54) < 1e-9


async def test_a_panel_that_is_not_credible_moves_nothing(services: Resources) -> None:
    name = f"spot_split_{uuid.uuid4().hex[:6]}"
    # alternating verdicts: a 50/50 panel is no outcome (needs ≥ 75% one side)
    judge = ScriptedClient("judge", [APPROVE, REJECT] * 10, capabilities=frozenset({"verify"}))
    solution_id, ctx = await stored(services, solver(name, "86"), judge)
    await spot_check(ctx, solution_id, "random sample")
    assert await fitness_of(services, name) is None


async def test_a_rejecting_panel_turns_verified_to_caution_and_stages_mars(
    services: Resources,
) -> None:
    name = f"spot_wrong_{uuid.uuid4().hex[:6]}"
    # the judge approved 90 at response time (model-verified, not proven); its panel rejects
    judge = verifier("judge", verdict_json(True, 0.95, "90"), REJECT)
    solution_id, ctx = await stored(services, solve_only(name, "90"), judge)
    assert (await solution_of(services, solution_id)).verification_status == "verified"
    assert not await mars_staged(services, solution_id)
    outcome = await TASKS["spot_check"](ctx, solution_id, "random sample")
    assert outcome.startswith("rejected") and outcome.endswith("badge → caution")
    solution = await solution_of(services, solution_id)
    assert solution.verification_status == "caution"
    # The figure follows the badge: the panel's approval share (raw: no model fitted), not
    # the 0.95 the response carried beside "verified".
    assert solution.verification_confidence == 0.0 and not solution.confidence_calibrated
    assert solution.status_history[-1]["confidence"] == 0.0
    assert await mars_staged(services, solution_id)
    row = await fitness_of(services, name)
    assert row is not None and (row.n_correct, row.n_validated) == (0, 1)


async def test_a_consensus_rejection_stages_mars_once(services: Resources) -> None:
    judge = verifier("judge", verdict_json(True, 0.95, "90"))
    solution_id, ctx = await stored(
        services,
        solve_only("first", "90"),
        judge,
        ScriptedClient("b", [solution_json("86")], capabilities=frozenset({"solve"})),
        solve_only("c", "86"),
        solve_only("d", "86"),
    )
    outcome = await TASKS["consensus_check"](ctx, solution_id)
    assert outcome.endswith("badge → caution")
    # Its confidence: the returned answer's share of the vote (one of four, weighted), no
    # longer the response's 0.95.
    solution = await solution_of(services, solution_id)
    assert 0.0 < solution.verification_confidence < 0.5
    assert solution.status_history[-1]["confidence"] == solution.verification_confidence
    assert await mars_staged(services, solution_id)
