"""The hand-written baseline `bench perf` measures the service against: the essential work of
a text scan, and nothing else, behind a plain Starlette route.

POST /v1/scans makes the same four model calls through the same official SDKs and transport
as the service (app/llm/providers: one client per process on aiohttp, raw replies parsed as
JSON): ANALYZE's labels, then SOLVE followed by QUICK_VERIFY while ENRICH's labels overlap
them; the critical path is 3L, as the service's. It then writes the scan's rows to Postgres in
one transaction with asyncpg — as many rows per table as a service scan writes on its request
path (a scan, its solution, two verdicts, seven progress events, two outbox jobs: counted in
Postgres's statement log on a real `serve` run) — and answers 201 with the answer. No
LangGraph, no ORM, no middleware, no auth, no rate limits, no retries.

It runs under uvicorn with the same number of processes as the service it is compared with
(`python -m uvicorn solveverify_bench.perf.baseline_server:app --workers N`), and `bench perf` reads
its CPU time from /proc for its whole process tree exactly as it reads the service's.
Configuration comes from the environment: SOLVEVERIFY_BASELINE_FAKE_URL (the fake provider)
and SOLVEVERIFY_BASELINE_DSN (a Postgres database whose tables `create_tables` made).
"""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

FAKE_ENV = "SOLVEVERIFY_BASELINE_FAKE_URL"
DSN_ENV = "SOLVEVERIFY_BASELINE_DSN"

# Rows a service scan writes in its request's transaction, per table (a real `serve` on
# Postgres, fake providers, Redis queue; log_statement=all over 20 scans: scans 1, solutions 1,
# verifications 2, scan_events 7, outbox 2.15 on average).
VERDICTS, EVENTS, OUTBOX = 2, 7, 2

TABLES = """
CREATE TABLE IF NOT EXISTS baseline_scans (
    id uuid PRIMARY KEY, problem text NOT NULL, status text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS baseline_solutions (
    id uuid PRIMARY KEY, scan_id uuid NOT NULL REFERENCES baseline_scans(id),
    final_answer text, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS baseline_verdicts (
    id uuid PRIMARY KEY, solution_id uuid NOT NULL REFERENCES baseline_solutions(id),
    verdict text NOT NULL, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS baseline_events (
    id bigserial PRIMARY KEY, scan_id uuid NOT NULL REFERENCES baseline_scans(id),
    kind text NOT NULL, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS baseline_outbox (
    id uuid PRIMARY KEY, kind text NOT NULL, body jsonb NOT NULL,
    available_at timestamptz NOT NULL DEFAULT now());
CREATE INDEX IF NOT EXISTS baseline_solutions_scan ON baseline_solutions (scan_id);
CREATE INDEX IF NOT EXISTS baseline_verdicts_solution ON baseline_verdicts (solution_id);
CREATE INDEX IF NOT EXISTS baseline_events_scan ON baseline_events (scan_id);
CREATE INDEX IF NOT EXISTS baseline_outbox_available ON baseline_outbox (available_at);
"""


