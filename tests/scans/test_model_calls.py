"""`model_calls` per scan reaches the API: stored on the solution, returned on POST and GET."""

from __future__ import annotations

import httpx

from tests.fixtures.providers import solution_json, verdict_json, verifier
from tests.fixtures.scripted import ScriptedClient

WORD_PROBLEM = "A baker fills 7 trays with 13 muffins each and sells all but 5. How many sold?"


async def test_model_calls_are_stored_and_returned(client: httpx.AsyncClient, with_clients) -> None:
    # one model solves (1 call), another verifies it (1 call)
    model = ScriptedClient("m1", [solution_json("86")], capabilities=frozenset({"solve", "verify"}))
    with_clients(model, verifier("judge", verdict_json(True, 0.95, "86")))
    response = await client.post("/v1/scans", json={"text": WORD_PROBLEM})
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["model_calls"] == len(model.calls) + 1 >= 2
    detail = (await client.get(f"/v1/solutions/{body['solution_id']}")).json()
    assert detail["model_calls"] == body["model_calls"]


async def test_the_symbolic_solver_makes_no_model_call(client: httpx.AsyncClient) -> None:
    body = (await client.post("/v1/scans", json={"text": "Solve 2x + 3 = 11"})).json()
    assert body["model_calls"] == 0
