"""Defects an adversarial tester found at the request's edges, each a 4xx in the JSON envelope
now (never a 500): dashboard tokens, Last-Event-ID, JSON and multipart bodies, images whose
header walk is the attack, /v1/checks text, a client that disconnects mid-body."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from starlette.types import Message

from app.auth import dashboard_tokens
from app.ocr.errors import ImageUnreadable
from app.ocr.image_structure import image_size
from app.resources import Resources
from tests.hardening import images

SECRET = "dashboard-test-secret"


def assert_refused(response: httpx.Response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert isinstance(error["message"], str)
    if code is not None:
        assert error["code"] == code, error
    return error


# ---------------------------------------------------------------- D1, D2: dashboard tokens


@pytest.mark.parametrize(
    "token",
    ["9999999999.é", "1795296220.é", "².x", "²²²²²²²²²²²².x", "9" * 5000 + ".x", "", ".", "12.",
     "-5.abc", " 123.x", "１２３.x"],
)  # fmt: skip
def test_malformed_dashboard_tokens_are_invalid_not_errors(token: str) -> None:
    assert dashboard_tokens.verify(SECRET, token) is False


def test_a_signed_token_still_verifies() -> None:
    assert dashboard_tokens.verify(SECRET, dashboard_tokens.sign(SECRET, 60))


@pytest.fixture
def auth_on(services: Resources, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.settings.auth, "required", True)


@pytest.mark.usefixtures("auth_on")
@pytest.mark.parametrize(
    "query", ["token=9999999999.%C3%A9", "token=%C2%B2.x", "token=" + "9" * 5000 + ".x"]
)
async def test_dashboard_with_a_hostile_token_is_401(client: httpx.AsyncClient, query: str) -> None:
    assert (await client.get(f"/dashboard?{query}")).status_code == 401


@pytest.mark.usefixtures("auth_on")
@pytest.mark.parametrize("cookie", ["1795296220.é".encode(), b"\xb2.x", b"9" * 5000 + b".x"])
async def test_dashboard_with_a_hostile_cookie_is_401(
    client: httpx.AsyncClient, cookie: bytes
) -> None:
    headers = {b"cookie": b"solveverify_dashboard=" + cookie}
    assert (await client.get("/dashboard", headers=headers)).status_code == 401


# ---------------------------------------------------------------- D3, D4: Last-Event-ID


async def _finished_scan(live: httpx.AsyncClient) -> str:
    response = await live.post("/v1/scans", json={"text": "Solve 2x + 3 = 11"})
    assert response.status_code == 201, response.text
    return response.json()["scan_id"]


@pytest.mark.parametrize("last_id", [b"9" * 5000, b"\xb2", b"12a", b"-1", b"1.5"])
async def test_a_malformed_last_event_id_is_a_422(live: httpx.AsyncClient, last_id: bytes) -> None:
    scan_id = await _finished_scan(live)
    response = await live.get(f"/v1/scans/{scan_id}/events", headers={b"last-event-id": last_id})
    assert_refused(response, 422, "invalid_last_event_id")


@pytest.mark.parametrize("last_id", ["99999999999999999999", str(2**63), str(2**31)])
async def test_an_id_past_every_event_streams_nothing_and_ends(
    live: httpx.AsyncClient, last_id: str
) -> None:
    scan_id = await _finished_scan(live)
    response = await asyncio.wait_for(
        live.get(f"/v1/scans/{scan_id}/events", headers={"Last-Event-ID": last_id}), 10
    )
    assert response.status_code == 200
    # Nothing after an id past the last one, but the final word (`settled` has no id).
    assert "id:" not in response.text
    assert response.text.count("event:") == 1 and "event: settled" in response.text


# ---------------------------------------------------------------- D6: JSON body size


async def test_a_huge_json_body_is_refused_before_parsing(
    client: httpx.AsyncClient, services: Resources
) -> None:
    body = b'{"text":"2+2=?","grade":[' + b"[]," * 3_400_000 + b"[]]}"
    started = time.perf_counter()
    response = await client.post(
        "/v1/scans", content=body, headers={"content-type": "application/json"}
    )
    error = assert_refused(response, 413, "payload_too_large")
    assert str(services.settings.input.max_json_bytes) in error["message"]
    assert time.perf_counter() - started < 1.0

    async def chunked() -> AsyncIterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"text":"2+2=?","grade":['
        for _ in range(200):
            yield b"[]," * 1000

    response = await client.post(
        "/v1/checks", content=chunked(), headers={"content-type": "application/json"}
    )
    assert_refused(response, 413, "payload_too_large")


async def test_a_json_body_within_its_limit_is_served(client: httpx.AsyncClient) -> None:
    assert (await client.post("/v1/scans", json={"text": "1 + 2 = ?"})).status_code == 201


# ---------------------------------------------------------------- D5, D14: images


def test_chunk_and_marker_floods_are_refused_after_a_bounded_walk() -> None:
    for flood, kind in (
        (images.png_chunk_flood(), "image/png"),
        (images.jpeg_marker_flood(), "image/jpeg"),
        (images.jpeg_marker_flood(marker=b"\xff\xe1"), "image/jpeg"),
    ):
        started = time.perf_counter()
        with pytest.raises(ImageUnreadable) as refused:
            image_size(flood, kind, max_segments=10_000)
        assert refused.value.code == "corrupt_image"
        assert time.perf_counter() - started < 0.5


def test_real_images_pass_the_walk_with_their_size() -> None:
    assert image_size(images.problem_png(), "image/png", 10_000) is not None
    assert image_size(images.problem_jpeg(), "image/jpeg", 10_000) is not None
    assert image_size(images.png_header_only(100_000, 100_000), "image/png", 10) == (
        100_000,
        100_000,
    )


@pytest.mark.parametrize("path", ["/v1/scans", "/v1/checks"])
@pytest.mark.parametrize(
    "flood", [images.png_chunk_flood, images.jpeg_marker_flood], ids=["png", "jpeg"]
)
async def test_uploads_with_chunk_floods_are_422(client: httpx.AsyncClient, path, flood) -> None:
    data = flood()
    name, kind = ("p.png", "image/png") if data[:4] == b"\x89PNG" else ("p.jpg", "image/jpeg")
    fields = {"answer": "4"} if path == "/v1/checks" else {}
    response = await client.post(path, files={"image": (name, data, kind)}, data=fields)
    assert_refused(response, 422, "corrupt_image")


async def test_a_bomb_reports_its_real_pixel_count(client: httpx.AsyncClient) -> None:
    png = images.png_header_only(100_000, 100_000)
    response = await client.post("/v1/scans", files={"image": ("p.png", png, "image/png")})
    error = assert_refused(response, 413, "image_too_large")
    assert "10000000000 pixels" in error["message"], error


# ---------------------------------------------------------------- D13, D14: multipart


@pytest.mark.parametrize("path", ["/v1/scans", "/v1/checks"])
async def test_multipart_text_must_be_utf8(client: httpx.AsyncClient, path: str) -> None:
    files: Any = {
        "image": ("p.png", images.problem_png(), "image/png"),
        "text": (None, b"2+2 \xff\xfe"),
        "answer": (None, b"4 \xff"),
    }
    error = assert_refused(await client.post(path, files=files), 422, "invalid_text")
    assert "\xff" not in error["message"] and "ÿ" not in error["message"]


async def test_multipart_utf8_text_is_accepted(client: httpx.AsyncClient) -> None:
    files: Any = {
        "image": ("p.png", images.problem_png(), "image/png"),
        "text": (None, "解方程 2x + 3 = 11".encode()),
    }
    assert (await client.post("/v1/scans", files=files)).status_code == 201


@pytest.mark.parametrize("path", ["/v1/scans", "/v1/checks"])
async def test_multipart_limits_are_the_apps_own_errors(client: httpx.AsyncClient, path) -> None:
    png = ("p.png", images.problem_png(), "image/png")
    huge_text: Any = {"image": png, "text": (None, b"1" * 2_000_000), "answer": (None, b"4")}
    assert_refused(await client.post(path, files=huge_text), 422, "text_too_long")
    two_images: Any = [("image", png), ("image", png), ("answer", (None, b"4"))]
    assert_refused(await client.post(path, files=two_images), 422, "too_many_files")
    many_fields: Any = [("image", png), *((f"f{i}", (None, b"x")) for i in range(12))]
    assert_refused(await client.post(path, files=many_fields), 422, "too_many_fields")
    repeated: Any = [("image", png), ("answer", (None, b"4")), *(("text", (None, b"1+1")),) * 2]
    response = await client.post(path, files=repeated)
    assert_refused(response, 422, "invalid_request")
    assert response.json()["error"]["details"] == [
        {"field": "text", "problem": "sent more than once"}
    ]


# ---------------------------------------------------------------- D12: checks' text


@pytest.mark.parametrize(
    "body",
    [
        {"problem": "2+2\u0000", "answer": "4"},
        {"problem": "2+2=?", "answer": "\u200b"},
        {"problem": "2+2=?", "answer": "\u001b[31m4"},
        {"problem": "2+2=?", "answer": "4\u0000"},
        {"problem": "\u200b\u200c", "answer": "4"},
        {"problem": "2+2=?", "answer": "4", "x": 1},
    ],
)
async def test_checks_use_the_scans_text_rules(client: httpx.AsyncClient, body: dict) -> None:
    assert_refused(await client.post("/v1/checks", json=body), 422, "invalid_request")


@pytest.mark.parametrize(
    "fields",
    [{"answer": b"4\x00"}, {"answer": b"4", "problem": b"2+2\x00"}, {"answer": b"4", "x": b"1"}],
)
async def test_multipart_checks_use_the_scans_text_rules(
    client: httpx.AsyncClient, fields: dict
) -> None:
    files: Any = {"image": ("p.png", images.problem_png(), "image/png")}
    files.update({k: (None, v) for k, v in fields.items()})
    assert_refused(await client.post("/v1/checks", files=files), 422, "invalid_request")


# ---------------------------------------------------------------- D10: client disconnects


async def test_a_client_that_disconnects_mid_body_is_not_an_error(
    app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    messages: Iterator[Message] = iter(
        [
            {"type": "http.request", "body": b'{"text": "2+', "more_body": True},
            {"type": "http.disconnect"},
        ]
    )
    sent: list[Message] = []

    async def receive() -> Message:
        return next(messages, {"type": "http.disconnect"})

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/scans",
        "raw_path": b"/v1/scans",
        "query_string": b"",
        "headers": [(b"content-type", b"application/json"), (b"content-length", b"100")],
        "client": ("127.0.0.1", 5000),
        "server": ("test", 80),
        "state": {},
        "app": app,
    }
    with caplog.at_level(logging.INFO):
        await app(scope, receive, send)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert "client disconnected" in caplog.text
    assert "Traceback" not in caplog.text
    assert not any(m.get("status") == 500 for m in sent)


@pytest.mark.parametrize("key", [b"key\x01", b"\xff\xfe", b"caf\xc3\xa9"])
async def test_an_idempotency_key_is_printable_ascii(client: httpx.AsyncClient, key: bytes) -> None:
    """A control byte or non-ASCII in the key was accepted (201) and stored as the key."""
    response = await client.post(
        "/v1/scans", json={"text": "1 + 2 = ?"}, headers=[(b"Idempotency-Key", key)]
    )
    assert response.status_code == 422, response.text
    fresh = {"Idempotency-Key": f"a key {uuid.uuid4()}"}
    assert (
        await client.post("/v1/scans", json={"text": "1 + 2 = ?"}, headers=fresh)
    ).status_code == 201


@pytest.mark.parametrize("user_id", ["%ff", "a%20b", "%00"])
async def test_the_listing_user_id_has_the_body_s_rules(
    client: httpx.AsyncClient, user_id: str
) -> None:
    """The body's user_id is an opaque id; the listing's took any text (200, empty)."""
    response = await client.get(f"/v1/scans?user_id={user_id}")
    assert response.status_code == 422, response.text
    assert (await client.get("/v1/scans?user_id=user_8c1f2a")).status_code == 200


# ---------------------------------------------------------------- round 16: a field sent twice


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/scans", '{"text": "1+1", "text": "2+2"}', "text"),
        ("/v1/checks", '{"problem": "1+1=?", "answer": "2", "answer": "3"}', "answer"),
        (
            "/v1/checks",
            '{"problem": "1+1=?", "answer": "2", "steps": ["1+1=2"], "steps": []}',
            "steps",
        ),
        ("/v1/scans", '{"text": "1+1", "x": {"a": 1, "a": 2}}', "a"),  # nested too
        ("/v1/scans", '{"text": "1+1", "the text": 1, "the text": 2}', "(unknown field)"),
    ],
)
async def test_a_json_key_sent_twice_is_refused(
    client: httpx.AsyncClient, path: str, body: str, field: str
) -> None:
    """The last `text` won silently (2+2 was solved for a body that also asked 1+1)."""
    headers = {"content-type": "application/json"}
    response = await client.post(path, content=body, headers=headers)
    assert_refused(response, 422, "invalid_request")
    assert response.json()["error"]["details"] == [
        {"field": field, "problem": "sent more than once"}
    ]


@pytest.mark.parametrize("query", ["limit=5&limit=100", "user_id=a&user_id=b", "x=1&x="])
async def test_a_query_parameter_sent_twice_is_refused(
    client: httpx.AsyncClient, query: str
) -> None:
    response = await client.get(f"/v1/scans?{query}")
    assert_refused(response, 422, "invalid_request")
    name = query.split("=")[0]
    assert response.json()["error"]["details"] == [
        {"field": name, "problem": "sent more than once"}
    ]
    assert (await client.get(f"/v1/scans?{query.split('&')[0]}")).status_code == 200


async def test_an_idempotency_key_sent_twice_is_refused(client: httpx.AsyncClient) -> None:
    headers = [("idempotency-key", "k-1"), ("idempotency-key", "k-2")]
    response = await client.post("/v1/scans", json={"text": "1+1"}, headers=headers)
    assert_refused(response, 422, "invalid_request")
    assert response.json()["error"]["details"] == [
        {"field": "Idempotency-Key", "problem": "sent more than once"}
    ]


async def test_an_authorization_header_sent_twice_is_refused(client: httpx.AsyncClient) -> None:
    """The first of `Bearer <valid>` and `Bearer junk` acted (the other order was a 401)."""
    headers = [("authorization", "Bearer a"), ("authorization", "Bearer b")]
    response = await client.get("/v1/scans", headers=headers)
    assert_refused(response, 422, "invalid_request")
    assert response.json()["error"]["details"] == [
        {"field": "Authorization", "problem": "sent more than once"}
    ]
