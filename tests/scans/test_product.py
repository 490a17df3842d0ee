"""The API as a product: async scans, SSE, idempotency, history, erase, CORS, localization.

These tests commit for real (no rolled-back session): background jobs and SSE readers use
their own connections, as in production."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from app.db.transaction import retry_when_locked
from app.resources import Resources
from tests.fixtures.polling import until_final


def _parse_sse(text: str) -> list[tuple[int | None, str, str]]:
    events: list[tuple[int | None, str, str]] = []
    for block in text.strip().split("\n\n"):
        fields = dict(
            line.split(": ", 1) for line in block.splitlines() if not line.startswith(":")
        )
        if fields:
            event_id = int(fields["id"]) if "id" in fields else None
            events.append((event_id, fields["event"], fields["data"]))
    return events


async def test_async_scan_then_events_in_order_and_resume(live: httpx.AsyncClient) -> None:
    response = await live.post(
        "/v1/scans",
        json={"text": "Solve 2x + 3 = 11", "user_id": "u-async"},
        headers={"Prefer": "respond-async"},
    )
    assert response.status_code == 202, response.text
    body = response.json()
    assert body["state"] == "queued"
    assert response.headers["location"] == f"/v1/scans/{body['scan_id']}"
    scan = await until_final(live, response.headers["location"])
    assert scan["state"] == "done" and scan["solution"]["final_answer"] == "x = 4"

    stream = await live.get(f"/v1/scans/{body['scan_id']}/events")
    assert stream.headers["content-type"].startswith("text/event-stream")
    events = _parse_sse(stream.text)
    kinds = [kind for _, kind, _ in events]
    nodes = ["ocr", "analyze", "retrieve", "solve", "quick_verify", "enrich"]
    assert kinds == [*nodes, "done", "settled"]
    assert [seq for seq, _, _ in events] == [*range(1, 8), None]
    assert json.loads(events[-1][2]) == {
        "final_answer": "x = 4",
        "verification_status": "verified",
        "verification_confidence": scan["solution"]["verification_confidence"],
    }
    resumed = await live.get(f"/v1/scans/{body['scan_id']}/events", headers={"Last-Event-ID": "5"})
    assert [kind for _, kind, _ in _parse_sse(resumed.text)] == ["enrich", "done", "settled"]


async def test_status_changes_are_streamed(live: httpx.AsyncClient, services: Resources) -> None:
    from app.db.models import Solution

    body = (await live.post("/v1/scans", json={"text": "Solve 2x + 3 = 11"})).json()

    async def write() -> None:  # a read, then a write, beside the scan's follow-ups on SQLite
        async with services.sessionmaker() as session:
            solution = await session.get(Solution, uuid.UUID(body["solution_id"]))
            assert solution is not None
            solution.status_history = [
                {
                    "at": "2026-11-21T13:05:00+00:00",
                    "from": "verified",
                    "to": "caution",
                    "reason": "a later check disagreed",
                    "evidence_ids": [],
                }
            ]
            await session.commit()

    await retry_when_locked(write)
    events = _parse_sse((await live.get(f"/v1/scans/{body['scan_id']}/events")).text)
    assert [k for _, k, _ in events][-3:] == ["done", "status_changed", "settled"]
    detail = (await live.get(f"/v1/solutions/{body['solution_id']}")).json()
    assert detail["status_history"][0]["to"] == "caution"


async def test_sync_deadline_answers_202_and_completes(
    live: httpx.AsyncClient, services: Resources, monkeypatch
) -> None:
    monkeypatch.setattr(services.settings.api, "sync_deadline_s", 0.0)
    response = await live.post("/v1/scans", json={"text": "Solve 3x = 12"})
    assert response.status_code == 202
    scan = await until_final(live, response.headers["location"])
    assert scan["solution"]["final_answer"] == "x = 4"


async def test_a_scan_past_the_deadline_is_finished_by_the_same_run(
    live: httpx.AsyncClient, services: Resources, monkeypatch, with_clients
) -> None:
    """Past the deadline the scan was queued and solved again from scratch: every model call
    paid twice, the answer twice as late (an independent tester). Now the run goes on: one
    call, its events in order once, and the backstop job finds the scan done."""
    from sqlalchemy import select

    from app.db.models import OutboxMessage
    from app.scans.jobs import run_queued_scan
    from tests.fixtures.providers import solution_json, verdict_json, verifier
    from tests.fixtures.scripted import ScriptedClient

    slow = ScriptedClient(
        "slow", [solution_json("86")], capabilities=frozenset({"solve"}), delay_s=1.0
    )
    with_clients(slow, verifier("judge", verdict_json(True, 0.95, "86")), symbolic=False)
    monkeypatch.setattr(services.settings.api, "sync_deadline_s", 0.3)
    text = "A baker fills 7 trays with 13 muffins each and sells all but 5. How many sold?"
    response = await live.post("/v1/scans", json={"text": text})
    assert response.status_code == 202, response.text
    assert response.json()["state"] == "running"
    scan = await until_final(live, response.headers["location"])
    assert scan["state"] == "done" and scan["solution"]["final_answer"] == "86"
    assert len(slow.calls) == 1  # never solved again
    events = _parse_sse((await live.get(f"{response.headers['location']}/events")).text)
    ids = [seq for seq, _, _ in events if seq is not None]
    kinds = [kind for _, kind, _ in events]
    assert ids == list(range(1, len(ids) + 1)), events
    assert kinds.count("solve") == 1 and kinds[-2:] == ["done", "settled"]
    async with services.sessionmaker() as session:
        job = await session.scalar(
            select(OutboxMessage).where(OutboxMessage.job_id == f"run_scan:{scan['id']}")
        )
    assert job is not None
    due = job.available_at.replace(tzinfo=job.available_at.tzinfo or UTC)  # SQLite: naive UTC
    assert due > datetime.now(UTC) + timedelta(seconds=60)
    backstop = await run_queued_scan(
        services, services.graph, services.pipeline, services.sessionmaker, uuid.UUID(scan["id"])
    )
    assert backstop == "nothing to do"


async def test_idempotent_replay_conflict_and_concurrent_duplicates(
    live: httpx.AsyncClient,
) -> None:
    key = uuid.uuid4().hex
    payload = {"text": "Solve 5x - 5 = 20"}
    first, second = await asyncio.gather(
        live.post("/v1/scans", json=payload, headers={"Idempotency-Key": key}),
        live.post("/v1/scans", json=payload, headers={"Idempotency-Key": key}),
    )
    assert first.status_code == second.status_code == 201, (first.text, second.text)
    assert first.json()["scan_id"] == second.json()["scan_id"]
    assert {
        first.headers.get("idempotent-replayed"),
        second.headers.get("idempotent-replayed"),
    } == {
        None,
        "true",
    }
    other = await live.post(
        "/v1/scans", json={"text": "1 + 1 = ?"}, headers={"Idempotency-Key": key}
    )
    assert other.status_code == 409 and other.json()["error"]["code"] == "idempotency_key_reused"


async def test_history_is_stable_under_inserts_and_erase_cascades(
    live: httpx.AsyncClient,
) -> None:
    user = f"u-{uuid.uuid4().hex[:8]}"
    ids = []
    for n in range(5):
        body = (await live.post("/v1/scans", json={"text": f"{n} + 1 = ?", "user_id": user})).json()
        ids.append(body["scan_id"])
    page1 = (await live.get("/v1/scans", params={"user_id": user, "limit": 2})).json()
    assert [s["id"] for s in page1["items"]] == ids[::-1][:2]
    # A new scan arrives between pages: the next page is unaffected (keyset cursor).
    await live.post("/v1/scans", json={"text": "9 + 9 = ?", "user_id": user})
    page2 = (
        await live.get(
            "/v1/scans", params={"user_id": user, "limit": 2, "cursor": page1["next_cursor"]}
        )
    ).json()
    assert [s["id"] for s in page2["items"]] == ids[::-1][2:4]

    assert (await live.delete(f"/v1/scans/{ids[0]}")).status_code == 204
    assert (await live.get(f"/v1/scans/{ids[0]}")).status_code == 404
    assert (await live.delete(f"/v1/scans/{ids[0]}")).status_code == 404


async def test_erase_removes_every_row(live: httpx.AsyncClient, services: Resources) -> None:
    from sqlalchemy import func, select

    from app.db.models import ScanEvent, Solution, VerificationRecord

    body = (await live.post("/v1/scans", json={"text": "Solve 2x + 3 = 11"})).json()
    assert (await live.delete(f"/v1/scans/{body['scan_id']}")).status_code == 204
    async with services.sessionmaker() as session:
        for table, column in (
            (Solution, Solution.scan_id),
            (ScanEvent, ScanEvent.scan_id),
        ):
            count = await session.scalar(
                select(func.count()).select_from(table).where(column == uuid.UUID(body["scan_id"]))
            )
            assert count == 0
        verdicts = await session.scalar(
            select(func.count())
            .select_from(VerificationRecord)
            .where(VerificationRecord.solution_id == uuid.UUID(body["solution_id"]))
        )
        assert verdicts == 0


async def test_unknown_field_and_subject_are_422_naming_them(live: httpx.AsyncClient) -> None:
    response = await live.post("/v1/scans", json={"text": "1 + 1 = ?", "colour": "red"})
    assert response.status_code == 422
    assert response.json()["error"]["details"][0]["field"] == "colour"
    response = await live.post("/v1/scans", json={"text": "1 + 1 = ?", "subject": "astrology"})
    assert response.status_code == 422
    assert response.json()["error"]["details"][0]["field"] == "subject"


async def test_chinese_scan_gets_chinese_steps_and_reasons(live: httpx.AsyncClient) -> None:
    body = (await live.post("/v1/scans", json={"text": "解方程 2x + 3 = 11"})).json()
    assert body["language"] == "zh"
    assert body["steps"][0]["description"] == "写出方程"
    assert body["knowledge_points"] == ["一元一次方程"]
    assert "未知数" in body["hint"]
    word = "小明有 12 个苹果，分给 3 个同学后还剩下几个苹果？请说明理由"
    unsolved = (await live.post("/v1/scans", json={"text": word})).json()
    assert unsolved["caution_reason"]["code"] == "no_answer"
    assert "暂时无法" in unsolved["caution_reason"]["message"]


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("A car accelerates from rest at 3 m/s² for 4 s. How fast is it going?", "Linear"),
        ("一辆汽车以 2 m/s² 的加速度从静止开始运动，求 t^2 秒后的速度。", "一元二次方程"),
        ("A right triangle has legs 3 and 4. How long is the hypotenuse?", "Work brackets"),
    ],
)
async def test_labels_abstain_rather_than_guess(
    live: httpx.AsyncClient, text: str, wrong: str
) -> None:
    body = (await live.post("/v1/scans", json={"text": text})).json()
    assert not any(wrong in k for k in body["knowledge_points"])
    assert wrong not in (body["hint"] or "")


async def test_cors_preflight(database_url: str) -> None:
    from asgi_lifespan import LifespanManager

    from app.main import create_app
    from tests.conftest import settings_for

    settings = settings_for(database_url)
    settings.api.cors_origins = ["https://app.example.com"]
    settings.retrieval.load_on_start = False
    application = create_app(settings)
    async with LifespanManager(application, startup_timeout=120):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            response = await http.options(
                "/v1/scans",
                headers={
                    "Origin": "https://app.example.com",
                    "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "content-type,idempotency-key",
                },
            )
            assert response.status_code == 200
            assert response.headers["access-control-allow-origin"] == "https://app.example.com"
            refused = await http.options(
                "/v1/scans",
                headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
            )
            assert "access-control-allow-origin" not in refused.headers


async def test_a_scan_reads_back_as_it_was_answered(live: httpx.AsyncClient) -> None:
    """GET shows what POST answered, times included: UTC with its zone on either database
    (SQLite stores times without one: an adversarial tester's find)."""
    posted = (await live.post("/v1/scans", json={"text": "Solve 3x - 1 = 8"})).json()
    got = (await live.get(f"/v1/scans/{posted['scan_id']}")).json()
    solution = (await live.get(f"/v1/solutions/{posted['solution_id']}")).json()
    for body in (posted, got, solution):
        assert datetime.fromisoformat(body["created_at"]).utcoffset() == timedelta(0)
    assert datetime.fromisoformat(solution["created_at"]) == datetime.fromisoformat(
        posted["created_at"]
    )
    assert got["solution"] == posted  # the stored solution is the answer that was sent


async def test_a_later_answer_change_is_streamed_before_the_stream_settles(
    live: httpx.AsyncClient, services: Resources
) -> None:
    """While a follow-up job about the solution is owed the stream stays open; the change it
    makes arrives with the new answer, badge and confidence; then `settled` ends the stream."""
    from app.db.models import OutboxMessage, Solution
    from app.db.repositories.outbox import OutboxRepository
    from app.solutions.status_repository import StatusRepository

    body = (await live.post("/v1/scans", json={"text": "Solve 2x + 3 = 11"})).json()
    solution_id = uuid.UUID(body["solution_id"])
    held = f"deep_evaluate:{solution_id}:held-by-test"  # deferred: not due for an hour
    async with services.sessionmaker() as session:
        session.add(
            OutboxMessage(
                task="deep_evaluate",
                args=[str(solution_id)],
                job_id=held,
                available_at=datetime.now(UTC) + timedelta(hours=1),
            )
        )
        await session.commit()

    stream = asyncio.create_task(live.get(f"/v1/scans/{body['scan_id']}/events"))
    await asyncio.sleep(1.5)  # five quiet periods of the live fixture
    assert not stream.done(), "the stream settled while a follow-up job was owed"

    async with services.sessionmaker() as session:
        solution = await session.get(Solution, solution_id)
        assert solution is not None
        solution.final_answer, solution.verification_confidence = "x = 5", 0.31
        moved = await StatusRepository(session).change_status(
            solution_id,
            solution.verification_status,  # same badge: the answer alone changed
            reason="a second chance replaced the answer",
            evidence_ids=[],
            answer_before="x = 4",
        )
        assert moved
        await OutboxRepository(session).mark_completed(held, datetime.now(UTC))
        await session.commit()

    events = _parse_sse((await asyncio.wait_for(stream, 30)).text)
    assert [kind for _, kind, _ in events][-3:] == ["done", "status_changed", "settled"]
    change = json.loads(events[-2][2])
    assert (change["answer"], change["answer_changed"], change["confidence"]) == (
        "x = 5",
        True,
        0.31,
    )
    assert change["reason"] == "a second chance replaced the answer"
    assert json.loads(events[-1][2])["final_answer"] == "x = 5"
    detail = (await live.get(f"/v1/solutions/{body['solution_id']}")).json()
    assert detail["final_answer"] == "x = 5"
    assert detail["status_history"][0]["answer"] == "x = 5"
    assert detail["status_history"][0]["confidence"] == 0.31


async def test_the_students_reason_follows_the_badge_a_later_check_moves(
    live: httpx.AsyncClient, services: Resources
) -> None:
    """A caution a later check moved to unverified still told the student the answer failed
    verification (an independent tester)."""
    from app.solutions.status_repository import StatusRepository

    body = (await live.post("/v1/scans", json={"text": "Solve 2x + 3 = 11"})).json()
    assert body["verification_status"] == "verified" and body["caution_reason"] is None
    solution_id = uuid.UUID(body["solution_id"])
    for to, code in (("caution", "failed_verification"), ("unverified", "not_verified")):

        async def write(to: str = to) -> None:  # beside the scan's follow-ups on SQLite
            async with services.sessionmaker() as session:
                repository = StatusRepository(session)
                assert await repository.change_status(solution_id, to, reason="t", evidence_ids=[])
                await session.commit()

        await retry_when_locked(write)
        scan = (await live.get(f"/v1/scans/{body['scan_id']}")).json()
        assert scan["solution"]["verification_status"] == to
        assert scan["solution"]["caution_reason"]["code"] == code, to
