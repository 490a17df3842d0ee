"""Erase is complete and idempotency claims lapse (issue 26, findings 4 and 5), on SQLite and
Postgres with the app committing for real:

- DELETE of a scan removes the Idempotency-Key records that hold its response: replaying the
  key runs the request again instead of returning the erased text, and no table or view holds
  the text afterwards;
- a claim whose request died before it could release it (the database failed in between) does
  not answer 409 for the key's whole TTL: it lapses after `idempotency_claim_s`.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass

import httpx
import pytest
from sqlalchemy import inspect, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import IdempotencyKey
from app.idempotency import service as idempotency
from app.resources import Resources
from app.settings import Settings


async def rows_mentioning(services: Resources, needle: str) -> list[str]:
    """Every table and view whose rows (as text) contain `needle`."""
    async with services.engine.connect() as connection:
        names = await connection.run_sync(
            lambda sync: [*inspect(sync).get_table_names(), *inspect(sync).get_view_names()]
        )
        found = []
        for name in names:
            rows = (await connection.execute(text(f'SELECT * FROM "{name}"'))).all()
            found += [name for row in rows if needle in repr(tuple(row))]
        return found


async def test_erase_removes_the_idempotent_replay(
    live: httpx.AsyncClient, services: Resources
) -> None:
    secret = f"Erase-Me-{uuid.uuid4().hex[:8]}"
    payload = {"text": f"{secret}: solve 2x + 3 = 11"}
    key = {"Idempotency-Key": uuid.uuid4().hex}
    first = await live.post("/v1/scans", json=payload, headers=key)
    assert first.status_code == 201, first.text
    scan_id = first.json()["scan_id"]
    replay = await live.post("/v1/scans", json=payload, headers=key)
    assert replay.headers.get("idempotent-replayed") == "true"  # the record exists before

    assert (await live.delete(f"/v1/scans/{scan_id}")).status_code == 204
    assert await rows_mentioning(services, secret) == []
    async with services.sessionmaker() as session:
        left = await session.scalar(
            select(IdempotencyKey).where(IdempotencyKey.key == key["Idempotency-Key"])
        )
    assert left is None

    again = await live.post("/v1/scans", json=payload, headers=key)
    assert again.status_code == 201 and "idempotent-replayed" not in again.headers
    assert again.json()["scan_id"] != scan_id  # run anew, not the erased scan
    assert (await live.delete(f"/v1/scans/{again.json()['scan_id']}")).status_code == 204


async def test_erase_keeps_other_scans_replays(live: httpx.AsyncClient) -> None:
    kept_key = {"Idempotency-Key": uuid.uuid4().hex}
    kept = await live.post("/v1/scans", json={"text": "3 + 4 = ?"}, headers=kept_key)
    erased = await live.post(
        "/v1/scans", json={"text": "5 + 6 = ?"}, headers={"Idempotency-Key": uuid.uuid4().hex}
    )
    assert (await live.delete(f"/v1/scans/{erased.json()['scan_id']}")).status_code == 204
    replay = await live.post("/v1/scans", json={"text": "3 + 4 = ?"}, headers=kept_key)
    assert replay.headers.get("idempotent-replayed") == "true"
    assert replay.json()["scan_id"] == kept.json()["scan_id"]


async def test_a_claim_left_by_a_dead_request_lapses(
    live: httpx.AsyncClient, services: Resources, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services.settings.api, "idempotency_claim_s", 3.0)
    monkeypatch.setattr(services.settings.api, "idempotency_wait_s", 0.3)
    payload = {"text": "Solve 4x = 8"}
    key = uuid.uuid4().hex
    request = await live.post("/v1/scans", json=payload, headers={"Idempotency-Key": key})
    assert request.status_code == 201
    # The state a failed release leaves: a claim committed, never completed nor deleted.
    # One UPDATE, no read first: on SQLite a read upgraded to a write fails at once ("database
    # is locked") when the in-process queue's jobs committed in between.
    async with services.sessionmaker() as session:
        reset = await session.execute(
            update(IdempotencyKey)
            .where(IdempotencyKey.key == key)
            .values(completed_at=None, status_code=None, response_body=None)
        )
        await session.commit()
    assert reset.rowcount == 1

    busy = await live.post("/v1/scans", json=payload, headers={"Idempotency-Key": key})
    assert busy.status_code == 409, busy.text  # within the claim time: still in use
    assert busy.json()["error"]["code"] == "idempotency_key_in_use"
    # When to ask again: before the claim lapses, never "now" (an independent tester: a 409
    # without Retry-After for up to 120 s)
    assert 1 <= int(busy.headers["retry-after"]) <= 3
    await asyncio.sleep(3.1)
    after = await live.post("/v1/scans", json=payload, headers={"Idempotency-Key": key})
    assert after.status_code == 201, after.text
    assert "idempotent-replayed" not in after.headers


async def test_a_failed_release_does_not_hide_the_requests_error(
    services: Resources, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken_sessionmaker() -> None:
        raise ConnectionRefusedError("database restarting")

    monkeypatch.setattr(services, "sessionmaker", broken_sessionmaker)
    with caplog.at_level(logging.WARNING, logger="app.idempotency.service"):
        await idempotency.release(services, "acme", "some-key")  # logged, not raised
    assert "lapses after its claim time" in caplog.text


async def test_a_key_not_released_while_the_database_is_away_logs_one_line(
    caplog, database_away: async_sessionmaker[AsyncSession]
) -> None:
    """The release runs after the request failed; with the database away (a real connection
    refused) it logs one warning without a stack (it wrote a full traceback each time)."""

    @dataclass
    class Store:
        sessionmaker: async_sessionmaker[AsyncSession]
        settings: Settings

    with caplog.at_level(logging.WARNING, logger="app.idempotency.service"):
        await idempotency.release(Store(database_away, Settings()), "t", "key-1")
    [record] = [r for r in caplog.records if "not released" in r.getMessage()]
    assert record.exc_info is None or record.exc_info is False
    assert record.getMessage().endswith(("ConnectionRefusedError", "OSError", "OperationalError"))
