"""Live-event stream slots are shared fairly (issue 26, finding 9), against a real `serve`
with auth on: one tenant holding its share of streams leaves the rest to the others, who are
served at once instead of a 503 for up to the streams' lifetime."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx

from tests.fixtures.processes import run_cli, serve, stop

PER_TENANT, TOTAL, LIFETIME_S = 2, 3, 4


async def test_one_tenant_cannot_hold_every_stream(tmp_path: Path) -> None:
    env = {
        "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'serve.db'}",
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        "SOLVEVERIFY_AUTH_REQUIRED": "true",
        "SOLVEVERIFY_API_EVENTS_MAX_STREAMS": str(TOTAL),
        "SOLVEVERIFY_API_EVENTS_MAX_STREAMS_PER_TENANT": str(PER_TENANT),
        "SOLVEVERIFY_API_EVENTS_MAX_LIFETIME_S": str(LIFETIME_S),
        "SOLVEVERIFY_API_EVENTS_QUIET_S": "600",  # streams stay open until their lifetime
    }
    keys = {}
    for tenant in ("hog", "fair", "late"):
        made = run_cli("keys", "create", "--tenant", tenant, cwd=tmp_path, env=env)
        assert made.returncode == 0, made.stderr
        keys[tenant] = {"Authorization": f"Bearer {made.stdout.strip()}"}
    process, base = serve(tmp_path, env)
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:

            async def stream_url(tenant: str) -> str:
                scan = await http.post(
                    "/v1/scans", json={"text": "1 + 2 = ?"}, headers=keys[tenant]
                )
                assert scan.status_code == 201, scan.text
                return f"/v1/scans/{scan.json()['scan_id']}/events"

            async def listen(tenant: str, url: str) -> int:
                async with http.stream("GET", url, headers=keys[tenant]) as stream:
                    async for _ in stream.aiter_bytes():
                        pass
                    return stream.status_code

            hog_url = await stream_url("hog")
            hogging = [asyncio.create_task(listen("hog", hog_url)) for _ in range(PER_TENANT)]
            await asyncio.sleep(1.0)
            refused = await http.get(hog_url, headers=keys["hog"])
            assert refused.status_code == 503, refused.text
            assert refused.json()["error"]["code"] == "too_many_streams"

            started = time.monotonic()
            fair = asyncio.create_task(listen("fair", await stream_url("fair")))
            await asyncio.sleep(1.0)
            # The process's total is still a bound: the third slot is taken by "fair".
            full = await http.get(await stream_url("late"), headers=keys["late"])
            assert full.status_code == 503
            assert await fair == 200
            assert time.monotonic() - started >= LIFETIME_S - 1  # it streamed, not refused
            assert await asyncio.gather(*hogging) == [200] * PER_TENANT
    finally:
        stop(process)
