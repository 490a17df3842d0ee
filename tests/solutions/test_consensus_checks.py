"""Tier-2 consensus and tier-3 spot checks as worker tasks, on stored solutions."""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Solution
from app.db.transaction import transaction
from app.llm.registry import ProviderRegistry, build_registry
from app.resources import Resources, unit_of_work
from app.scans.repository import ScanRepository
from app.scans.service import submit_scan
from app.symbolic.sandbox import SymbolicSandbox
from app.worker.tasks import TASKS
from tests.fixtures.jobs import ctx_of, job_context
from tests.fixtures.providers import solution_json, solver, verdict_json, verifier
from tests.fixtures.scripted import ScriptedClient

PROBLEM = "A baker fills 7 trays with 13 muffins each and sells all but 5. How many sold?"


async def submitted(
    services: Resources,
    registry: ProviderRegistry,
    text: str,
    sessionmaker: async_sessionmaker[AsyncSession] | None = None,
) -> Solution:
    """`text` scanned and stored with `registry`'s providers (in `sessionmaker`'s database,
    else the app's)."""
    original = services.pipeline
    services.pipeline = replace(original, registry=registry)
    try:
        if sessionmaker is None:
            async with unit_of_work(services) as session:
                _, solution = await submit_scan(services, session, text=text)
        else:
            async with transaction(sessionmaker) as session:
                _, solution = await submit_scan(services, session, text=text)
    finally:
        services.pipeline = original
    return solution


async def stored(services: Resources, *clients) -> tuple[str, dict]:
    """Solve PROBLEM with `clients` (first one answers), store it, return its id and a ctx."""
    registry = build_registry(["symbolic"], [services.registry.get("symbolic"), *clients])
    solution = await submitted(services, registry, PROBLEM)
    return str(solution.id), ctx_of(job_context(services, registry))


async def tier_rows(services: Resources, solution_id: str, tier: str):
    async with services.sessionmaker() as session:
        solution = await ScanRepository(session).get_solution(uuid.UUID(solution_id))
    assert solution is not None
    return [v for v in solution.verifications if v.tier == tier]


async def test_consensus_records_agreement_and_disagreement(services: Resources) -> None:
    # Fresh names: the semantic stage weighs what each provider's earlier outcomes taught, and
    # the database is shared by the tests of one run.
    tag = uuid.uuid4().hex[:6]
    first = ScriptedClient(f"first_{tag}", [solution_json("86")], capabilities=frozenset({"solve"}))
    agree = ScriptedClient(
        f"agree_{tag}", [solution_json("86 muffins")], capabilities=frozenset({"solve"})
    )
    disagree = ScriptedClient(
        f"disagree_{tag}", [solution_json("91")], capabilities=frozenset({"solve"})
    )
    solution_id, ctx = await stored(services, first, agree, disagree)
    outcome = await TASKS["consensus_check"](ctx, solution_id)
    assert outcome == "approve (exact_match)" or outcome.startswith("approve")
    (row,) = await tier_rows(services, solution_id, "consensus")
    assert row.verdict == "approve" and f"disagree_{tag}=91" in row.rationale
    assert await TASKS["consensus_check"](ctx, solution_id) == "already checked"


async def test_consensus_rejects_an_outvoted_answer(services: Resources) -> None:
    first = ScriptedClient("first", [solution_json("90")], capabilities=frozenset({"solve"}))
    others = [
        ScriptedClient(f"o{i}", [solution_json("86")], capabilities=frozenset({"solve"}))
        for i in range(3)
    ]
    solution_id, ctx = await stored(services, first, *others)
    await TASKS["consensus_check"](ctx, solution_id)
    (row,) = await tier_rows(services, solution_id, "consensus")
    assert (row.verdict, row.independent_answer) == ("reject", "86")


async def test_spot_check_runs_an_aspect_panel(services: Resources) -> None:
    judge = ScriptedClient(
        "judge",
        ["Checked each step.\nFINAL VERIFICATION ANSWER: True"],
        capabilities=frozenset({"verify"}),
    )
    solution_id, ctx = await stored(services, solver("first", "86"), judge)
    outcome = await TASKS["spot_check"](ctx, solution_id, "random sample")
    assert outcome.startswith("approved by")
    spot = await tier_rows(services, solution_id, "spot")
    assert {r.verdict for r in spot} == {"approve"}
    assert all(r.verifier_id.startswith("judge:scripted-1:") for r in spot)
    assert await TASKS["spot_check"](ctx, solution_id) == "already checked"