def plain_dsn(url: str) -> str:
    """asyncpg's DSN from a SQLAlchemy URL (postgresql+asyncpg://… → postgresql://…)."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def create_tables(url: str) -> None:
    """Made once before the server starts (its processes would race on CREATE TABLE)."""
    import asyncpg

    connection = await asyncpg.connect(plain_dsn(url))
    try:
        await connection.execute(TABLES)
    finally:
        await connection.close()


class Baseline:
    """One process's SDK clients and connection pool."""

    def __init__(self, fake_url: str, dsn: str) -> None:
        from app.llm.providers.anthropic import sdk_client as anthropic_sdk
        from app.llm.providers.openai import sdk_client as openai_sdk

        self.anthropic = anthropic_sdk("bench", fake_url)
        self.openai = openai_sdk("bench", f"{fake_url}/v1")
        self.dsn = dsn
        self.pool: Any = None

    async def open(self) -> None:
        import asyncpg

        self.pool = await asyncpg.create_pool(plain_dsn(self.dsn), min_size=1, max_size=10)

    async def close(self) -> None:
        await self.anthropic.close()
        await self.openai.close()
        if self.pool is not None:
            await self.pool.close()

    async def claude(self, messages: list[Any], max_tokens: int) -> dict[str, Any]:
        reply = await self.anthropic.messages.with_raw_response.create(
            model="claude-haiku-4-5",
            max_tokens=max_tokens,
            system=messages[0].content,
            messages=[{"role": "user", "content": m.content} for m in messages[1:]],
        )
        body = json.loads(await reply.read())
        parsed: dict[str, Any] = json.loads(body["content"][0]["text"])
        return parsed

    async def check(self, problem: str, answer: str) -> dict[str, Any]:
        from app.pipeline.prompts import quick_verify

        messages = quick_verify.build(problem, answer, "", "en")
        reply = await self.openai.chat.completions.with_raw_response.create(
            model="gpt-4o-mini",
            messages=[
                {"role": "system", "content": messages[0].content},
                {"role": "user", "content": messages[-1].content},
            ],
            response_format={"type": "json_object"},
        )
        body = json.loads(reply.content)
        parsed: dict[str, Any] = json.loads(body["choices"][0]["message"]["content"] or "{}")
        return parsed

    async def scan(self, problem: str) -> dict[str, Any]:
        from app.pipeline.prompts import analyze, enrich, solve

        labels = await self.claude(analyze.build(problem, "en"), 256)

        async def solve_and_check() -> tuple[dict[str, Any], dict[str, Any]]:
            solution = await self.claude(solve.build(problem, "en"), 1024)
            return solution, await self.check(problem, str(solution.get("final_answer", "")))

        (solution, checked), enriched = await asyncio.gather(
            solve_and_check(),
            self.claude(enrich.build(problem, "en", "math", "primary"), 256),
        )
        status = "verified" if checked.get("is_correct") is True else "unverified"
        scan_id = await self.store(problem, status, labels, solution, checked, enriched)
        return {
            "id": str(scan_id),
            "final_answer": solution.get("final_answer"),
            "verification_status": status,
        }

    async def store(
        self,
        problem: str,
        status: str,
        labels: dict[str, Any],
        solution: dict[str, Any],
        checked: dict[str, Any],
        enriched: dict[str, Any],
    ) -> uuid.UUID:
        """The scan's rows in one transaction, one statement per table."""
        scan_id, solution_id = uuid.uuid4(), uuid.uuid4()
        verdict = json.dumps(checked)
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute(
                "INSERT INTO baseline_scans (id, problem, status) VALUES ($1, $2, $3)",
                scan_id,
                problem,
                status,
            )
            await connection.execute(
                "INSERT INTO baseline_solutions (id, scan_id, final_answer, body) "
                "VALUES ($1, $2, $3, $4::jsonb)",
                solution_id,
                scan_id,
                str(solution.get("final_answer", "")),
                json.dumps(solution),
            )
            await connection.executemany(
                "INSERT INTO baseline_verdicts (id, solution_id, verdict, body) "
                "VALUES ($1, $2, $3, $4::jsonb)",
                [(uuid.uuid4(), solution_id, status, verdict) for _ in range(VERDICTS)],
            )
            events = [labels, enriched, solution, checked]
            await connection.executemany(
                "INSERT INTO baseline_events (scan_id, kind, body) VALUES ($1, $2, $3::jsonb)",
                [
                    (scan_id, f"event-{i}", json.dumps(events[i % len(events)]))
                    for i in range(EVENTS)
                ],
            )
            await connection.executemany(
                "INSERT INTO baseline_outbox (id, kind, body) VALUES ($1, $2, $3::jsonb)",
                [
                    (uuid.uuid4(), f"job-{i}", json.dumps({"scan_id": str(scan_id)}))
                    for i in range(OUTBOX)
                ],
            )
        return scan_id


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    baseline = Baseline(os.environ[FAKE_ENV], os.environ[DSN_ENV])
    await baseline.open()
    app.state.baseline = baseline
    try:
        yield
    finally:
        await baseline.close()


async def post_scan(request: Request) -> Response:
    body = await request.json()
    result = await request.app.state.baseline.scan(str(body["text"]))
    return JSONResponse(result, status_code=201)


async def ready(_: Request) -> Response:
    return PlainTextResponse("ok")


app = Starlette(
    routes=[Route("/v1/scans", post_scan, methods=["POST"]), Route("/readyz", ready)],
    lifespan=lifespan,
)
