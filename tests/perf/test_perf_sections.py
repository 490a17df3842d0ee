"""`bench perf` finishes: sections isolated (a crashing child process is reported, the next
section still runs and the report is saved after each), --only, the load average, the JSON
keys of issue 31, and the hand-written baseline's route doing the scan's essential work. None
of these measure time: they check what is run, reported and written."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from typer.testing import CliRunner

from solveverify_bench.cli import bench_app
from solveverify_bench.perf.baseline_server import (
    EVENTS,
    OUTBOX,
    VERDICTS,
    create_tables,
    plain_dsn,
)
from solveverify_bench.perf.report import goals, table
from solveverify_bench.perf.run import SECTIONS, baseline_env
from solveverify_bench.perf.sections import SkipSection, failed, run_sections, selected
from solveverify_bench.perf.stack import fake_provider, run_probe, serve_baseline, stop
from solveverify_bench.perf.verified import per_verified
from tests.conftest import create_postgres_database, drop_postgres_database

MAV_RUN = Path(__file__).parent.parent / "data" / "mav_run"
CRASH = [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"]


def test_a_child_that_crashes_is_an_error_saying_how() -> None:
    with pytest.raises(RuntimeError, match="killed by SIGSEGV"):
        run_probe(CRASH, timeout_s=60)
    with pytest.raises(RuntimeError, match="exit status 3"):
        run_probe([sys.executable, "-c", "import sys; print('x'); sys.exit(3)"], timeout_s=60)
    assert run_probe([sys.executable, "-c", "print('a'); print('{}')"], timeout_s=60) == "{}"


async def test_a_failing_section_is_reported_and_the_rest_still_saved(tmp_path: Path) -> None:
    out = tmp_path / "perf.json"
    report: dict[str, Any] = {}

    async def crashes() -> None:  # as the local model or OCR section does when its child dies
        run_probe(CRASH, timeout_s=60)

    async def raises() -> None:
        raise KeyError("no such figure")

    async def skips() -> None:
        raise SkipSection("no Postgres")

    async def measures() -> None:
        report["ocr_seconds_per_image"] = 0.5

    def save(r: dict[str, Any]) -> None:
        out.write_text(json.dumps(r))

    await run_sections(
        [("local_model", crashes), ("fanout", raises), ("cost", skips), ("ocr", measures)],
        report,
        say=lambda _: None,
        save=save,
    )
    saved = json.loads(out.read_text())
    assert saved["ocr_seconds_per_image"] == 0.5  # the section after the failures ran
    sections = saved["sections"]
    assert list(sections) == ["local_model", "fanout", "cost", "ocr"]
    assert sections["local_model"]["status"] == "failed"
    assert "killed by SIGSEGV" in sections["local_model"]["error"]
    assert sections["fanout"]["status"] == "failed"
    assert sections["fanout"]["error"].startswith("KeyError")
    assert sections["cost"] == {**sections["cost"], "status": "skipped", "reason": "no Postgres"}
    assert sections["ocr"]["status"] == "ok"
    for entry in sections.values():
        assert len(entry["load_before"]) == len(entry["load_after"]) == 3
    assert failed(saved) == ["local_model", "fanout"]
    text = "\n".join(table(saved))
    assert "| local_model | failed: RuntimeError" in text and "| ocr | ok |" in text


def test_only_keeps_the_benchmark_order_and_rejects_unknown_sections() -> None:
    assert selected(SECTIONS, []) == list(SECTIONS)
    assert selected(SECTIONS, ["ocr", "critical"]) == ["critical", "ocr"]
    with pytest.raises(ValueError, match="unknown section"):
        selected(SECTIONS, ["critical", "gpu"])
    result = CliRunner().invoke(bench_app, ["perf", "--only", "gpu"])
    assert result.exit_code == 2 and "unknown section" in result.output


def cli_perf(tmp_path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    out = tmp_path / "perf.json"
    result = CliRunner().invoke(
        bench_app,
        ["perf", "--json", str(out), "--redis-url", "", "--postgres-admin-url", "", *args],
    )
    return result.exit_code, json.loads(out.read_text())


def test_perf_only_verified_writes_calls_per_verified_answer(tmp_path: Path) -> None:
    code, report = cli_perf(
        tmp_path,
        *("--only", "verified", "--replay", str(MAV_RUN)),
        *("--replay-policy", "quick", "--replay-policy", "panel:3"),
    )
    assert code == 0, report.get("sections")
    assert report["sections_requested"] == ["verified"]
    assert list(report["sections"]) == ["verified"]
    assert report["sections"]["verified"]["status"] == "ok"
    assert len(report["load_average_before"]) == len(report["load_average_after"]) == 3
    assert set(report["calls_per_verified"]) == {"quick", "panel:3"}
    assert set(report["tokens_per_verified"]) == {"quick", "panel:3"}
    rows = report["verified_cost"]["policies"]
    for row in rows.values():
        assert row["n"] >= 1 and 0 <= row["verified"] <= row["n"]
        assert row["calls_per_scan"] > 0
        if row["verified"]:
            assert row["calls_per_verified"] == pytest.approx(
                row["calls_per_scan"] * row["n"] / row["verified"], abs=0.01
            )
        else:
            assert row["calls_per_verified"] is None  # nothing verified: no price
    # Panel verifiers are more calls per scan than the quick verify alone.
    assert rows["panel:3"]["calls_per_scan"] > rows["quick"]["calls_per_scan"]
    assert "critical_path" not in report and "throughput_rps_sqlite" not in report


def test_perf_reports_a_failed_section_and_exits_1(tmp_path: Path) -> None:
    code, report = cli_perf(tmp_path, "--only", "verified", "--replay", str(tmp_path / "none"))
    assert code == 1
    assert report["sections"]["verified"]["status"] == "failed"
    assert "FileNotFoundError" in report["sections"]["verified"]["error"]
    assert "load_average_after" in report


def test_per_verified_divides_the_scans_cost_by_the_verified_ones() -> None:
    summary = {"n": 10, "verified": 4, "verified_precision": 1.0, "coverage": 0.4,
               "verified_wrong": 0, "calls_per_scan": 2.5, "tokens_per_scan": 800.0}  # fmt: skip
    row = per_verified(summary, target=0.95)
    assert (row["calls_per_verified"], row["tokens_per_verified"]) == (6.25, 2000)
    assert row["keeps_promise"]
    none = per_verified({**summary, "verified": 0, "verified_precision": None}, target=0.95)
    assert none["calls_per_verified"] is None and not none["keeps_promise"]


def test_goals_say_met_or_not_met_from_the_new_keys() -> None:
    report = {
        "cpu_ratio_to_baseline": 1.4,
        "throughput_ratio_to_baseline": 0.5,
        "critical_path_multi_by_latency": {
            "1": {"ratio_p50_to_critical_path": 1.04},
            "0.2": {"ratio_p50_to_critical_path": 1.3},
        },
        "verified_cost": {
            "policies": {"quick": {"calls_per_verified": 3}, "panel:3": {"calls_per_verified": 9}},
            "default_policy": "quick",
            "cheapest_policy_keeping_promise": "quick",
            "default_to_cheapest_calls_ratio": 1.0,
        },
    }
    verdicts = {goal: met for goal, _, met in goals(report)}
    assert list(verdicts.values()) == [True, True, False, False, True, True]
    assert all(met is None for _, _, met in goals({}))


@pytest.mark.postgres
async def test_the_baseline_route_makes_the_calls_and_writes_the_rows(tmp_path: Path) -> None:
    url = await create_postgres_database()
    fake, fake_url = fake_provider(tmp_path, 0.0)
    try:
        await create_tables(url)
        server, base = serve_baseline(tmp_path, baseline_env(fake_url, url))
        try:
            async with httpx.AsyncClient(base_url=base, timeout=60) as http:
                stats = (await http.get(f"{fake_url}/stats")).json()
                reply = await http.post("/v1/scans", json={"text": "What is 6 * 7?"})
                after = (await http.get(f"{fake_url}/stats")).json()
        finally:
            stop(server)
    finally:
        stop(fake)
    try:
        assert reply.status_code == 201
        assert reply.json()["final_answer"] == "42"
        assert reply.json()["verification_status"] == "verified"
        heard = sum(v["calls"] for v in after.values()) - sum(v["calls"] for v in stats.values())
        assert heard == 4  # ANALYZE's labels, SOLVE, QUICK_VERIFY, ENRICH's labels
        connection = await asyncpg.connect(plain_dsn(url))
        try:
            counts = {
                t: await connection.fetchval(f"SELECT count(*) FROM baseline_{t}")
                for t in ("scans", "solutions", "verdicts", "events", "outbox")
            }
        finally:
            await connection.close()
        assert counts == {
            "scans": 1, "solutions": 1, "verdicts": VERDICTS, "events": EVENTS, "outbox": OUTBOX
        }  # fmt: skip
    finally:
        await drop_postgres_database(url)
