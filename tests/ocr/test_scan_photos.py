"""Photo scans over HTTP: the structured reading comes back as LaTeX; a photo read only in
part is answered `unverified` with the reason, never solved."""

from __future__ import annotations

import httpx

from app.bench.math_photos import PhotoStyle, render_math


async def test_a_fraction_photo_is_verified_with_its_latex(client: httpx.AsyncClient) -> None:
    image = render_math(r"\frac{x}{4}=3", PhotoStyle(fontset="stix", size=36))
    response = await client.post("/v1/scans", files={"image": ("p.png", image, "image/png")})
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["ocr_latex"].replace(" ", "") == r"\frac{x}{4}=3"
    assert body["verification_status"] == "verified"
    assert body["final_answer"].replace(" ", "") == "x=12"


async def test_a_photo_read_in_part_is_not_solved(client: httpx.AsyncClient) -> None:
    image = render_math(r"\sum_{i=1}^{3} i", PhotoStyle(size=36))
    response = await client.post("/v1/scans", files={"image": ("p.png", image, "image/png")})
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["verification_status"] == "unverified" and body["final_answer"] is None
    assert body["caution_reason"]["code"] == "incomplete_reading"
    assert "photo" in body["caution_reason"]["message"]


async def test_text_scans_have_no_latex(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/scans", json={"text": "2x + 3 = 11"})
    assert response.status_code == 201 and response.json()["ocr_latex"] is None