async def test_checks_skip_without_other_providers(services: Resources) -> None:
    solution_id, ctx = await stored(services, solver("only", "86"))
    assert await TASKS["consensus_check"](ctx, solution_id) == "skipped: no other provider answered"
    assert await TASKS["spot_check"](ctx, solution_id) == (
        "skipped: no verifier other than the solver"
    )


async def test_consensus_moves_provider_fitness(services: Resources) -> None:
    from sqlalchemy import select

    from app.db.models import ProviderFitness

    first = ScriptedClient(
        "fit_a",
        [solution_json("86", "7×13 = 91", "91 − 5 = 86", "so 86")],
        capabilities=frozenset({"solve"}),
    )
    right = ScriptedClient("fit_b", [solution_json("86")], capabilities=frozenset({"solve"}))
    wrong = ScriptedClient("fit_c", [solution_json("91")], capabilities=frozenset({"solve"}))
    # An independent verifier approved 86 at the response: the consensus answer is validated.
    checker = verifier("fit_v", verdict_json(True, 0.95, "86"))
    solution_id, ctx = await stored(services, first, right, wrong, checker)
    assert [
        r.verdict for r in await tier_rows(services, solution_id, "quick") if r.method == "llm"
    ] == ["approve"]
    await TASKS["consensus_check"](ctx, solution_id)
    async with services.sessionmaker() as session:
        rows = {
            r.provider: r
            for r in (
                await session.scalars(
                    select(ProviderFitness).where(ProviderFitness.provider.like("fit_%"))
                )
            ).all()
        }
        # seed deltas: good reasoning (3+ steps) +0.045 +0.005; minimal +0.03; wrong −0.03;
        # scripted replies are fast: +0.01
        assert rows["fit_a"].fitness == pytest.approx(0.5 + 0.045 + 0.005 + 0.01)
        assert rows["fit_b"].fitness == pytest.approx(0.5 + 0.03 + 0.01)
        assert rows["fit_c"].fitness == pytest.approx(0.5 - 0.03 + 0.01)
        assert (rows["fit_c"].n_validated, rows["fit_c"].n_correct) == (1, 0)
        # End the read before writing: on SQLite a read snapshot cannot become a write once
        # the app's background jobs (in-process queue) have committed meanwhile.
        await session.commit()
        from app.db.repositories.fitness import FitnessRepository

        repo = FitnessRepository(session)
        await repo.apply(
            provider="fit_c", model=rows["fit_c"].model, subject="math", delta=-0.9, correct=False
        )
        await session.commit()
        weights = await repo.weights("math", ["fit_c", "unseen"])
    assert weights == {"fit_c": 0.0, "unseen": 0.5}  # clamped at 0; unseen providers at 0.5


async def test_an_error_every_solver_shares_earns_nothing(services: Resources) -> None:
    """Three solvers say 91; the independent verifier computed 86 and rejected it. The vote
    agrees, but nothing outside it confirmed the answer: no fitness for anyone, no badge."""
    from sqlalchemy import select

    from app.db.models import ProviderFitness, Solution

    tag = uuid.uuid4().hex[:6]
    solvers = [
        ScriptedClient(f"shared{i}_{tag}", [solution_json("91")], capabilities=frozenset({"solve"}))
        for i in range(3)
    ]
    checker = verifier(f"checker_{tag}", verdict_json(False, 0.95, "86"))
    solution_id, ctx = await stored(services, *solvers, checker)
    assert {
        r.verdict for r in await tier_rows(services, solution_id, "quick") if r.method == "llm"
    } == {"reject"}  # each attempt's 91 rejected
    outcome = await TASKS["consensus_check"](ctx, solution_id)
    assert outcome.startswith("approve"), outcome  # the vote itself agreed
    async with services.sessionmaker() as session:
        fitness = (
            await session.scalars(
                select(ProviderFitness).where(ProviderFitness.provider.like(f"shared%_{tag}"))
            )
        ).all()
        solution = await session.get(Solution, uuid.UUID(solution_id))
        assert solution is not None
        assert fitness == []
        assert solution.verification_status != "verified"


