"""Every Server-Sent Event the server writes has a schema (app/scans/event_schemas.py), OpenAPI maps
each event name to it, and a real stream's payloads validate against them."""

from __future__ import annotations

import ast
import asyncio
import json
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.db.transaction import retry_when_locked
from app.main import create_app
from app.pipeline.graph import build_graph
from app.resources import Resources
from app.scans.event_schemas import EVENT_SCHEMAS
from app.verification.calibration import Calibrator
from tests.fixtures.polling import until_final

APP = Path(__file__).resolve().parents[2] / "app"


def _parse_sse(text: str) -> list[tuple[str, Any]]:
    events: list[tuple[str, Any]] = []
    for block in text.strip().split("\n\n"):
        fields = dict(
            line.split(": ", 1) for line in block.splitlines() if not line.startswith(":")
        )
        if fields:
            events.append((fields["event"], json.loads(fields["data"])))
    return events


def written_event_names() -> set[str]:
    """The graph's nodes (each reported as it finishes) and every literal event name passed to
    the writers: `sse(id, kind, data)`, `EventWriter.append(kind, data)` and
    `ScanEventRepository.add(scan_id, seq, kind, data)`."""
    names = {name for name in build_graph().nodes if not name.startswith("__")}
    for path in (APP / "scans" / "event_endpoints.py", APP / "scans" / "jobs.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            position = {"sse": 1, "append": 0, "add": 2}.get(called or "")
            if position is None or len(node.args) <= position:
                continue
            argument = node.args[position]
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                names.add(argument.value)
    return names


def test_every_event_written_has_a_schema() -> None:
    names = written_event_names()
    assert {"ocr", "enrich", "done", "failed", "status_changed", "settled"} <= names
    assert names - set(EVENT_SCHEMAS) == set()


def test_openapi_maps_each_event_to_its_component() -> None:
    document = create_app().openapi()
    ok = document["paths"]["/v1/scans/{scan_id}/events"]["get"]["responses"]["200"]
    events = ok["x-events"]
    assert set(events) == set(EVENT_SCHEMAS)
    schemas = document["components"]["schemas"]
    for name, ref in events.items():
        component = ref["$ref"].removeprefix("#/components/schemas/")
        assert component == EVENT_SCHEMAS[name].__name__ and component in schemas


async def test_a_real_streams_payloads_validate(
    live: httpx.AsyncClient, services: Resources
) -> None:
    from app.db.models import Solution

    response = await live.post(
        "/v1/scans", json={"text": "Solve 2x + 3 = 11"}, headers={"Prefer": "respond-async"}
    )
    assert response.status_code == 202, response.text
    scan = await until_final(live, response.headers["location"])
    assert scan["state"] == "done"

    async def write() -> None:  # a read, then a write, beside the scan's follow-ups on SQLite
        async with services.sessionmaker() as session:
            solution = await session.get(Solution, uuid.UUID(scan["solution"]["solution_id"]))
            assert solution is not None
            solution.status_history = [
                {
                    "at": "2026-11-21T13:05:00+00:00",
                    "from": "verified",
                    "to": "caution",
                    "reason": "a later check disagreed",
                    "evidence_ids": ["12"],
                    "answer": "x = 4",
                    "answer_changed": False,
                    "confidence": 0.4,
                }
            ]
            await session.commit()

    await retry_when_locked(write)

    events = _parse_sse((await live.get(f"/v1/scans/{scan['id']}/events")).text)
    kinds = [kind for kind, _ in events]
    assert kinds == [
        "ocr",
        "analyze",
        "retrieve",
        "solve",
        "quick_verify",
        "enrich",
        "done",
        "status_changed",
        "settled",
    ]
    for kind, data in events:
        EVENT_SCHEMAS[kind].model_validate(data)


async def test_a_failed_streams_payload_validates(
    live: httpx.AsyncClient, services: Resources, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As tests/scans/test_scan_failures.py: a calibration that raises inside QUICK_VERIFY.
    broken = Calibrator(features=["approval_fraction", "programmatic"], weights=[1.0])
    jobs = services.queue.context.scans  # type: ignore[attr-defined]
    monkeypatch.setattr(jobs, "pipeline", replace(jobs.pipeline, calibrator=broken))
    response = await live.post(
        "/v1/scans", json={"text": "Solve 2x + 3 = 11"}, headers={"Prefer": "respond-async"}
    )
    assert response.status_code == 202, response.text
    await until_final(live, response.headers["location"])
    stream = await asyncio.wait_for(live.get(f"{response.headers['location']}/events"), 10)
    events = _parse_sse(stream.text)
    assert events[-1][0] == "failed"
    for kind, data in events:
        EVENT_SCHEMAS[kind].model_validate(data)
