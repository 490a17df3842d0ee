"""The badge follows later evidence: tier-2 outcomes move a stored solution's status and
append to `status_history` (what GET /v1/solutions/{id} returns and SSE reads)."""

from __future__ import annotations

import uuid

from app.resources import Resources
from app.scans.repository import ScanRepository
from app.worker.tasks import TASKS
from tests.fixtures.providers import solution_json, verdict_json, verifier
from tests.fixtures.scripted import ScriptedClient
from tests.solutions.test_consensus_checks import stored


def solve_only(name: str, answer: str) -> ScriptedClient:
    return ScriptedClient(name, [solution_json(answer)], capabilities=frozenset({"solve"}))


async def solution_of(services: Resources, solution_id: str):
    async with services.sessionmaker() as session:
        solution = await ScanRepository(session).get_solution(uuid.UUID(solution_id))
    assert solution is not None
    return solution


async def test_agreement_alone_verifies_nothing(services: Resources) -> None:
    """Three solvers sharing an answer nobody checked (an independent tester: three providers
    saying 0 for 9 ÷ 0, every verifier abstaining, came out `verified`, confidence 0.0):
    agreement is validated by a verifier outside the vote, or it verifies nothing."""
    solution_id, ctx = await stored(
        services, solve_only("first", "86"), solve_only("b", "86"), solve_only("c", "86")
    )
    assert (await solution_of(services, solution_id)).verification_status == "unverified"
    outcome = await TASKS["consensus_check"](ctx, solution_id)
    assert outcome == "approve (exact_match)", outcome
    solution = await solution_of(services, solution_id)
    assert solution.verification_status == "unverified" and solution.status_history == []


async def test_validated_agreement_promotes_an_unverified_answer(services: Resources) -> None:
    # An independent verifier approved below the raw bar at response time: unverified. Two
    # other providers then agree, and the approval outside their vote validates them.
    judge = verifier("judge", verdict_json(True, 0.7, "86"))
    solution_id, ctx = await stored(
        services, solve_only("first", "86"), judge, solve_only("b", "86"), solve_only("c", "86")
    )
    assert (await solution_of(services, solution_id)).verification_status == "unverified"
    outcome = await TASKS["consensus_check"](ctx, solution_id)
    assert outcome.startswith("approve (exact_match)") and outcome.endswith("badge → verified")
    solution = await solution_of(services, solution_id)
    assert solution.verification_status == "verified"
    (change,) = solution.status_history
    (row,) = [v for v in solution.verifications if v.tier == "consensus"]
    assert (change["from"], change["to"], change["evidence_ids"]) == (
        "unverified",
        "verified",
        [str(row.id)],
    )
    assert "outside the vote" in change["reason"]


async def test_a_credible_rejection_turns_verified_to_caution(services: Resources) -> None:
    # A model verifier approved 90 at response time; three other providers all say 86.
    judge = verifier("judge", verdict_json(True, 0.95, "90"))
    solution_id, ctx = await stored(
        services,
        solve_only("first", "90"),
        judge,
        solve_only("b", "86"),
        solve_only("c", "86"),
        solve_only("d", "86"),
    )
    assert (await solution_of(services, solution_id)).verification_status == "verified"
    outcome = await TASKS["consensus_check"](ctx, solution_id)
    assert outcome.startswith("reject") and outcome.endswith("badge → caution")
    solution = await solution_of(services, solution_id)
    assert solution.verification_status == "caution"
    assert [(c["from"], c["to"]) for c in solution.status_history] == [("verified", "caution")]


async def test_a_two_way_disagreement_changes_nothing(services: Resources) -> None:
    solution_id, ctx = await stored(services, solve_only("first", "86"), solve_only("b", "91"))
    outcome = await TASKS["consensus_check"](ctx, solution_id)
    assert outcome.startswith("abstain") or "arbitration" in outcome
    solution = await solution_of(services, solution_id)
    assert solution.verification_status == "unverified" and solution.status_history == []
