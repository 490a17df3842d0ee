"""A check of worked steps is stored with the evidence behind it (issue 30): the check, what
the student was shown, and every verdict (the answer check's, each step's symbolic finding,
the step critique) as ledger rows; tenant-scoped; DELETE /v1/checks/{id} erases all of it.
A check without steps stores nothing."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.key_repository import ApiKeyRepository
from app.auth.keys import new_key
from app.checks.repository import CheckRepository
from app.db.models import Check, CheckVerdict
from app.llm.providers import openai
from app.main import create_app
from app.resources import Resources
from app.settings import AuthSettings, RetrievalSettings
from solveverify_bench.fake_llm import FakeLLMServer, Reply
from tests.conftest import settings_for
from tests.fixtures.providers import kept
from tests.scans.test_erase_and_idempotency import rows_mentioning

WORD_PROBLEM = (
    "A baker fills 7 trays with 13 muffins each and sells all but 5 muffins. "
    "How many muffins does the baker sell?"
)
LINEAR = "If 7 - 4x = 15, what is the value of 8x + 2?"


@pytest.fixture(scope="module")
def server():
    fake = FakeLLMServer().start()
    yield fake
    fake.stop()


async def stored(session: AsyncSession, check_id: str) -> Check | None:
    return await CheckRepository(session).get(uuid.UUID(check_id), None)


async def test_a_check_with_steps_is_stored_with_its_evidence(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    steps = ["7 - 4x = 15", "-4x = 22", "x = -5.5", "8x + 2 = -42"]
    response = await client.post(
        "/v1/checks", json={"problem": LINEAR, "answer": "-42", "steps": steps}
    )
    assert response.status_code == 200, response.text
    body = response.json()
    check = await stored(session, body["check_id"])
    assert check is not None and check.tenant is None
    assert (check.problem_text, check.answer, check.steps) == (LINEAR, "-42", steps)
    assert (
        (check.verdict, check.method)
        == (body["verdict"], body["method"])
        == (
            "incorrect",
            "programmatic",
        )
    )
    assert (check.first_error_step, check.first_flagged_step) == (1, 1)
    assert check.step_checks == body["steps"]
    answer = [v for v in check.verdicts if v.judged == "answer"]
    work = sorted((v for v in check.verdicts if v.judged == "work"), key=lambda v: v.step or 0)
    assert [(v.method, v.verdict) for v in answer] == [("programmatic", "reject")]
    assert [(v.step, v.verifier_id, v.verdict, v.score) for v in work] == [
        (0, "symbolic:equation", "approve", 1.0),
        (1, "symbolic:equation", "reject", 0.0),
        (2, "symbolic:equation", "approve", 1.0),
        (3, "symbolic:equation", "approve", 1.0),  # 8x + 2 = -42 keeps x = -5.5
    ]
    assert "-4x = 22" in (work[1].rationale or "")


async def test_a_check_without_steps_stores_nothing(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    before = await session.scalar(select(func.count()).select_from(Check))
    response = await client.post("/v1/checks", json={"problem": LINEAR, "answer": "-14"})
    assert response.status_code == 200 and "check_id" not in response.json()
    assert await session.scalar(select(func.count()).select_from(Check)) == before


async def test_the_critique_is_a_ledger_row(
    client: httpx.AsyncClient, session: AsyncSession, with_clients, server: FakeLLMServer
) -> None:
    server.reset()
    model = openai.OpenAIChatModel(kept(openai, "sk-test", f"{server.url}/v1"), "gpt-4o-mini")
    with_clients(model)
    reply = {"independent_answer": "86", "is_correct": False, "confidence": 0.9,
             "earliest_error_step": 1, "error_description": "subtracted 7"}  # fmt: skip
    server.then(Reply(json.dumps(reply))).then(Reply(json.dumps(reply)))
    response = await client.post(
        "/v1/checks",
        json={"problem": WORD_PROBLEM, "answer": "84", "steps": ["7 × 13 = 91", "91 - 7 = 84"]},
    )
    body = response.json()
    assert body["first_error_step"] == 1 and body["steps"][1]["method"] == "llm"
    check = await stored(session, body["check_id"])
    assert check is not None
    critique = [v for v in check.verdicts if v.verifier_id.endswith(":step_critique")]
    assert [(v.judged, v.step, v.method, v.verdict) for v in critique] == [
        ("work", 1, "llm", "reject")
    ]
    assert critique[0].score == pytest.approx(0.1)  # P(the work is right) = 1 - P(claim)
    assert "raw" in (critique[0].rationale or "")  # judged uncalibrated: no calibrator yet
    quick = [v for v in check.verdicts if v.verifier_id.endswith(":quick_verify")]
    assert [(v.judged, v.verdict) for v in quick] == [("answer", "reject")]


async def test_erase_leaves_nothing(live: httpx.AsyncClient, services: Resources) -> None:
    secret = f"Erase-Check-{uuid.uuid4().hex[:8]}"
    problem = f"{secret}: Tom has 18 apples and gives away 6. How many are left?"
    steps = [f"{secret} starts with 18.", "18 - 6 = 11"]
    created = await live.post(
        "/v1/checks", json={"problem": problem, "answer": "11", "steps": steps}
    )
    assert created.status_code == 200, created.text
    check_id = created.json()["check_id"]
    found = set(await rows_mentioning(services, secret))
    assert "checks" in found and found <= {"checks", "check_verdicts"}
    assert (await live.delete(f"/v1/checks/{check_id}")).status_code == 204
    assert await rows_mentioning(services, secret) == []
    async with services.sessionmaker() as session:
        left = await session.scalar(
            select(func.count())
            .select_from(CheckVerdict)
            .where(CheckVerdict.check_id == uuid.UUID(check_id))
        )
    assert left == 0
    again = await live.delete(f"/v1/checks/{check_id}")
    assert again.status_code == 404 and again.json()["error"]["code"] == "not_found"
    bad = await live.delete("/v1/checks/not-a-uuid")
    assert bad.status_code == 422


# ------------------------------------------------------------------ tenants


@pytest.fixture(scope="module")
async def secured(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[FastAPI]:
    path: Path = tmp_path_factory.mktemp("checks") / "checks.db"
    settings = settings_for(f"sqlite+aiosqlite:///{path}").model_copy(
        update={
            "auth": AuthSettings(required=True, key_cache_s=0),
            "retrieval": RetrievalSettings(load_on_start=False),
        }
    )
    application = create_app(settings)
    async with LifespanManager(application, startup_timeout=120, shutdown_timeout=60):
        yield application


async def bearer(app: FastAPI, tenant: str) -> dict[str, str]:
    services: Resources = app.state.services
    key = new_key()
    async with services.sessionmaker() as session:
        ApiKeyRepository(session).add(key, tenant=tenant, role="student")
        await session.commit()
    return {"Authorization": f"Bearer {key.key}"}


async def test_checks_belong_to_their_tenant(secured: FastAPI) -> None:
    alice, bob = await bearer(secured, "school-a"), await bearer(secured, "school-b")
    transport = httpx.ASGITransport(app=secured)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        assert (await http.delete(f"/v1/checks/{uuid.uuid4()}")).status_code == 401
        created = await http.post(
            "/v1/checks",
            json={"problem": LINEAR, "answer": "-14", "steps": ["-4x = 8", "x = -2"]},
            headers=alice,
        )
        assert created.status_code == 200, created.text
        check_id = created.json()["check_id"]
        services: Resources = secured.state.services
        async with services.sessionmaker() as session:
            assert await CheckRepository(session).get(uuid.UUID(check_id), "school-b") is None
            mine = await CheckRepository(session).get(uuid.UUID(check_id), "school-a")
            assert mine is not None and mine.tenant == "school-a"
        other = await http.delete(f"/v1/checks/{check_id}", headers=bob)
        assert other.status_code == 404  # another tenant's check does not exist for bob
        assert (await http.delete(f"/v1/checks/{check_id}", headers=alice)).status_code == 204
        async with services.sessionmaker() as session:
            assert await CheckRepository(session).get(uuid.UUID(check_id), "school-a") is None


async def test_the_service_loads_the_critique_calibrator_beside_the_answers(
    services: Resources, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`bench steps --fit-calibration` writes step_critique_calibration.json beside
    calibration.json; the upkeep loop's reload picks it up (and a refit again)."""
    from dataclasses import replace

    from app.resources import reload_calibration
    from app.verification.calibration import Calibrator
    from app.verification.calibration_files import (
        STEP_CALIBRATION_FILE,
        CalibrationFiles,
        step_calibration_path,
    )

    verify = services.settings.verify.model_copy(
        update={"calibration_path": tmp_path / "calibration.json"}
    )
    calibration = CalibrationFiles(verify)
    # restored after the test
    monkeypatch.setattr(services, "pipeline", replace(services.pipeline, calibration=calibration))
    path = step_calibration_path(verify)
    assert path == tmp_path / STEP_CALIBRATION_FILE
    assert not reload_calibration(services)  # nothing fitted yet: nothing changes
    fitted = Calibrator(features=["step_critique_confidence"], weights=[4.0], bias=-2.0,
                        threshold=0.8, target_precision=0.9)  # fmt: skip
    fitted.save(path)
    assert reload_calibration(services)
    assert services.pipeline.step_calibrator == fitted and services.pipeline.calibrator is None
    assert not reload_calibration(services)  # the same file: no change
