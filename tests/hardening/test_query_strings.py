"""Query strings are input like any other: whatever a GET route is sent after `?`, the answer is
never a 5xx (SQLite and Postgres, which refuses NUL in text). The adversarial round's finds
(NUL in `user_id` and `tenant`, cursors with ±14:00 offsets at the ends of the calendar) are
pinned first, then a property test covers every GET route of the app."""

from __future__ import annotations

import base64
import uuid
from urllib.parse import quote_from_bytes

import httpx
import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.api.url_guard import has_control_characters


def assert_refused(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code


def cursor(created_at: str) -> str:
    raw = f"{created_at}|{uuid.uuid4()}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.mark.parametrize(
    "path",
    ["/v1/scans?user_id=%00", "/v1/analytics/accuracy?tenant=%00", "/v1/scans?user_id=a%1Fb"],
)
async def test_control_characters_in_a_query_are_a_422(
    client: httpx.AsyncClient, path: str
) -> None:
    assert_refused(await client.get(path), 422, "invalid_request")


@pytest.mark.parametrize(
    "created_at",
    [
        "0001-01-01T00:00:00+14:00",
        "0001-01-01T13:59:59.999999+14:00",
        "9999-12-31T23:59:59.999999-14:00",
        "9999-12-31T10:00:01-14:00",
    ],
)
async def test_cursors_without_a_utc_instant_are_a_422(
    client: httpx.AsyncClient, created_at: str
) -> None:
    response = await client.get("/v1/scans", params={"cursor": cursor(created_at)})
    assert_refused(response, 422, "invalid_cursor")


@pytest.mark.parametrize(
    "created_at", ["0001-01-01T14:00:00+14:00", "9999-12-31T09:59:59-14:00", "2026-01-01T00:00"]
)
async def test_cursors_at_the_ends_of_the_calendar_page_normally(
    client: httpx.AsyncClient, created_at: str
) -> None:
    response = await client.get("/v1/scans", params={"cursor": cursor(created_at)})
    assert response.status_code == 200, response.text
    assert isinstance(response.json()["items"], list)


def test_the_guard_sees_through_percent_encoding() -> None:
    assert has_control_characters(b"a=%00") and has_control_characters(b"%7f=1")
    assert has_control_characters(b"a=\x01")
    assert not has_control_characters(b"a=b+c&d=%C3%A9%20%E2%88%9A&e=%ZZ")


def get_routes(app: FastAPI) -> list[tuple[str, list[str]]]:
    """Every GET route of the OpenAPI document (and the dashboard, which is not in it): its
    path with ids filled in, and the query parameters it declares."""
    routes = [("/dashboard", ["token"])]
    for path, operations in app.openapi()["paths"].items():
        if "get" not in operations:
            continue
        names = []
        for param in operations["get"].get("parameters", []):
            if param["in"] == "path":
                path = path.replace("{" + param["name"] + "}", str(uuid.uuid4()))
            elif param["in"] == "query":
                names.append(param["name"])
        routes.append((path, names))
    return routes


# Values aimed at the parsers behind the parameters: numbers, dates, base64, odd Unicode,
# and raw bytes (percent-encoded, so invalid UTF-8 and controls reach the server).
_VALUE = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        ["0", "-1", "1e309", "NaN", "99999999999999999999", "subject", "difficulty", "",
         "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "²", "１２", "\U0010ffff"]
    ),
    st.binary(max_size=40).map(lambda b: base64.urlsafe_b64encode(b).decode().rstrip("=")),
)  # fmt: skip
_RAW = st.one_of(_VALUE.map(lambda v: v.encode("utf-8", "surrogatepass")), st.binary(max_size=40))


@st.composite
def query_strings(draw: st.DrawFn, names: list[str]) -> bytes:
    keys = st.sampled_from(names) | st.text(max_size=10) if names else st.text(max_size=10)
    pairs = draw(st.lists(st.tuples(keys, _RAW), max_size=4))
    return "&".join(
        f"{quote_from_bytes(k.encode('utf-8', 'surrogatepass'))}={quote_from_bytes(v)}"
        for k, v in pairs
    ).encode()


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_no_query_string_makes_a_5xx(
    client: httpx.AsyncClient, app: FastAPI, data: st.DataObject
) -> None:
    path, names = data.draw(st.sampled_from(get_routes(app)), label="route")
    query = data.draw(query_strings(names), label="query")
    response = await client.get(httpx.URL(path, query=query))
    assert response.status_code < 500, (path, query, response.text[:300])


def test_every_get_route_is_fuzzed(app: FastAPI) -> None:
    paths = {path.split("/")[2] if path.count("/") > 1 else path for path, _ in get_routes(app)}
    assert {"scans", "analytics", "solutions"} <= paths, paths