async def test_overlapping_runs_of_one_consensus_check_write_once(services: Resources) -> None:
    """A redelivery while the first run still waits on the models: both ask the models, one
    writes the verdicts and moves fitness, the other reports the work done."""
    import asyncio

    from sqlalchemy import select

    from app.db.models import ProviderFitness

    tag = uuid.uuid4().hex[:6]
    first = ScriptedClient(f"lap1_{tag}", [solution_json("86")], capabilities=frozenset({"solve"}))
    second = ScriptedClient(
        f"lap2_{tag}", [solution_json("86")] * 2, capabilities=frozenset({"solve"})
    )
    checker = verifier(f"lapv_{tag}", verdict_json(True, 0.95, "86"))
    solution_id, ctx = await stored(services, first, second, checker)
    outcomes = await asyncio.gather(
        TASKS["consensus_check"](ctx, solution_id), TASKS["consensus_check"](ctx, solution_id)
    )
    assert sorted(o.startswith("approve") for o in outcomes) == [False, True], outcomes
    assert "already checked" in outcomes
    assert len(await tier_rows(services, solution_id, "consensus")) == 1
    async with services.sessionmaker() as session:
        fitness = (
            await session.scalars(
                select(ProviderFitness).where(ProviderFitness.provider == f"lap2_{tag}")
            )
        ).all()
    assert [row.n_validated for row in fitness] == [1]  # counted once


async def test_consensus_never_promotes_an_answer_not_worked_out(services: Resources) -> None:
    """Every model writing the problem back ("7 × 8" for "7 × 8 = ?") agrees, and the answer
    is still not the one asked: the check holds it, so consensus does not run."""

    tag = uuid.uuid4().hex[:6]
    echoes = [
        ScriptedClient(
            f"echo{i}_{tag}", [solution_json("7 × 8")], capabilities=frozenset({"solve"})
        )
        for i in range(3)
    ]
    registry = build_registry([], echoes)
    solution = await submitted(services, registry, "7 × 8 = ?")
    assert solution.final_answer == "7 × 8" and solution.verification_status != "verified"
    ctx = ctx_of(job_context(services, registry))
    outcome = await TASKS["consensus_check"](ctx, str(solution.id))
    assert outcome == "skipped: the answer is not worked out"
    assert await tier_rows(services, str(solution.id), "consensus") == []


class CountedChecks:
    """The real sandbox, counting the answers it is asked to check."""

    def __init__(self, sandbox: SymbolicSandbox) -> None:
        self.sandbox = sandbox
        self.checked: list[str] = []

    async def check(self, problem: str, answer: str) -> Any:
        self.checked.append(answer)
        return await self.sandbox.check(problem, answer)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sandbox, name)


async def test_consensus_reads_the_proof_stored_at_the_response(
    services: Resources, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    """QUICK_VERIFY proved x = 4 by substitution: consensus reads that proof and checks only
    the answer it has not seen (x = 5, refuted), and the proof decides. (A database of the
    test's own: the app's relay does not run its own consensus job on this solution.)"""

    tag = uuid.uuid4().hex[:6]
    first = ScriptedClient(
        f"pf1_{tag}", [solution_json("x = 4")], capabilities=frozenset({"solve"})
    )
    other = ScriptedClient(
        f"pf2_{tag}", [solution_json("x = 5")], capabilities=frozenset({"solve"})
    )
    registry = build_registry([], [first, other])
    solution = await submitted(services, registry, "Solve 2x + 3 = 11", sessionmaker)
    assert solution.final_answer == "x = 4"
    assert [(v.tier, v.method, v.verdict, v.answer) for v in solution.verifications] == [
        ("quick", "programmatic", "approve", "x = 4")
    ]
    sandbox = CountedChecks(services.sandbox)
    context = replace(job_context(services, registry), sessionmaker=sessionmaker, sandbox=sandbox)
    outcome = await TASKS["consensus_check"](ctx_of(context), str(solution.id))
    assert outcome.startswith("approve (proof)"), outcome
    assert sandbox.checked == ["x = 5"]
