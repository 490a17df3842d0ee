"""A model's own worked steps are evidence (independent tester, 2026-11-28): a solution that
shows `12 + 24 = 30` on its way to 30 was `verified` on one agreeing verifier's word. A step the
symbolic checks prove false now rejects the answer it led to (caution, another provider
tried); right steps change nothing. Scans use scripted providers through the HTTP API."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.fixtures.providers import solution_json, verdict_json, verifier
from tests.fixtures.scripted import ScriptedClient

APPLES = (
    "Tom has 18 apples and gives away 6. Then he buys twice as many as he has left. "
    "How many does he have now?"
)


def solving(answer: str, *steps: str) -> ScriptedClient:
    return ScriptedClient("m1", [solution_json(answer, *steps)], capabilities=frozenset({"solve"}))


def solving_latex(answer: str, *steps: tuple[str, str]) -> ScriptedClient:
    reply = {
        "steps": [{"description": d, "latex": latex} for d, latex in steps],
        "final_answer": answer,
    }
    return ScriptedClient("m1", [json.dumps(reply)], capabilities=frozenset({"solve"}))


async def test_a_solution_with_a_false_step_is_not_verified(
    client: httpx.AsyncClient, with_clients
) -> None:
    gullible = verifier("gullible", verdict_json(True, 0.99, "30"))
    with_clients(solving("30", "18 - 6 = 12", "12 × 2 = 24", "12 + 24 = 30"), gullible)
    response = await client.post("/v1/scans", json={"text": APPLES})
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["final_answer"] == "30"
    assert body["verification_status"] == "caution"
    assert body["caution_reason"]["code"] == "failed_verification"
    detail = (await client.get(f"/v1/solutions/{body['solution_id']}")).json()
    rejected = [v for v in detail["verifications"] if v["verifier_id"] == "symbolic:solution_steps"]
    assert rejected and rejected[0]["verdict"] == "reject"
    assert "12 + 24 = 30" in rejected[0]["rationale"]


async def test_right_steps_leave_the_verifier_to_decide(
    client: httpx.AsyncClient, with_clients
) -> None:
    gullible = verifier("gullible", verdict_json(True, 0.99, "36"))
    with_clients(solving("36", "18 - 6 = 12", "12 × 2 = 24", "12 + 24 = 36"), gullible)
    body = (await client.post("/v1/scans", json={"text": APPLES})).json()
    assert (body["final_answer"], body["verification_status"]) == ("36", "verified")


@pytest.mark.parametrize(
    "steps",
    [
        # the false claim is in the description the student reads, not in the LaTeX
        (("Then 12 + 24 = 30 apples.", "12 \\times 2 = 24"),),
        # an aligned block, a row going on from the one before
        (("Add them up", "\\begin{aligned} 18 - 6 &= 12 \\\\ 12 + 24 &= 30 \\end{aligned}"),),
        (("Total", "\\text{apples} &= 12 + 24 \\\\ &= 30"),),
    ],
)
async def test_a_false_step_in_a_description_or_an_aligned_block_is_seen(
    client: httpx.AsyncClient, with_clients, steps: tuple[tuple[str, str], ...]
) -> None:
    gullible = verifier("gullible", verdict_json(True, 0.99, "30"))
    with_clients(solving_latex("30", *steps), gullible)
    body = (await client.post("/v1/scans", json={"text": APPLES})).json()
    assert (body["final_answer"], body["verification_status"]) == ("30", "caution")


def test_steps_without_a_claim_cost_no_sandbox_round_trip() -> None:
    """Only a step with a number beside a relation can be judged (measured: none of 2 939
    such GSM8K solution lines was): the others are not sent to the sandbox."""
    from app.verification.programmatic import claims

    assert not claims(["work it out", "So the total is 12.", "2 apples and 3 pears"])
    assert claims(["18 − 6 ＝ 11"]) and claims(["x ≥ 3"]) and claims([r"\frac{1}{2} \times 8 = 4"])
