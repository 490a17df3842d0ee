"""Abstention is abstention on the spot-check path: a panel that could not judge (a budget
outage, a provider down) never moves a badge, fitness or a label; a credible rejection does."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from app.llm.errors import BudgetExhausted
from app.resources import Resources
from app.worker.tasks import TASKS
from tests.fixtures.providers import verdict_json, verifier
from tests.fixtures.scripted import ScriptedClient
from tests.solutions.test_badge_transitions import solution_of, solve_only
from tests.solutions.test_consensus_checks import stored
from tests.solutions.test_spot_fitness import fitness_of

APPROVE = "Checked each step.\nFINAL VERIFICATION ANSWER: True"
REJECT = "Step 2 is wrong.\nFINAL VERIFICATION ANSWER: False"


async def test_an_all_abstaining_spot_panel_leaves_a_verified_answer_verified(
    services: Resources,
) -> None:
    name = f"spot_outage_{uuid.uuid4().hex[:6]}"
    # The judge verified 86 at response time; then its budget ran out: every aspect abstains.
    spent = BudgetExhausted("judge", "spent", resets_at=datetime.now(UTC))
    judge = verifier("judge", verdict_json(True, 0.95, "86"), spent)
    solution_id, ctx = await stored(services, solve_only(name, "86"), judge)
    assert (await solution_of(services, solution_id)).verification_status == "verified"
    outcome = await TASKS["spot_check"](ctx, solution_id, "random sample")
    assert outcome.startswith("undecided by 0/0 decisive"), outcome
    solution = await solution_of(services, solution_id)
    assert solution.verification_status == "verified"
    assert solution.status_history == []
    assert await fitness_of(services, name) is None  # no outcome, no reward or penalty


async def test_a_mostly_abstaining_panel_with_one_rejection_moves_nothing(
    services: Resources,
) -> None:
    # One rejection, the rest abstain (unparseable replies): too thin to be evidence.
    judge = verifier("judge", verdict_json(True, 0.95, "86"), REJECT, "I am not sure.")
    solution_id, ctx = await stored(services, solve_only("thin", "86"), judge)
    await TASKS["spot_check"](ctx, solution_id, "random sample")
    assert (await solution_of(services, solution_id)).verification_status == "verified"


async def test_the_spot_panel_spreads_across_admitted_providers(services: Resources) -> None:
    a = verifier("judge_a", verdict_json(True, 0.95, "86"), APPROVE)
    b = ScriptedClient("judge_b", [APPROVE], capabilities=frozenset({"verify"}))
    solution_id, ctx = await stored(services, solve_only("spread", "86"), a, b)
    outcome = await TASKS["spot_check"](ctx, solution_id, "random sample")
    assert outcome.startswith("approved by"), outcome
    assert len(a.calls) > 1 and b.calls  # both providers sit on the panel
