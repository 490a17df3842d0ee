"""Photo scans over HTTP: the structured reading comes back as LaTeX; a photo read only in
part is answered `unverified` with the reason, never solved; one of which nothing usable was
read (no letter or digit) is 422 `retake_photo`."""

from __future__ import annotations

import httpx
import pytest

from app.ocr.rapid import RapidOcrReader
from app.ocr.words import usable_reading
from solveverify_bench.math_photos import PhotoStyle, render_math


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


@pytest.mark.parametrize(
    ("latex", "read"),
    [
        (r"\frac{\heartsuit}{\clubsuit}", ""),  # ink everywhere, nothing read
        (r"\star\times\bigstar", "*×★"),  # read in part, and no letter or digit in it
    ],
)
async def test_a_photo_with_nothing_usable_read_is_422_retake_photo(
    client: httpx.AsyncClient, latex: str, read: str
) -> None:
    image = render_math(latex, PhotoStyle(size=44))
    reading = RapidOcrReader().read_sync(image)
    assert reading.unread is not None and reading.text == read  # what the OCR makes of it
    response = await client.post("/v1/scans", files={"image": ("p.png", image, "image/png")})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "retake_photo"
    assert "photo" in error["message"].lower()


def test_usable_readings() -> None:
    assert usable_reading("+5") and usable_reading("x") and usable_reading("小明有")
    assert not usable_reading("") and not usable_reading("÷#") and not usable_reading("*×★")
    # The instruction words alone are not a problem; a sentence is.
    assert not usable_reading("计算： ÷#") and not usable_reading("计算：")
