"""Verifier engineering wired: recalibrate picks each subject's best aspect subset from
labelled spot checks and stores it; spot-check panels use it."""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path

import pytest

from app.db.models import Scan, Solution, VerificationRecord
from app.resources import Resources
from app.solutions.followups.engineering import engineer_verifier_sets
from app.verification import engineered_sets
from app.verification.bon_mav import EngineeredSet, VerifierOutcome, engineer_per_subject
from app.worker.tasks import TASKS
from tests.fixtures.jobs import job_context
from tests.fixtures.scripted import ScriptedClient
from tests.solutions.test_consensus_checks import solver, stored, tier_rows


def outcomes(subject: str, count: int, seed: int = 0) -> list[VerifierOutcome]:
    """'good' is right on every answer, 'yes' approves everything, 'coin' guesses."""
    rng = random.Random(seed)
    made = []
    for i in range(count):
        correct = i % 2 == 0
        approvals = {"good": correct, "yes": True, "coin": rng.random() < 0.5}
        made.append(VerifierOutcome(subject, correct, approvals))
    return made


def test_engineering_picks_the_discriminating_subset() -> None:
    sets = engineer_per_subject([*outcomes("math", 30), *outcomes("physics", 4)], min_outcomes=20)
    assert set(sets) == {"math"}  # physics has too few labelled answers
    chosen = sets["math"]
    assert chosen.verifiers == ["good"] and chosen.selection_accuracy == 1.0
    assert chosen.all_accuracy < 1.0  # MAV-All: 'yes' and 'coin' dilute 'good'


async def test_recalibrate_stores_sets_per_subject(
    services: Resources, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    verify = services.settings.verify
    monkeypatch.setattr(verify, "verifier_sets_path", tmp_path / "sets.json")
    subject = f"eng-{uuid.uuid4().hex[:8]}"
    async with services.sessionmaker() as session:
        for outcome in outcomes(subject, 24):
            scan = Scan(
                id=uuid.uuid4(),
                source="text",
                problem_text="p",
                subject=subject,
                grade_band="middle",
                difficulty="easy",
                language="en",
            )
            solution = Solution(
                id=uuid.uuid4(), scan=scan, final_answer="1", verification_status="caution"
            )
            session.add_all([scan, solution])
            for key, approve in outcome.approvals.items():
                session.add(_record(solution, "spot", f"judge:m:{key}:step_by_step", approve))
            session.add(_record(solution, "consensus", "consensus:exact_match", outcome.correct))
        await session.commit()
    message = await engineer_verifier_sets(job_context(services))
    assert subject in message
    stored_sets = json.loads((tmp_path / "sets.json").read_text())["subjects"]
    assert stored_sets[subject]["verifiers"] == ["good:step_by_step"]
    assert engineered_sets.load(tmp_path / "sets.json")[subject] == ["good:step_by_step"]


def _record(solution: Solution, tier: str, verifier_id: str, approve: bool) -> VerificationRecord:
    return VerificationRecord(
        solution=solution,
        tier=tier,
        method="llm",
        verifier_id=verifier_id,
        verdict="approve" if approve else "reject",
    )


async def test_spot_check_panel_uses_the_engineered_set(
    services: Resources, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "sets.json"
    monkeypatch.setattr(services.settings.verify, "verifier_sets_path", path)
    engineered_sets.save(
        path,
        {"math": EngineeredSet(["mathematical_correctness:step_by_step"], 1.0, 0.5, 10)},
        "now",
    )
    judge = ScriptedClient(
        "judge", ["FINAL VERIFICATION ANSWER: True"], capabilities=frozenset({"verify"})
    )
    solution_id, ctx = await stored(services, solver("first", "86"), judge)
    await TASKS["spot_check"](ctx, solution_id, "random sample")
    spot = await tier_rows(services, solution_id, "spot")
    assert [r.verifier_id for r in spot] == [
        "judge:scripted-1:mathematical_correctness:step_by_step"
    ]
    assert "verifier sets" in await TASKS["recalibrate"](ctx)
