"""Every example query in docs/analytics.md, run against a seeded Postgres (240 scans through
the real write path: three providers, two tenants, five grades, three difficulties, later
corrections), each result checked against what the seed meant."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.migrate import upgrade_async
from app.db.session import open_sessionmaker
from app.settings import DatabaseSettings
from tests.analytics.seeding import Seeded, seed
from tests.conftest import create_postgres_database, drop_postgres_database

DOCS = Path(__file__).resolve().parents[2] / "docs" / "analytics.md"
pytestmark = pytest.mark.postgres


def documented_queries() -> dict[str, str]:
    """`-- name: x` sql blocks of docs/analytics.md."""
    blocks = re.findall(r"```sql\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    named = {}
    for block in blocks:
        found = re.match(r"-- name: (\w+)\n", block)
        assert found, f"an example query without a name: {block[:60]}"
        named[found.group(1)] = block
    return named


QUERIES = documented_queries()


@pytest.fixture(scope="module")
async def seeded_postgres() -> AsyncIterator[tuple[str, list[Seeded]]]:
    url = await create_postgres_database()
    await upgrade_async(url)
    try:
        async with open_sessionmaker(DatabaseSettings(url=url)) as made, made() as session:
            rows = await seed(session)
        yield url, rows
    finally:
        await drop_postgres_database(url)


@pytest.fixture
async def analyst(
    seeded_postgres: tuple[str, list[Seeded]],
) -> AsyncIterator[tuple[AsyncSession, list[Seeded]]]:
    url, rows = seeded_postgres
    async with open_sessionmaker(DatabaseSettings(url=url)) as made, made() as session:
        yield session, rows


async def run(session: AsyncSession, name: str) -> list[dict[str, Any]]:
    result = await session.execute(text(QUERIES[name]))
    return [dict(r._mapping) for r in result]


def ratio(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def flat(table: dict[Any, dict[str, Any]]) -> dict[tuple[Any, str], Any]:
    """{(key, column): value}: pytest.approx compares flat mappings only."""
    return {(key, column): v for key, row in table.items() for column, v in row.items()}


def sums(rows: Iterable[Seeded], key: Callable[[Seeded], Any]) -> dict[Any, list[Seeded]]:
    groups: dict[Any, list[Seeded]] = defaultdict(list)
    for row in rows:
        groups[key(row)].append(row)
    return groups


def test_every_question_has_a_query() -> None:
    assert set(QUERIES) == {
        "right_most_often",
        "found_wrong_by_tenant",
        "found_wrong_by_provider_difficulty",
        "found_wrong_by_day",
        "calibration",
        "cost_per_verified",
        "daily_trend",
        "suggestions",
    }


async def test_the_seed_is_what_the_issue_asks(analyst) -> None:
    session, rows = analyst
    assert len(rows) >= 200
    assert len({r.provider for r in rows if r.provider}) >= 3
    assert {r.tenant for r in rows} == {"acme", "globex"}
    assert len({r.grade for r in rows}) >= 4 and len({r.difficulty for r in rows}) == 3
    assert sum(r.found_wrong for r in rows) >= 5 and sum(r.replaced for r in rows) >= 3
    assert sum(r.verified_later for r in rows) >= 3 and sum(not r.answered for r in rows) >= 5
    # the view holds one row per scan, with the grade the caller sent, normalised
    (count,) = (await session.execute(text("SELECT COUNT(*) FROM v_answers"))).one()
    assert count == len(rows)
    grades = set((await session.execute(text("SELECT DISTINCT grade FROM v_answers"))).scalars())
    assert grades == {"7", "8", "9", "10", "middle"}


async def test_right_most_often(analyst) -> None:
    session, rows = analyst
    mine = [
        r
        for r in rows
        if r.tenant == "acme"
        and r.subject == "math"
        and r.topic in ("linear_equation", "quadratic_equation", "system_of_equations")
        and r.grade in ("7", "8", "9")
        and r.difficulty == "hard"
    ]
    expected = {}
    for provider, group in sums(mine, lambda r: r.provider).items():
        verified = sum(r.verified for r in group)
        wrong = sum(r.verified and r.found_wrong for r in group)
        judged = [r.outcome for r in group if r.outcome is not None]
        expected[provider] = {
            "answered": sum(r.answered for r in group),
            "verified": verified,
            "later_found_wrong": wrong,
            "verified_precision": ratio(verified - wrong, verified),
            "judged": len(judged),
            "judged_accuracy": ratio(sum(judged), len(judged)),
        }
    got = await run(session, "right_most_often")
    assert len(got) >= 2
    table = {r["provider"]: {k: r[k] for k in expected[r["provider"]]} for r in got}
    assert flat(table) == pytest.approx(flat(expected))
    accuracies = [r["judged_accuracy"] for r in got if r["judged_accuracy"] is not None]
    assert accuracies == sorted(accuracies, reverse=True)
    assert all(isinstance(r["verified_precision"], float | None) for r in got)


async def test_found_wrong(analyst) -> None:
    session, rows = analyst
    by_tenant = {r["tenant"]: r for r in await run(session, "found_wrong_by_tenant")}
    for tenant, group in sums(rows, lambda r: r.tenant).items():
        verified = sum(r.verified for r in group)
        wrong = sum(r.verified and r.found_wrong for r in group)
        assert (by_tenant[tenant]["verified"], by_tenant[tenant]["later_found_wrong"]) == (
            verified,
            wrong,
        )
        assert by_tenant[tenant]["found_wrong_rate"] == pytest.approx(wrong / verified)
    acme = [r for r in rows if r.tenant == "acme"]
    expected = {
        key: (sum(r.verified for r in g), sum(r.verified and r.found_wrong for r in g))
        for key, g in sums(acme, lambda r: (r.provider, r.difficulty)).items()
        if sum(r.verified for r in g)
    }
    got = await run(session, "found_wrong_by_provider_difficulty")
    assert {
        (r["provider"], r["difficulty"]): (r["verified"], r["later_found_wrong"]) for r in got
    } == (expected)
    by_day = {
        str(r["day"]): (r["verified"], r["later_found_wrong"])
        for r in await run(session, "found_wrong_by_day")
    }
    assert by_day == {
        day: (sum(r.verified for r in g), sum(r.verified and r.found_wrong for r in g))
        for day, g in sums(acme, lambda r: r.day).items()
    }
    assert len(by_day) == 5


async def test_calibration_bins(analyst) -> None:
    session, rows = analyst
    judged = [r for r in rows if r.tenant == "acme" and r.outcome is not None and not r.replaced]
    expected = {}
    for bin_, group in sums(judged, lambda r: min(9, int(r.confidence * 10))).items():
        right = sum(bool(r.outcome) for r in group)
        expected[bin_] = {
            "judged": len(group),
            "judged_right": right,
            "mean_confidence": sum(r.confidence for r in group) / len(group),
            "observed_accuracy": right / len(group),
            "bin_lower": bin_ / 10,
        }
    got = await run(session, "calibration")
    table = {r["bin"]: {k: r[k] for k in expected[r["bin"]]} for r in got}
    assert flat(table) == pytest.approx(flat(expected))
    assert len(got) >= 4


async def test_cost_per_verified(analyst) -> None:
    session, rows = analyst
    acme = [r for r in rows if r.tenant == "acme" and r.provider]
    got = {r["provider"]: r for r in await run(session, "cost_per_verified")}
    for provider, group in sums(acme, lambda r: r.provider).items():
        verified = sum(r.verified for r in group)
        calls = sum(r.model_calls + r.followup_llm for r in group)
        tokens = sum(r.tokens for r in group)
        row = got[provider]
        assert (row["verified"], row["total_model_calls"], row["tokens"]) == (
            verified,
            calls,
            tokens,
        )
        assert row["model_calls_per_verified"] == pytest.approx(calls / verified)
        assert row["tokens_per_verified"] == pytest.approx(tokens / verified)


async def test_daily_trend_and_suggestions(analyst) -> None:
    session, rows = analyst
    globex = [r for r in rows if r.tenant == "globex"]
    trend = await run(session, "daily_trend")
    expected = {
        day: (len(g), sum(r.answered for r in g), sum(r.verified for r in g))
        for day, g in sums(globex, lambda r: r.day).items()
    }
    assert {str(r["day"]): (r["scans"], r["n"], r["verified"]) for r in trend} == expected
    for r in trend:  # one denominator: answered scans
        assert r["verified_rate"] == pytest.approx(r["verified"] / r["n"])
    counts = Counter(r.suggestion for r in globex if r.suggestion)
    got = await run(session, "suggestions")
    assert {r["suggestion"]: r["n"] for r in got} == dict(counts)


async def test_every_view_and_column_is_documented_and_typed(analyst) -> None:
    session, _ = analyst
    views = [
        "v_answers",
        "v_quality",
        "v_found_wrong_daily",
        "v_calibration_bins",
        "v_cost_per_verified",
        "v_daily_quality",
        "v_improvement_suggestions",
        "v_provider_accuracy_by_subject",
        "v_provider_accuracy_by_difficulty",
        "v_model_quality_by_subject",
        "v_model_quality_by_difficulty",
    ]
    for view in views:
        comment = (
            await session.execute(text("SELECT obj_description(CAST(:v AS regclass))"), {"v": view})
        ).scalar()
        assert comment, view
        columns = (
            await session.execute(
                text(
                    "SELECT a.attname, col_description(a.attrelid, a.attnum), "
                    "format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
                    "WHERE a.attrelid = CAST(:v AS regclass) AND a.attnum > 0"
                ),
                {"v": view},
            )
        ).all()
        assert "tenant" in {c for c, _, _ in columns}, view
        for name, described, kind in columns:
            assert described, f"{view}.{name} has no comment"
            if "rate" in name or name in ("verified_precision", "judged_accuracy"):
                assert kind == "double precision", f"{view}.{name} is {kind}"
            assert kind != "numeric", f"{view}.{name} is numeric"


async def test_dashboard_shows_the_promise_of_the_seed(analyst) -> None:
    from app.analytics import queries
    from app.analytics.dashboard import coverage_precision_points, page, wilson

    session, rows = analyst
    counts = await queries.promise(session)
    verified = sum(r.verified for r in rows)
    wrong = sum(r.verified and r.found_wrong for r in rows)
    assert (counts["scans"], counts["answered"]) == (len(rows), sum(r.answered for r in rows))
    assert (counts["verified"], counts["later_found_wrong"]) == (verified, wrong)
    bins = await queries.calibration_bins(session)
    judged = [r for r in rows if r.outcome is not None and not r.replaced]
    assert sum(b["judged"] for b in bins) == len(judged)
    curve = coverage_precision_points(bins)
    assert curve[-1]["coverage"] == pytest.approx(1.0)
    assert curve[-1]["precision"] == pytest.approx(
        sum(bool(r.outcome) for r in judged) / len(judged)
    )
    table = await queries.quality_table(session)
    html = page(
        [],
        await queries.daily_trend(session),
        await queries.suggestions(session),
        {},
        promise=counts,
        bins=bins,
        table=table,
        cost=await queries.cost_per_verified(session),
    )
    assert f'id="verified">{verified}<' in html and f'id="found-wrong">{wrong}<' in html
    low, high = wilson(wrong, verified) or (0, 0)
    assert f"95% CI {low:.1%}–{high:.1%}" in html
    assert html.count('class="bin"') == len(bins) and html.count('class="threshold"') == len(bins)
    assert "Cost per verified answer" in html and "gpt-4o-mini" not in html  # per provider
    # no bare percentage on a tiny sample: under 10, a count (k/n), the row greyed
    for label in re.findall(r'<text class="count"[^>]*>([^<]*)</text>', html):
        n = int(label.rsplit("n=", 1)[1])
        assert ("%" in label) == (n >= 10), label
    small = [r for r in table if r["verified"] < 10]
    assert html.count('<tr class="small">') == len(small) > 0
