"""The daily refit's outcomes carry their problem, read from the stored scans (real database):
two students' copies of one problem are one problem's outcomes."""

from __future__ import annotations

import httpx
from sqlalchemy.ext.asyncio import AsyncSession

from app.calibration.data import labelled_outcomes_from
from app.verification.outcomes import problem_key


async def test_copies_of_a_scanned_problem_share_its_key(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    copies = ["Solve 2x + 3 = 11 for x.", "solve 2x+3 = 11 for x", "Solve 5x - 4 = 21 for x."]
    for text in copies:
        response = await client.post("/v1/scans", json={"text": text})
        assert response.status_code == 201, response.text
    outcomes = await labelled_outcomes_from(session)  # proofs: the symbolic check labels them
    keys = {o.problem for o in outcomes}
    assert problem_key(copies[0]) in keys and problem_key(copies[2]) in keys
    first = [o for o in outcomes if o.problem == problem_key(copies[0])]
    assert len(first) == 2 and all(o.source == "proof" and o.correct for o in first)
