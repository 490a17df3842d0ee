"""POST /v1/checks with a photo of the problem read only in part: no verdict against it.

x_1^2 = 4 in a photo is read "x =4" with the subscript and the power lost (the reader says
so: `unread`). Judged against that reading, "x = 4" was `correct`; the problem it shows has
x_1 = ±2. An incomplete reading now abstains with the reason `incomplete_reading`."""

from __future__ import annotations

import httpx

from solveverify_bench.math_photos import PhotoStyle, render_math

HALF_READ = r"x^2_1 = 4"


async def test_a_half_read_problem_photo_gets_no_verdict(client: httpx.AsyncClient) -> None:
    image = render_math(HALF_READ, PhotoStyle(size=36))
    for answer in ("x = 4", "x = 2", "x = 5"):
        response = await client.post(
            "/v1/checks", files={"image": ("p.png", image, "image/png")}, data={"answer": answer}
        )
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["verdict"] == "unknown", body
        assert body["method"] is None and body["confidence"] is None
        assert body["detail"].startswith("incomplete_reading"), body


async def test_with_steps_every_step_is_unchecked(client: httpx.AsyncClient) -> None:
    image = render_math(HALF_READ, PhotoStyle(size=36))
    response = await client.post(
        "/v1/checks",
        files={"image": ("p.png", image, "image/png")},
        data={"answer": "x = 4", "steps": "x = 4\n4 = 4"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["verdict"] == "unknown" and body["detail"].startswith("incomplete_reading")
    assert [s["verdict"] for s in body["steps"]] == ["unchecked", "unchecked"]
    assert body["first_error_step"] is None and body["first_flagged_step"] is None
    assert body["check_id"] is not None  # stored as every check with steps is


async def test_a_photo_read_whole_is_still_judged(client: httpx.AsyncClient) -> None:
    image = render_math(r"2x+3=11", PhotoStyle(size=36))
    response = await client.post(
        "/v1/checks", files={"image": ("p.png", image, "image/png")}, data={"answer": "x = 4"}
    )
    assert response.status_code == 200, response.text
    assert response.json()["verdict"] == "correct"
