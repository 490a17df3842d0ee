"""Answers the symbolic solver gives reach the student (two independent testers, 2026-12-01):
a comparison's answer "3/4 > 5/7" was refused by the answer hygiene as a bound where none is
asked, so 比较大小 scans came back with no answer; 12 ÷ 0 had none before it was read."""

from __future__ import annotations

import httpx
import pytest


@pytest.mark.parametrize(
    ("problem", "answer"),
    [
        ("比较大小：3/4和5/7", "3/4 > 5/7"),
        ("Compare 3/4 and 5/7", "3/4 > 5/7"),
        ("Which is larger, 3/4 or 5/7?", "3/4"),
        ("12 ÷ 0 = ?", "undefined"),
    ],
)
async def test_the_solvers_answer_is_shown_verified(
    client: httpx.AsyncClient, problem: str, answer: str
) -> None:
    body = (await client.post("/v1/scans", json={"text": problem})).json()
    assert (body["final_answer"], body["verification_status"]) == (answer, "verified"), body
