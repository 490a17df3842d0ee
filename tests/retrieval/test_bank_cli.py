"""`solveverify bank load --add FILE --source NAME`: an operator's own bank beside GSM8K, run
as an operator would (real processes, the embedded SQLite database), and a problem found in it
word for word answered from it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.fixtures.processes import run_cli

# A word problem no symbolic reading answers: only the bank can.
GARDEN = (
    "A school garden has 12 rows of tulips with 15 tulips in each row. The gardener picks 38 "
    "tulips for the spring show. How many tulips are left in the garden?"
)
GARDEN_SOLUTION = (
    "12 rows of 15 tulips make 12*15 = 180 tulips.\nAfter 38 are picked, 180-38 = 142."
)


def _bank_file(tmp_path: Path) -> Path:
    rows = [
        {"question": GARDEN, "answer": f"{GARDEN_SOLUTION}\n#### 142"},
        {
            "question": "A baker fills 9 trays with 14 rolls each and sells 100 rolls. "
            "How many rolls does the baker have left?",
            "answer": "9*14 = 126 rolls.\n126-100 = 26.\n#### 26",
        },
    ]
    path = tmp_path / "textbook.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def _sources(database: Path) -> dict[str, int]:
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT source, count(*) FROM problem_bank GROUP BY source")
        return dict(rows.fetchall())


def test_bank_load_adds_an_operators_bank_beside_gsm8k(tmp_path: Path) -> None:
    bank = _bank_file(tmp_path)
    loaded = run_cli("bank", "load", "--add", str(bank), "--source", "textbook", cwd=tmp_path)
    assert loaded.returncode == 0, loaded.stderr
    assert f"added 2 problems from {bank} as textbook" in loaded.stdout
    sources = _sources(tmp_path / "solveverify.db")
    assert sources["textbook"] == 2
    assert sources["gsm8k"] > 7000  # GSM8K was loaded first: the bank was empty

    again = run_cli("bank", "load", "--add", str(bank), "--source", "textbook", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "loaded 0 problems" in again.stdout
    assert f"added 0 problems from {bank} as textbook" in again.stdout  # wordings known
    assert _sources(tmp_path / "solveverify.db")["textbook"] == 2

    solved = run_cli("solve", "--text", GARDEN, cwd=tmp_path)
    assert solved.returncode == 0, solved.stderr
    body = json.loads(solved.stdout)
    assert body["provider"] == "problem_bank"
    assert body["final_answer"] == "142"
    assert body["verification_status"] == "verified"
    assert [s["description"] for s in body["steps"]] == GARDEN_SOLUTION.splitlines()

    changed = run_cli("solve", "--text", GARDEN.replace("38", "39"), cwd=tmp_path)
    assert changed.returncode == 0, changed.stderr
    assert json.loads(changed.stdout)["provider"] != "problem_bank"  # not the same problem


def test_bank_load_refuses_a_bad_file_or_a_missing_source(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"question": "What is 2+2?", "answer": "4"}) + "\n")
    failed = run_cli("bank", "load", "--add", str(bad), "--source", "mine", cwd=tmp_path)
    assert failed.returncode == 2
    assert json.loads(failed.stderr)["error"]["code"] == "bad_bank_file"
    assert "mine" not in _sources(tmp_path / "solveverify.db")

    alone = run_cli("bank", "load", "--add", str(bad), cwd=tmp_path)
    assert alone.returncode != 0
    assert "--add and --source go together" in alone.stderr
