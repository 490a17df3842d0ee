"""MARS as a second chance: a caution answer, two different providers (one wrong, one right),
the worker runs MARS; the improved answer passes the validator and replaces the stored one."""

from __future__ import annotations

import json
import uuid
from dataclasses import replace

from sqlalchemy import select

from app.db.models import OutboxMessage
from app.llm.registry import build_registry
from app.resources import Resources, unit_of_work
from app.scans.repository import ScanRepository
from app.scans.service import submit_scan
from app.worker.tasks import TASKS
from tests.fixtures.jobs import ctx_of, job_context
from tests.fixtures.providers import solution_json
from tests.fixtures.scripted import ScriptedClient

PROBLEM = "Solve 2x + 3 = 11"


def agent(name: str, answer: str, *, solves: bool) -> ScriptedClient:
    """Answers `answer`; as a MARS verifier, scores 'x = 4' high on all four dimensions."""

    def reply(messages) -> str:
        prompt = messages[-1].content
        if "verifying another agent" in prompt:
            good = "Final answer: x = 4" in prompt
            score = 0.95 if good else 0.2
            dims = dict.fromkeys(("correctness", "reasoning", "completeness", "clarity"), score)
            return json.dumps({**dims, "feedback": "" if good else "5 does not satisfy 2x+3=11"})
        return solution_json(answer, "2x = 11 - 3", "x = 8 / 2")

    capabilities = frozenset({"solve", "verify"} if solves else {"verify"})
    return ScriptedClient(name, [reply], capabilities=capabilities)


async def submit(services: Resources, *clients: ScriptedClient):
    registry = build_registry([c.provider for c in clients], list(clients))
    original = services.pipeline
    services.pipeline = replace(original, registry=registry)
    try:
        async with unit_of_work(services) as session:
            _, solution = await submit_scan(services, session, text=PROBLEM)
    finally:
        services.pipeline = original
    return solution, ctx_of(job_context(services, registry))


async def test_caution_answer_is_replaced_by_a_verified_mars_answer(services: Resources) -> None:
    wrong = agent("wrong", "x = 5", solves=True)
    right = agent("right", "x = 4", solves=False)  # never solves in the scan: it stays caution
    solution, ctx = await submit(services, wrong, right)
    assert (solution.final_answer, solution.verification_status) == ("x = 5", "caution")
    async with services.sessionmaker() as session:
        staged = await session.scalar(
            select(OutboxMessage).where(OutboxMessage.job_id == f"mars_second_chance:{solution.id}")
        )
    assert staged is not None  # staged with the other follow-ups

    outcome = await TASKS["mars_second_chance"](ctx, str(solution.id))
    assert outcome.startswith("replaced: right=x = 4")
    async with services.sessionmaker() as session:
        stored = await ScanRepository(session).get_solution(uuid.UUID(str(solution.id)))
    assert stored is not None
    assert (stored.final_answer, stored.verification_status) == ("x = 4", "verified")
    (change,) = stored.status_history
    assert (change["from"], change["to"]) == ("caution", "verified")
    assert "programmatic" in change["reason"] and change["evidence_ids"]
    mars_rows = [v for v in stored.verifications if v.tier == "mars"]
    assert mars_rows[0].method == "programmatic" and mars_rows[0].verdict == "approve"
    assert await TASKS["mars_second_chance"](ctx, str(solution.id)) == "skipped: already verified"


async def test_one_provider_only_does_not_run_mars(services: Resources) -> None:
    wrong = agent("wrong", "x = 5", solves=True)
    solution, ctx = await submit(services, wrong)
    outcome = await TASKS["mars_second_chance"](ctx, str(solution.id))
    assert outcome == "skipped: MARS needs two different model providers"
    assert wrong.calls and all("verifying another agent" not in c[-1].content for c in wrong.calls)
