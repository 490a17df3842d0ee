"""Views over seeded data (SQLite and Postgres), routing from data, analytics JSON, dashboard."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from app.analytics import queries
from app.analytics.routing import best_provider_for, refresh_routing
from app.db.migrate import upgrade_async
from app.db.models import Scan, Solution, VerificationRecord
from app.db.session import open_sessionmaker
from app.llm.registry import build_registry
from app.settings import DatabaseSettings
from app.solutions.evaluation_schemas import DeepEvaluation
from tests.conftest import create_postgres_database, drop_postgres_database
from tests.fixtures.providers import solver


def evaluation(overall: float, suggestion: str) -> DeepEvaluation:
    return DeepEvaluation(
        correctness=overall,
        completeness=overall,
        clarity=overall,
        pedagogy=overall,
        format=overall,
        overall=overall,
        improvement_suggestions=suggestion,
    )


async def seed(
    session: AsyncSession,
    provider: str,
    subject: str,
    statuses: list[str],
    *,
    difficulty: str = "easy",
    overall: float | None = None,
    consensus: str | None = None,
    suggestion: str = "explain each step",
    tenant: str | None = None,
    rejected_first: str | None = None,
) -> None:
    """Solutions by `provider`, each with the quick verdict that gave its badge (approve when
    verified), optionally a consensus verdict and an earlier attempt by `rejected_first`
    that quick verification rejected (a retry: counted, never returned)."""
    for status in statuses:
        scan = Scan(
            tenant=tenant,
            source="text",
            problem_text="p",
            subject=subject,
            grade_band="primary",
            difficulty=difficulty,
            language="en",
            topics=[],
        )
        solution = Solution(
            scan=scan,
            provider=provider,
            model=f"{provider}-1",
            final_answer="1",
            verification_status=status,
            deep_evaluation=evaluation(overall, suggestion) if overall else None,
        )
        session.add_all([scan, solution])
        attempt = 1
        if rejected_first:
            session.add(verdict(solution, "quick", rejected_first, "reject", attempt, "2"))
            attempt = 2
        kind = "approve" if status == "verified" else "reject"
        session.add(verdict(solution, "quick", provider, kind, attempt, "1"))
        if consensus:
            session.add(verdict(solution, "consensus", provider, consensus, attempt, "1"))
    await session.flush()


def verdict(
    solution: Solution, tier: str, provider: str, kind: str, attempt: int, answer: str
) -> VerificationRecord:
    return VerificationRecord(
        solution=solution,
        tier=tier,
        attempt=attempt,
        answer_provider=provider,
        answer_model=f"{provider}-1",
        answer=answer,
        method="llm",
        verifier_id=f"{tier}:judge",
        verdict=kind,
    )


async def test_views_aggregate_the_seeded_rows(session: AsyncSession) -> None:
    await seed(
        session,
        "alpha",
        "physics",
        ["verified", "verified", "caution", "unverified"],
        overall=0.8,
        consensus="approve",
    )
    await seed(
        session,
        "beta",
        "physics",
        ["verified", "caution"],
        difficulty="hard",
        overall=0.6,
        consensus="reject",
        suggestion="show units",
    )
    rows = {r["provider"]: r for r in await queries.accuracy(session) if r["subject"] == "physics"}
    alpha = rows["alpha"]
    assert (alpha["attempts"], alpha["returned"], alpha["model"]) == (4, 4, "alpha-1")
    assert alpha["verified_rate"] == pytest.approx(0.5)
    assert alpha["caution_rate"] == pytest.approx(0.25)
    assert alpha["quick_approve_rate"] == pytest.approx(0.5)
    assert alpha["consensus_agreement_rate"] == pytest.approx(1.0)
    assert (alpha["verdicts"], alpha["consensus_checked"]) == (8, 4)
    assert rows["beta"]["consensus_agreement_rate"] == pytest.approx(0.0)
    # rates are floats on both backends (double precision), never numeric strings
    assert all(isinstance(alpha[k], float) for k in ("verified_rate", "approve_rate"))
    by_difficulty = {
        (r["provider"], r["difficulty"]) for r in await queries.accuracy(session, "difficulty")
    }
    assert {("alpha", "easy"), ("beta", "hard")} <= by_difficulty
    trend = await queries.daily_trend(session)
    assert trend[-1]["n"] >= 6
    top = await queries.suggestions(session)
    counts = {s["suggestion"]: s["n"] for s in top}
    assert counts["explain each step"] >= 4 and counts["show units"] >= 2


async def test_every_attempt_counts_per_tenant(session: AsyncSession) -> None:
    # gamma's first attempts were rejected and retried on delta: gamma's attempts still count
    await seed(session, "delta", "geometry", ["verified"] * 3, tenant="t1", rejected_first="gamma")
    await seed(session, "delta", "geometry", ["caution"], tenant="t2")
    rows = {
        (r["tenant"], r["provider"]): r
        for r in await queries.accuracy(session)
        if r["subject"] == "geometry"
    }
    gamma = rows[("t1", "gamma")]
    assert (gamma["attempts"], gamma["returned"], gamma["quick_rejections"]) == (3, 0, 3)
    assert gamma["verified_rate"] is None and gamma["quick_approve_rate"] == pytest.approx(0.0)
    assert rows[("t1", "delta")]["verified_rate"] == pytest.approx(1.0)
    assert rows[("t2", "delta")]["verified_rate"] == pytest.approx(0.0)
    only_t2 = await queries.accuracy(session, tenant="t2")
    assert {(r["tenant"], r["provider"]) for r in only_t2} == {("t2", "delta")}


async def test_routing_follows_the_data(session: AsyncSession, services) -> None:
    registry = build_registry(["slow_a", "good_b"], [solver("slow_a", "1"), solver("good_b", "1")])
    assert registry.route("chemistry")[0] == "slow_a"  # static order first
    await seed(session, "slow_a", "chemistry", ["caution"] * 4 + ["verified"])
    await seed(session, "good_b", "chemistry", ["verified"] * 5)
    assert await best_provider_for(session, "chemistry", min_samples=5) == "good_b"
    assert await best_provider_for(session, "chemistry", min_samples=50) is None
    # the symbolic solver is no model: never ranked, however often it is approved
    await seed(session, "symbolic", "chemistry", ["verified"] * 9)
    assert await best_provider_for(session, "chemistry", min_samples=5) == "good_b"

    class Bound:  # the refresher opens its own sessions: hand it this transaction
        def __call__(self) -> AsyncSession:
            return self

        async def __aenter__(self) -> AsyncSession:
            return session

        async def __aexit__(self, *exc: object) -> None:
            return None

    table = await refresh_routing(Bound(), registry, min_samples=5)  # type: ignore[arg-type]
    assert table["chemistry"] == "good_b"
    assert registry.route("chemistry")[0] == "good_b"  # the data changed the route
    assert registry.route("biology")[0] == "slow_a"  # not enough data: static order


async def test_analytics_json_and_dashboard(client: httpx.AsyncClient, session) -> None:
    await seed(session, "alpha", "math", ["verified", "caution"], overall=0.9)
    accuracy = (await client.get("/v1/analytics/accuracy", params={"by": "subject"})).json()
    assert any(r["provider"] == "alpha" and r["attempts"] >= 2 for r in accuracy)
    assert all(isinstance(r["quick_approve_rate"], float | None) for r in accuracy)
    assert (await client.get("/v1/analytics/accuracy", params={"by": "grade"})).status_code == 422
    assert (await client.get("/v1/analytics/trend")).status_code == 200
    assert (await client.get("/v1/analytics/suggestions")).json()[0]["n"] >= 1
    routing = (await client.get("/v1/analytics/routing")).json()
    assert routing["min_samples"] == 500 and "symbolic" in routing["static_order"]
    html = (await client.get("/dashboard")).text
    assert html.count('class="bar"') >= 1 and 'class="line"' in html


@pytest.fixture
async def own_session(database_url: str, tmp_path: Path) -> AsyncIterator[AsyncSession]:
    """A database of its own, on this run's backend: the recalibration counts every labelled
    outcome, so rows other modules committed to the shared database must not be there."""
    sqlite = database_url.startswith("sqlite")
    url = (
        f"sqlite+aiosqlite:///{tmp_path / 'own.db'}" if sqlite else await create_postgres_database()
    )
    await upgrade_async(url)
    try:
        async with open_sessionmaker(DatabaseSettings(url=url)) as made, made() as session:
            yield session
    finally:
        if not sqlite:
            await drop_postgres_database(url)


async def test_recalibration_fits_the_precision_threshold(
    own_session: AsyncSession, services, tmp_path
) -> None:
    """Labels from proofs, tier-2 agreement and spot checks; the threshold is written."""
    import random

    from app.calibration.tasks import recalibrate
    from app.verification.calibration import Calibrator, signals
    from app.worker.context import JOB_CONTEXT_KEY, JobContext

    rng = random.Random(0)

    def solution_with(quick: list[VerificationRecord], later: list[VerificationRecord]) -> None:
        scan = Scan(
            source="text",
            # Distinct problems: copies of one would be one problem's outcomes to the promise.
            problem_text=f"problem {uuid.uuid4()}",
            subject="math",
            grade_band="primary",
            difficulty="easy",
            language="en",
            topics=[],
        )
        solution = Solution(scan=scan, provider="g", final_answer="5", verification_status="x")
        for record in [*quick, *later]:
            record.solution, record.answer = solution, record.answer or "5"
        own_session.add_all([scan, solution, *quick, *later])

    def verdict(tier: str, verifier: str, kind: str, **kw) -> VerificationRecord:
        return VerificationRecord(
            tier=tier,
            attempt=1,
            method=kw.pop("method", "llm"),
            verifier_id=verifier,
            verdict=kind,
            **kw,
        )

    for i in range(300):  # model-only evidence: right above 0.8, a coin flip below
        score = rng.uniform(0.6, 1.0)
        right = score > 0.8 or rng.random() < 0.5
        quick = [verdict("quick", "g:quick_verify", "approve", score=score)]
        if i % 3:
            later = [
                verdict("consensus", "consensus:exact_match", "approve" if right else "reject")
            ]
        else:  # a credible spot-check panel instead
            kind = "approve" if right else "reject"
            later = [verdict("spot", f"aspect:{k}", kind) for k in range(4)]
        solution_with(quick, later)
    for i in range(20):  # proofs at response time label themselves
        kind = "approve" if i % 2 else "reject"
        solution_with([verdict("quick", "symbolic:s", kind, method="programmatic")], [])
    await own_session.flush()

    class Bound:
        def __call__(self):
            return self

        async def __aenter__(self):
            return own_session

        async def __aexit__(self, *exc):
            return None

    settings = services.settings.model_copy(deep=True)
    settings.verify.calibration_path = tmp_path / "calibration.json"
    jobs = JobContext(settings, Bound(), services.registry, services.sandbox, services.queue)  # type: ignore[arg-type]
    ctx = {JOB_CONTEXT_KEY: jobs}
    assert (await recalibrate(ctx, min_samples=1000)).startswith("skipped")
    outcome = await recalibrate(ctx, min_samples=20)
    assert outcome.startswith("fitted on 320") and "held out" in outcome
    model = Calibrator.load(tmp_path / "calibration.json")
    assert model.sources == {"consensus": 200, "spot": 100, "proof": 20}
    assert model.target_precision == 0.97 and model.evidence == 300  # cross-fitted: all
    assert model.threshold is not None and model.precision_lower_bound >= 0.97
    assert model.fitted_at and model.ece is not None and model.brier is not None

    def calibrated(score: float) -> float:
        row = signals(approvals={"g:quick_verify": True}, quick_confidence=score)
        return model.predict(row)

    assert calibrated(0.98) >= model.threshold > calibrated(0.65)


async def test_server_upkeep_recalibrates_once_a_day(services) -> None:
    """Two upkeep loops (the app's own and a second, as another process would run) stage one
    recalibration for the day, in the outbox (delivered until it completes)."""
    import asyncio
    from dataclasses import replace
    from datetime import UTC, datetime

    from sqlalchemy import func, select

    from app.db.models import OutboxMessage
    from app.resources import keep_fresh

    settings = services.settings.model_copy(deep=True)
    settings.verify.routing_refresh_s = 0.01
    ours = replace(services, settings=settings)
    upkeep = asyncio.create_task(keep_fresh(ours))
    await asyncio.sleep(0.3)  # many refresh rounds
    upkeep.cancel()
    job_id = f"recalibrate:{datetime.now(UTC).strftime('%Y%m%d')}"
    async with services.sessionmaker() as session:
        staged = await session.scalar(
            select(func.count()).select_from(OutboxMessage).where(OutboxMessage.job_id == job_id)
        )
    assert staged == 1
