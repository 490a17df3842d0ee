"""No input makes a 5xx: hostile text and images get a 4xx with the JSON envelope, on SQLite
and on Postgres (which refuses NUL bytes), and every response matches the OpenAPI schema."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import jsonschema_rs
import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.resources import Resources
from tests.fixtures.ocr_slots import occupy_ocr
from tests.hardening import images

SECRET = "Secret-Student-Text-Tenant-Zeta"


@pytest.fixture
def openapi_validator(app: FastAPI):
    document = app.openapi()

    def validator(name: str) -> jsonschema_rs.Validator:
        schema = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
        return jsonschema_rs.validator_for(schema)

    return validator


def assert_well_formed(response: httpx.Response, validator: Any) -> None:
    assert response.status_code < 500, response.text
    body = response.json()
    if response.status_code == 201:
        validator("SolutionResponse").validate(body)
        return
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["code"], str) and isinstance(body["error"]["message"], str)
    assert "object at 0x" not in body["error"]["message"]


def assert_refused(response: httpx.Response, status: int, code: str | None = None) -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    if code is not None:
        assert error["code"] == code, error
    assert "object at 0x" not in error["message"]


# ---------------------------------------------------------------- text


@pytest.mark.parametrize(
    "text",
    ["2x + 3 = 11\x00", "\x00", "x\x01y", "1+1\x7f", "a\x1b[31m", "\x85", "2+2=?\x0c"],
)
async def test_control_characters_are_refused(client: httpx.AsyncClient, text: str) -> None:
    assert_refused(await client.post("/v1/scans", json={"text": text}), 422, "invalid_request")


async def test_newlines_and_tabs_are_fine(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/scans", json={"text": "Solve\r\n\t2x + 3 = 11"})
    assert response.status_code == 201, response.text


@pytest.mark.parametrize(
    "text",
    [
        "\u200b",
        "\u200b\u200c\u200d\ufeff\u2060",
        " \u3000\u00a0\t",
        "\u0301\u0302",
        "\u3164",  # the Hangul filler, a letter that prints as a blank
        "\u2800 \u2800",  # the blank Braille pattern
    ],
)
async def test_blank_or_invisible_text_is_refused(client: httpx.AsyncClient, text: str) -> None:
    assert_refused(await client.post("/v1/scans", json={"text": text}), 422, "invalid_request")


async def test_a_lone_surrogate_is_refused(client: httpx.AsyncClient) -> None:
    raw = b'{"text": "2+2=? \\ud800"}'
    response = await client.post(
        "/v1/scans", content=raw, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422, response.text


async def test_hints_with_control_characters_are_refused(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/scans", json={"text": "1+1=?", "subject": "math\x00"})
    assert_refused(response, 422, "invalid_request")
    assert response.json()["error"]["details"][0]["field"] == "subject"


async def test_refusals_do_not_repeat_the_callers_text(client: httpx.AsyncClient) -> None:
    """An unknown field's name and a malformed id are the caller's text: not echoed."""
    secret = "my secret homework 2x+3=11 <script>" + "y" * 3000
    response = await client.post("/v1/checks", json={"problem": "1+1", "answer": "2", secret: 1})
    assert_refused(response, 422, "invalid_request")
    assert "secret" not in response.text and "script" not in response.text
    assert response.json()["error"]["details"] == [
        {"field": "(unknown field)", "problem": "not a field of this request"}
    ]
    response = await client.get("/v1/scans/not-a-uuid%00secret")
    assert response.status_code == 422 and "secret" not in response.text, response.text
    assert "\\u0000" not in response.text


async def test_multipart_text_is_checked_too(client: httpx.AsyncClient) -> None:
    files = {"image": ("p.png", images.problem_png(), "image/png")}
    response = await client.post("/v1/scans", files=files, data={"text": "x\x00"})
    assert_refused(response, 422, "invalid_request")
    response = await client.post("/v1/scans", files=files, data={"grade": "7" * 100})
    assert_refused(response, 422, "invalid_request")


async def test_text_limit_comes_from_settings(
    client: httpx.AsyncClient, services: Resources, monkeypatch: pytest.MonkeyPatch
) -> None:
    limited = services.settings.input.model_copy(update={"max_text_chars": 10})
    monkeypatch.setattr(services.settings, "input", limited)
    response = await client.post("/v1/scans", json={"text": "1 + 1 + 1 + 1 = ?"})
    assert_refused(response, 422, "invalid_request")
    assert "longer than 10 characters" in response.json()["error"]["message"]


# Math-heavy text: operators, digits, letters, LaTeX, CJK, full-width forms, odd spaces.
_MATH_TOKENS = st.sampled_from(
    [*"0123456789xyz+-*/^=()[]{}.,;%<>", "**", "\\frac{", "\\sqrt{", "²", "√", "π", "×", "÷",
     "解方程", "，", "＝", "１", " ", "\n", "\t", "\u3000", "\u200b", "</problem>", "＜/problem＞",
     "Solve ", "what is ", "10^999", "1/0", "x=x", "x=x+1"]
)  # fmt: skip
MATH_TEXT = st.lists(_MATH_TOKENS, min_size=1, max_size=60).map("".join)
ANY_TEXT = st.text(min_size=0, max_size=300)  # every category hypothesis draws, controls too


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=st.one_of(MATH_TEXT, ANY_TEXT), subject=st.none() | st.text(max_size=40))
async def test_fuzzed_text_never_makes_a_5xx(
    client: httpx.AsyncClient, openapi_validator: Any, text: str, subject: str | None
) -> None:
    response = await client.post("/v1/scans", json={"text": text, "subject": subject})
    assert_well_formed(response, openapi_validator)


# ---------------------------------------------------------------- images


async def post_image(client: httpx.AsyncClient, data: bytes, name: str = "p.png") -> httpx.Response:
    return await client.post("/v1/scans", files={"image": (name, data, "image/png")})


@pytest.mark.parametrize(
    ("build", "status", "code"),
    [
        (lambda: images.problem_png()[: len(images.problem_png()) // 2], 422, "corrupt_image"),
        (lambda: images.problem_jpeg()[: len(images.problem_jpeg()) // 2], 422, "corrupt_image"),
        (lambda: images.corrupt_middle(images.problem_png()), 422, "corrupt_image"),
        (lambda: images.problem_png()[:40], 422, "corrupt_image"),
        (lambda: b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, 422, "corrupt_image"),
        (lambda: b"\xff\xd8\xff" + b"garbage" * 20, 422, "corrupt_image"),
        (lambda: images.png_header_only(39_000_000, 1), 422, "image_aspect_ratio"),
        (lambda: images.png_header_only(1, 30_000_000), 422, "image_aspect_ratio"),
        (lambda: images.png_header_only(7000, 7000), 413, "image_too_large"),
        (lambda: images.png_header_only(100_000, 100_000), 413, "image_too_large"),
        (lambda: images.png_header_only(0, 10), 422, None),
        (images.gif_named_png, 415, "unsupported_media_type"),
        (lambda: b"%PDF-1.4\n" + images.problem_png(), 415, "unsupported_media_type"),
    ],
)
async def test_broken_images_are_refused(
    client: httpx.AsyncClient, build: Any, status: int, code: str | None
) -> None:
    assert_refused(await post_image(client, build()), status, code)


async def test_truncated_jpeg_pixels_are_a_422_from_decoding(client: httpx.AsyncClient) -> None:
    jpeg = images.encode(images.Image.effect_noise((800, 600), 80).convert("RGB"), "JPEG")
    response = await post_image(client, jpeg[: int(len(jpeg) * 0.8)], "p.jpg")
    assert_refused(response, 422, "corrupt_image")


@pytest.mark.parametrize(
    "build",
    [
        images.cmyk_jpeg,
        images.sixteen_bit_png,
        images.palette_png,
        images.transparent_png,
        images.animated_png,
    ],
)
async def test_odd_but_valid_images_are_read(
    client: httpx.AsyncClient, openapi_validator: Any, build: Any
) -> None:
    response = await post_image(client, build())
    assert_well_formed(response, openapi_validator)
    assert response.status_code in (201, 422), response.text  # 422: OCR found no text


_IMAGE_MUTATIONS = st.sampled_from(["truncate", "flip", "insert", "header"])


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    base=st.sampled_from(["png", "jpeg"]),
    mutation=_IMAGE_MUTATIONS,
    where=st.floats(0.0, 1.0),
    junk=st.binary(min_size=1, max_size=64),
)
async def test_fuzzed_images_never_make_a_5xx(
    client: httpx.AsyncClient,
    services: Resources,
    openapi_validator: Any,
    base: str,
    mutation: str,
    where: float,
    junk: bytes,
) -> None:
    data = _BASES[base]
    at = max(8, int(len(data) * where))  # keep the signature: get past the sniffing
    mutated = {
        "truncate": data[:at],
        "flip": data[:at] + bytes(b ^ 0xFF for b in data[at : at + len(junk)]) + data[at + 64 :],
        "insert": data[:at] + junk + data[at:],
        "header": data[:8] + junk + data[8 + len(junk) :],
    }[mutation]
    assert_well_formed(await post_image(client, mutated), openapi_validator)


_BASES = {"png": images.problem_png(), "jpeg": images.problem_jpeg()}


# ---------------------------------------------------------------- failures inside the service


async def test_ocr_queue_full_is_a_503_with_retry_after(
    client: httpx.AsyncClient, services: Resources, monkeypatch: pytest.MonkeyPatch
) -> None:
    busy = await occupy_ocr(services, monkeypatch, 1.5)
    response = await post_image(client, images.problem_png())
    await busy
    assert_refused(response, 503, "ocr_busy")
    assert response.headers["retry-after"] == "1"


async def test_a_failing_solver_degrades_to_a_201(
    client: httpx.AsyncClient, services: Resources, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*_: object, **__: object) -> None:
        raise ValueError("solver bug")

    monkeypatch.setattr(services.sandbox, "solve", broken)
    monkeypatch.setattr(services.sandbox, "check", broken)
    response = await client.post("/v1/scans", json={"text": "Solve 2x + 3 = 11"})
    assert response.status_code == 201, response.text
    assert response.json()["verification_status"] != "verified"


async def test_an_unexpected_error_is_a_json_500_with_the_request_id(
    client: httpx.AsyncClient,
    services: Resources,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    class ExplodingGraph:
        async def ainvoke(self, *_: object, **__: object) -> None:
            raise RuntimeError(f"internal detail about {SECRET}")

        async def astream(self, *_: object, **__: object) -> AsyncIterator[None]:
            raise RuntimeError(f"internal detail about {SECRET}")
            yield  # an async generator, as LangGraph's streaming is

    monkeypatch.setattr(services, "graph", ExplodingGraph())
    with caplog.at_level(logging.INFO):
        response = await client.post(
            "/v1/scans", json={"text": f"{SECRET} 1+1"}, headers={"x-request-id": "req-42"}
        )
    assert response.status_code == 500
    assert response.headers["x-request-id"] == "req-42"
    error = response.json()["error"]
    assert error["code"] == "internal_error" and error["request_id"] == "req-42"
    assert SECRET not in response.text
    assert "RuntimeError" in caplog.text and "req-42" in caplog.text
    assert SECRET not in caplog.text


async def test_readyz_names_states_not_exceptions(client: httpx.AsyncClient) -> None:
    checks = (await client.get("/readyz")).json()["checks"]
    assert set(checks.values()) <= {"ok", "down"}


async def test_a_media_type_in_capitals_is_the_same_media_type(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/scans", content=b'{"text": "2 + 2 = ?"}', headers={"content-type": "APPLICATION/JSON"}
    )
    assert response.status_code == 201, response.text
