"""An accepted photo that finds every OCR slot taken waits its turn: its job runs again and
the scan ends done, never `failed` (nothing accepted is lost)."""

from __future__ import annotations

import httpx
import pytest

from app.resources import Resources
from tests.fixtures.ocr_slots import occupy_ocr
from tests.fixtures.polling import until_final
from tests.hardening import images


async def test_a_queued_photo_waits_for_a_busy_ocr(
    live: httpx.AsyncClient, services: Resources, monkeypatch: pytest.MonkeyPatch
) -> None:
    busy = await occupy_ocr(services, monkeypatch, 1.5)
    response = await live.post(
        "/v1/scans",
        files={"image": ("p.png", images.problem_png(), "image/png")},
        headers={"Prefer": "respond-async"},
    )
    assert response.status_code == 202, response.text
    scan = await until_final(live, response.headers["location"])
    await busy
    assert scan["state"] == "done", scan
    assert scan["failure_code"] is None
