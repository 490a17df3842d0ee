"""Per-student tokens (issue 28) against a real app with auth required: the tenant key mints,
the token reaches one user's scans and checks only, and everything an attacker would try with
one fails: expiry, tampering, another tenant, another user, a revoked minting key, minting with
a token, a key in the URL, a token in the access log."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import time
import uuid
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from pydantic import SecretStr

from app.api.access_log import RedactUrlCredentials, redact_url_credentials
from app.auth import student_tokens
from app.auth.key_repository import ApiKeyRepository
from app.auth.keys import Role, key_id_of, new_key
from app.main import create_app
from app.resources import Resources
from app.scans.event_endpoints import StreamSlots
from app.settings import ApiSettings, AuthSettings, RetrievalSettings, Settings
from tests.conftest import settings_for

PROBLEM = {"text": "Solve 2x + 3 = 11"}
LINEAR = "If 7 - 4x = 15, what is 8x + 2?"


def secured_settings(path: Path, **auth: Any) -> Settings:
    return settings_for(f"sqlite+aiosqlite:///{path}").model_copy(
        update={
            "auth": AuthSettings(required=True, rate_limit_per_minute=1000, key_cache_s=0, **auth),
            # The stream of a done scan ends soon after `done` (settled).
            "api": ApiSettings(events_quiet_s=0.2, events_poll_s=0.05, events_poll_max_s=0.1),
            "retrieval": RetrievalSettings(load_on_start=False),
        }
    )


@pytest.fixture(scope="module")
async def secured(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[FastAPI]:
    path = tmp_path_factory.mktemp("tokens") / "tokens.db"
    application = create_app(secured_settings(path))
    async with LifespanManager(application, startup_timeout=120, shutdown_timeout=60):
        yield application


@pytest.fixture
async def http(secured: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=secured)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        yield client


async def make_key(app: FastAPI, tenant: str, role: Role = "student") -> str:
    services: Resources = app.state.services
    key = new_key()
    async with services.sessionmaker() as session:
        ApiKeyRepository(session).add(key, tenant=tenant, role=role)
        await session.commit()
    return key.key


def bearer(credential: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {credential}"}


async def mint(http: httpx.AsyncClient, key: str, user_id: str, **extra: Any) -> str:
    minted = await http.post("/v1/tokens", json={"user_id": user_id, **extra}, headers=bearer(key))
    assert minted.status_code == 201, minted.text
    assert minted.json()["user_id"] == user_id
    assert minted.headers["cache-control"] == "no-store"
    token: str = minted.json()["token"]
    return token


async def scan(http: httpx.AsyncClient, credential: str, **body: Any) -> dict[str, Any]:
    created = await http.post("/v1/scans", json={**PROBLEM, **body}, headers=bearer(credential))
    assert created.status_code == 201, created.text
    result: dict[str, Any] = created.json()
    return result


def error(response: httpx.Response) -> str:
    code: str = response.json()["error"]["code"]
    return code


async def test_a_token_acts_for_its_user_only(secured: FastAPI, http: httpx.AsyncClient) -> None:
    key = await make_key(secured, "school-a")
    u1, u2 = await mint(http, key, "u1"), await mint(http, key, "u2")
    mine = await scan(http, u1)  # no user_id in the body: the token's
    theirs = await scan(http, u2)
    by_key = await scan(http, key, user_id="u2")  # the school's backend, for u2
    unbound = await scan(http, key)  # the school's backend, for no user
    own = await http.get(f"/v1/scans/{mine['scan_id']}", headers=bearer(u1))
    assert own.status_code == 200 and own.json()["user_id"] == "u1"

    # The body's user_id may be the token's own; never another's.
    assert (await scan(http, u1, user_id="u1"))["scan_id"]
    other_user = await http.post("/v1/scans", json={**PROBLEM, "user_id": "u2"}, headers=bearer(u1))
    assert other_user.status_code == 403 and error(other_user) == "forbidden"

    # Another user's scan, and one bound to no user, are 404 exactly like a scan that does
    # not exist: read, solution, stream (header or query), erase.
    for scan_id, solution_id in (
        (theirs["scan_id"], theirs["solution_id"]),
        (by_key["scan_id"], by_key["solution_id"]),
        (unbound["scan_id"], unbound["solution_id"]),
        (str(uuid.uuid4()), str(uuid.uuid4())),
    ):
        for response in (
            await http.get(f"/v1/scans/{scan_id}", headers=bearer(u1)),
            await http.get(f"/v1/solutions/{solution_id}", headers=bearer(u1)),
            await http.get(f"/v1/scans/{scan_id}/events", headers=bearer(u1)),
            await http.get(f"/v1/scans/{scan_id}/events", params={"access_token": u1}),
            await http.delete(f"/v1/scans/{scan_id}", headers=bearer(u1)),
        ):
            assert response.status_code == 404, response.text
            assert response.json() == {
                "error": {"code": "not_found", "message": response.json()["error"]["message"]}
            }
            assert "does not exist" in response.json()["error"]["message"]
    # ... and nothing was erased.
    for other in (theirs, by_key, unbound):
        assert (
            await http.get(f"/v1/scans/{other['scan_id']}", headers=bearer(key))
        ).status_code == 200
    assert (await http.get(f"/v1/scans/{theirs['scan_id']}", headers=bearer(u2))).status_code == 200
    assert (await http.get(f"/v1/scans/{by_key['scan_id']}", headers=bearer(u2))).status_code == 200

    # The history is the user's own, whatever the query asks for.
    listed = await http.get("/v1/scans", headers=bearer(u1))
    assert listed.status_code == 200
    assert {item["user_id"] for item in listed.json()["items"]} == {"u1"}
    assert len(listed.json()["items"]) == 2
    for query in ({"user_id": "u2"}, {"user_id": "u1x"}):
        refused = await http.get("/v1/scans", params=query, headers=bearer(u1))
        assert refused.status_code == 403 and error(refused) == "forbidden"
    same = await http.get("/v1/scans", params={"user_id": "u1"}, headers=bearer(u1))
    assert same.json()["items"] == listed.json()["items"]
    # The key still sees every user's scans of its tenant.
    everyone = (await http.get("/v1/scans", headers=bearer(key), params={"limit": 100})).json()
    assert {i["user_id"] for i in everyone["items"]} == {"u1", "u2", None}

    # A correction may name the user's own scans only: another user's (or an unbound one)
    # is a 404, not the 422 not_a_photo that would tell it exists.
    for target in (theirs, unbound):
        named = await http.post(
            "/v1/scans",
            json={**PROBLEM, "corrects_scan_id": target["scan_id"]},
            headers=bearer(u1),
        )
        assert named.status_code == 404 and error(named) == "not_found", named.text
    own_text = await http.post(
        "/v1/scans", json={**PROBLEM, "corrects_scan_id": mine["scan_id"]}, headers=bearer(u1)
    )
    assert own_text.status_code == 422 and error(own_text) == "not_a_photo"

    # The user's own stream, with the token in the query string (what EventSource sends).
    stream = await http.get(f"/v1/scans/{mine['scan_id']}/events", params={"access_token": u1})
    assert stream.status_code == 200, stream.text
    assert "event: done" in stream.text and "event: settled" in stream.text

    # Erase: the user's own scan, once.
    assert (
        await http.delete(f"/v1/scans/{mine['scan_id']}", headers=bearer(u1))
    ).status_code == 204
    assert (await http.get(f"/v1/scans/{mine['scan_id']}", headers=bearer(key))).status_code == 404


async def test_a_token_erases_its_users_checks_only(
    secured: FastAPI, http: httpx.AsyncClient
) -> None:
    key = await make_key(secured, "school-c")
    u1, u2 = await mint(http, key, "c1"), await mint(http, key, "c2")
    body = {"problem": LINEAR, "answer": "-14", "steps": ["7 - 4x = 15", "-4x = 8", "x = -2"]}
    checks = {}
    for name, credential in (("u1", u1), ("u2", u2), ("key", key)):
        checked = await http.post("/v1/checks", json=body, headers=bearer(credential))
        assert checked.status_code == 200, checked.text
        checks[name] = checked.json()["check_id"]
        assert checks[name]
    for other in ("u2", "key"):
        refused = await http.delete(f"/v1/checks/{checks[other]}", headers=bearer(u1))
        assert refused.status_code == 404 and error(refused) == "not_found"
    assert (await http.delete(f"/v1/checks/{checks['u1']}", headers=bearer(u1))).status_code == 204
    assert (await http.delete(f"/v1/checks/{checks['u2']}", headers=bearer(u2))).status_code == 204
    # The tenant's key erases any of its tenant's checks (its backend acts for every user).
    assert (
        await http.delete(f"/v1/checks/{checks['key']}", headers=bearer(key))
    ).status_code == 204


async def test_a_token_cannot_mint_read_analytics_or_open_the_dashboard(
    secured: FastAPI, http: httpx.AsyncClient
) -> None:
    roles: tuple[Role, ...] = ("student", "analyst", "platform")
    for role in roles:
        key = await make_key(secured, "school-d", role)
        token = await mint(http, key, "d1")
        again = await http.post("/v1/tokens", json={"user_id": "d2"}, headers=bearer(token))
        assert again.status_code == 403 and error(again) == "forbidden"
        same_user = await http.post("/v1/tokens", json={"user_id": "d1"}, headers=bearer(token))
        assert same_user.status_code == 403  # no renewal chain either
        for path in ("/v1/analytics/accuracy", "/v1/analytics/routing", "/v1/analytics/trend"):
            denied = await http.get(path, headers=bearer(token))
            assert denied.status_code == 403 and error(denied) == "forbidden", path
        page = await http.get("/dashboard", headers=bearer(token))
        assert page.status_code == 401 and "<form" in page.text
    nobody = await http.post("/v1/tokens", json={"user_id": "d1"})
    assert nobody.status_code == 401 and error(nobody) == "unauthorized"


async def test_minting_rules(secured: FastAPI, http: httpx.AsyncClient) -> None:
    key = await make_key(secured, "school-e")
    before = time.time()
    minted = await http.post("/v1/tokens", json={"user_id": "e1"}, headers=bearer(key))
    body = minted.json()
    assert set(body) == {"token", "expires_at", "user_id"}
    lifetime = datetime.fromisoformat(body["expires_at"]).timestamp() - before
    assert 899 <= lifetime <= 902  # SOLVEVERIFY_AUTH_TOKEN_TTL_S
    short = await http.post("/v1/tokens", json={"user_id": "e1", "ttl_s": 60}, headers=bearer(key))
    assert 59 <= datetime.fromisoformat(short.json()["expires_at"]).timestamp() - before <= 62
    for bad in (
        {"user_id": "e1", "ttl_s": 3601},  # beyond SOLVEVERIFY_AUTH_TOKEN_MAX_TTL_S
        {"user_id": "e1", "ttl_s": 0},
        {"user_id": ""},
        {"user_id": "a b"},
        {"user_id": "x" * 129},
        {"user_id": "e1", "tenant": "school-z"},  # the tenant is the key's, not the body's
        {},
        {"user_id": "e1", "ttl_s": "60"},  # strict: a string is not a lifetime
        {"user_id": "e1", "ttl_s": True},  # nor is true (it was a 1-second token)
        {"user_id": "e1", "ttl_s": 60.5},
    ):
        refused = await http.post("/v1/tokens", json=bad, headers=bearer(key))
        assert refused.status_code == 422 and error(refused) == "invalid_request", bad
    assert (
        await http.post(
            "/v1/tokens",
            content=b"user_id=e1",
            headers={**bearer(key), "content-type": "application/x-www-form-urlencoded"},
        )
    ).status_code == 415
    lookalike = await http.post(
        "/v1/tokens",
        content=b'{"user_id": "e1"}',
        headers={**bearer(key), "content-type": "application/jsonx"},
    )
    assert lookalike.status_code == 415
    charset = await http.post(
        "/v1/tokens",
        content=b'{"user_id": "e1"}',
        headers={**bearer(key), "content-type": "application/json; charset=utf-8"},
    )
    assert charset.status_code == 201


async def test_expired_token(secured: FastAPI, http: httpx.AsyncClient) -> None:
    key = await make_key(secured, "school-f")
    services: Resources = secured.state.services
    secret = await services.authenticator.token_secret()
    claims = student_tokens.Claims("school-f", "f1", key_id_of(key) or "", int(time.time()) - 1)
    expired = student_tokens.issue(secret, claims)  # ours, intact, past its expiry
    response = await http.get("/v1/scans", headers=bearer(expired))
    assert response.status_code == 401 and error(response) == "token_expired"
    assert response.headers["www-authenticate"] == "Bearer"
    # A token minted for 1 s stops working by itself (it lives 1 to 2 s: whole seconds).
    short = await mint(http, key, "f1", ttl_s=1)
    assert (await http.get("/v1/scans", headers=bearer(short))).status_code == 200
    await asyncio.sleep(2.1)
    late = await http.get("/v1/scans", headers=bearer(short))
    assert late.status_code == 401 and error(late) == "token_expired"


def _reencode(token: str, change: Any) -> str:
    """The token with its claims changed and the signature kept (a forgery attempt)."""
    body, _, signature = token[len(student_tokens.PREFIX) :].partition(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    forged = base64.urlsafe_b64encode(json.dumps(change(claims)).encode()).decode().rstrip("=")
    return f"{student_tokens.PREFIX}{forged}.{signature}"


async def test_tampered_and_foreign_tokens_are_refused(
    secured: FastAPI, http: httpx.AsyncClient
) -> None:
    key = await make_key(secured, "school-g")
    token = await mint(http, key, "g1")
    victim = await scan(http, key, user_id="g2")
    body, _, signature = token.partition(".")
    flipped = signature[:-2] + ("A" if signature[-2] != "A" else "B") + signature[-1]
    forgeries = {
        "signature changed": f"{body}.{flipped}",
        "signature dropped": body,
        "empty signature": f"{body}.",
        "another user": _reencode(token, lambda c: [c[0], c[1], "g2", c[3], c[4]]),
        "another tenant": _reencode(token, lambda c: [c[0], "school-h", c[2], c[3], c[4]]),
        "longer life": _reencode(token, lambda c: [*c[:4], c[4] + 86400]),
        "another secret": student_tokens.issue(
            b"not the server's secret" * 2,
            student_tokens.Claims("school-g", "g2", key_id_of(key) or "", int(time.time()) + 600),
        ),
        "garbage": "svt_garbage",
        "non-ascii": "svt_²²².²²",
        "huge": "svt_" + "A" * 5000 + "." + signature,
    }
    for name, forged in forgeries.items():
        for response in (
            await http.get(
                f"/v1/scans/{victim['scan_id']}",
                headers={b"Authorization": f"Bearer {forged}".encode()},
            ),
            await http.get(
                f"/v1/scans/{victim['scan_id']}/events", params={"access_token": forged}
            ),
        ):
            assert response.status_code == 401, (name, response.text)
            assert error(response) == "invalid_token", name
    # Not a token at all in access_token: refused the same way (nothing else is taken there).
    plain = await http.get(f"/v1/scans/{victim['scan_id']}/events", params={"access_token": "x"})
    assert plain.status_code == 401 and error(plain) == "invalid_token"


async def test_another_tenants_token_sees_nothing(
    secured: FastAPI, http: httpx.AsyncClient
) -> None:
    key_a, key_b = await make_key(secured, "school-i"), await make_key(secured, "school-j")
    a_scan = await scan(http, key_a, user_id="same-user")
    b_token = await mint(http, key_b, "same-user")  # the same user id in another tenant
    for response in (
        await http.get(f"/v1/scans/{a_scan['scan_id']}", headers=bearer(b_token)),
        await http.get(f"/v1/scans/{a_scan['scan_id']}/events", params={"access_token": b_token}),
        await http.get(f"/v1/solutions/{a_scan['solution_id']}", headers=bearer(b_token)),
        await http.delete(f"/v1/scans/{a_scan['scan_id']}", headers=bearer(b_token)),
    ):
        assert response.status_code == 404 and error(response) == "not_found"
    assert (await http.get("/v1/scans", headers=bearer(b_token))).json()["items"] == []
    # A token whose tenant is not its minting key's (only a forger could make one): refused.
    services: Resources = secured.state.services
    secret = await services.authenticator.token_secret()
    crossed = student_tokens.issue(
        secret,
        student_tokens.Claims(
            "school-i", "same-user", key_id_of(key_b) or "", int(time.time()) + 60
        ),
    )
    refused = await http.get(f"/v1/scans/{a_scan['scan_id']}", headers=bearer(crossed))
    assert refused.status_code == 401 and error(refused) == "invalid_token"


async def test_revoking_the_minting_key_ends_its_tokens(
    secured: FastAPI, http: httpx.AsyncClient
) -> None:
    key, other_key = await make_key(secured, "school-k"), await make_key(secured, "school-k")
    token, other_token = await mint(http, key, "k1"), await mint(http, other_key, "k1")
    assert (await http.get("/v1/scans", headers=bearer(token))).status_code == 200
    services: Resources = secured.state.services
    async with services.sessionmaker() as session:
        assert await ApiKeyRepository(session).revoke(key_id_of(key) or "")
        await session.commit()
    refused = await http.get("/v1/scans", headers=bearer(token))
    assert refused.status_code == 401 and error(refused) == "invalid_token"
    assert (await http.get("/v1/scans", headers=bearer(key))).status_code == 401
    # Tokens of the tenant's other key keep working.
    assert (await http.get("/v1/scans", headers=bearer(other_token))).status_code == 200


async def test_a_tenant_key_in_a_url_is_refused(secured: FastAPI, http: httpx.AsyncClient) -> None:
    key = await make_key(secured, "school-l")
    mine = await scan(http, key, user_id="l1")
    for path, params, headers in (
        (f"/v1/scans/{mine['scan_id']}/events", {"access_token": key}, {}),
        (f"/v1/scans/{mine['scan_id']}/events", {"access_token": key}, bearer(key)),
        (f"/v1/scans/{mine['scan_id']}", {"api_key": key}, bearer(key)),
        ("/v1/scans", {"user_id": "l1", "key": key}, {}),
        ("/v1/scans", {"x": f"Bearer {key}"}, bearer(key)),  # not where the value starts
        ("/v1/scans", {"note": f"my key is {key}."}, bearer(key)),
        ("/v1/scans", {key: "1"}, bearer(key)),  # as a parameter's name
    ):
        response = await http.get(path, params=params, headers=headers)
        assert response.status_code == 401, (path, response.text)
        assert error(response) == "api_key_in_url"
        assert "never" in response.json()["error"]["message"]
    # The key in its header keeps working for server-to-server use.
    assert (await http.get(f"/v1/scans/{mine['scan_id']}", headers=bearer(key))).status_code == 200


async def test_a_key_hidden_anywhere_in_a_url_is_refused(
    secured: FastAPI, http: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Round 16: each of these was a 200 (a key inside a word, in upper case, encoded twice,
    split after its id, on a route that reads no key, in a path segment)."""
    key = await make_key(secured, "school-l")
    key_id, secret = key.split("_")[1], key.split("_", 2)[2]
    twice = "".join(f"%25{ord(c):02x}" for c in key)
    for url in (
        f"/v1/scans?x=abc{key}",
        f"/v1/scans?x={key.upper()}",
        f"/v1/scans?x={twice}",
        f"/v1/scans?a=sv_{key_id}&b={secret}",
        f"/v1/scans?x=sv_%E2%80%8B{key.removeprefix('sv_')}",
        f"/v1/scans?{key}",
        f"/v1/scans?x={key}&x={key}",  # the key before the repeated name
        f"/healthz?x={key}",
        f"/readyz?x={key}",
        f"/no-such-route?x={key}",
        f"/v1/scans/{key}",
    ):
        with caplog.at_level(logging.WARNING, logger="app.api.url_guard"):
            response = await http.get(url, headers=bearer(key))
        assert response.status_code == 401, (url, response.text)
        assert error(response) == "api_key_in_url"
        assert response.headers["www-authenticate"] == "Bearer"
    assert key_id in caplog.text and secret[:8] not in caplog.text  # the id, never the secret
    assert (await http.get("/healthz?x=sv_short")).status_code == 200  # no key id: no key


async def test_keys_in_a_url_are_each_named_and_none_is_logged(
    secured: FastAPI, http: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Round 16's re-test: a second key in the URL went unnamed, five encodings hid one, a key
    in the URL of a body over its cap was a 413 with no warning, a split key's secret was in
    the access log, and an X-Request-ID holding a key was echoed and logged."""
    first, second = await make_key(secured, "school-l"), await make_key(secured, "school-m")
    ids = [k.split("_")[1] for k in (first, second)]
    five = first.replace("sv_", "%2525252573v_", 1)
    with caplog.at_level(logging.WARNING, logger="app.api.url_guard"):
        for response in (
            await http.get(f"/v1/scans?a={first}&b={second}", headers=bearer(first)),
            await http.get(f"/v1/scans?x={five}", headers=bearer(first)),
            await http.post(f"/v1/scans?k={first}", content=b"1" * 70_000, headers=bearer(first)),
        ):
            assert response.status_code == 401 and error(response) == "api_key_in_url"
    assert all(i in caplog.text for i in ids)
    secret = first.split("_", 2)[2]
    for url in (f"/v1/scans?a=sv_{ids[0]}&b={secret}", f"/v1/{secret}?k=sv_{ids[0]}"):
        assert redact_url_credentials(url) == "[redacted]"
    echoed = await http.get("/healthz", headers={"X-Request-ID": first})
    assert echoed.headers["x-request-id"] != first and ids[0] not in echoed.headers["x-request-id"]


async def test_idempotency_keys_are_per_user(secured: FastAPI, http: httpx.AsyncClient) -> None:
    key = await make_key(secured, "school-m")
    u1, u2 = await mint(http, key, "m1"), await mint(http, key, "m2")
    same = {"Idempotency-Key": "shared-key-1"}
    first = await http.post("/v1/scans", json=PROBLEM, headers={**bearer(u1), **same})
    replay = await http.post("/v1/scans", json=PROBLEM, headers={**bearer(u1), **same})
    other = await http.post("/v1/scans", json=PROBLEM, headers={**bearer(u2), **same})
    assert first.status_code == replay.status_code == other.status_code == 201
    assert replay.headers.get("idempotent-replayed") == "true"
    assert replay.json()["scan_id"] == first.json()["scan_id"]
    # u2 gets a scan of its own, never a replay of u1's.
    assert "idempotent-replayed" not in other.headers
    assert other.json()["scan_id"] != first.json()["scan_id"]
    assert (
        await http.get(f"/v1/scans/{other.json()['scan_id']}", headers=bearer(u2))
    ).status_code == 200


async def test_a_tokens_requests_are_counted_on_their_own(
    secured: FastAPI, http: httpx.AsyncClient
) -> None:
    if time.time() % 60 > 50:  # the limits count in one-minute windows: stay in one
        await asyncio.sleep(61 - time.time() % 60)
    key = await make_key(secured, "school-n")
    u1, u2 = await mint(http, key, "n1"), await mint(http, key, "n2")
    for _ in range(3):
        await http.get("/v1/scans", headers=bearer(u1))
    remaining = {
        name: int((await http.get("/v1/scans", headers=bearer(c))).headers["ratelimit-remaining"])
        for name, c in (("u1", u1), ("u2", u2), ("key", key))
    }
    # u1 used 4, u2 1; the key 3 (two mints, this request): one student cannot use up
    # the school's limit or a classmate's.
    assert remaining == {"u1": 996, "u2": 999, "key": 997}


async def test_one_secret_for_every_process(secured: FastAPI, tmp_path: Path) -> None:
    """Another server process on the same database accepts what this one signed (the secret
    lives in the database when none is configured); a server with a configured secret of its
    own does not."""
    services: Resources = secured.state.services
    database = services.settings.database.url
    path = Path(database.removeprefix("sqlite+aiosqlite:///"))
    key = await make_key(secured, "school-o")
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=secured), base_url="http://test"
    ) as first:
        token = await mint(first, key, "o1")
    second = create_app(secured_settings(path))
    configured = create_app(
        secured_settings(path, token_secret=SecretStr("another-secret-for-this-deployment"))
    )
    for app, expected in ((second, 200), (configured, 401)):
        async with (
            LifespanManager(app, startup_timeout=120, shutdown_timeout=60),
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://test"
            ) as client,
        ):
            response = await client.get("/v1/scans", headers=bearer(token))
            assert response.status_code == expected, response.text
            if expected == 200:
                again = await mint(client, key, "o1")
                assert (await client.get("/v1/scans", headers=bearer(again))).status_code == 200


def test_stream_slots_per_user() -> None:
    slots = StreamSlots(limit=10, per_tenant=5, per_user=2)
    assert slots.take("t", "u1") and slots.take("t", "u1")
    assert not slots.take("t", "u1")  # one student holds at most its share
    assert slots.take("t", "u2") and slots.take("t", None)  # the school's streams still open
    assert slots.take("t", "u3")
    assert not slots.take("t", "u4")  # the tenant's share is used up
    slots.give_back("t", "u1")
    assert slots.take("t", "u1")
    for user in ("u1", "u1", "u2", None, "u3"):
        slots.give_back("t", user)
    assert slots.open == 0


def test_access_log_lines_never_hold_credentials(caplog: pytest.LogCaptureFixture) -> None:
    token = "svt_WzEsInNjaG9vbC1hIiwidXNlcl84YzFmMmEi.x0sirP4Jfdh-ieF-Xs"
    key = new_key().key
    logger = logging.getLogger("tests.access")
    logger.addFilter(RedactUrlCredentials())
    with caplog.at_level(logging.INFO, logger="tests.access"):
        logger.info(
            '%s - "%s %s HTTP/%s" %d',
            "127.0.0.1:5000",
            "GET",
            f"/v1/scans/x/events?access_token={token}&x=1",
            "1.1",
            200,
        )
        logger.info(
            '%s - "%s %s HTTP/%s" %d', "1.2.3.4:1", "GET", f"/v1/scans?key={key}", "1.1", 401
        )
    text = caplog.text
    assert token not in text and key not in text and key.split("_", 2)[2] not in text
    assert "access_token=[redacted]&x=1" in text and '"GET [redacted] HTTP/1.1" 401' in text
    assert redact_url_credentials("/v1/scans/x/events?ACCESS%5FTOKEN=abc") == (
        "/v1/scans/x/events?ACCESS%5FTOKEN=[redacted]"
    )
    # Percent-encoded names and values are judged as the server decodes them.
    tail = token.removeprefix("svt_")
    for query, kept in [
        (f"%61ccess_token=%73vt_{tail}", "%61ccess_token=[redacted]"),
        (f"a=1&b={token}&c=2", "a=1&b=[redacted]&c=2"),
        (f"svt_{tail}=1&a=2", "[redacted]&a=2"),  # the token as the parameter's name
    ]:
        assert redact_url_credentials(f"/healthz?{query}") == f"/healthz?{kept}", query
    # A URL with an API key anywhere is refused, and logged as nothing of it: the key's
    # secret may sit in any part of it ("?a=sv_<id>&b=<secret>").
    for query in [
        f"x=%73v_{key.removeprefix('sv_')}",
        "x=" + "".join(f"%{ord(c):02x}" for c in key),
        f"{key}=1&a=2",  # the key as the parameter's name
        "x=" + "".join(f"%25{ord(c):02x}" for c in key),  # encoded twice
        f"x=sv_\u200b{key.removeprefix('sv_')}",  # a zero-width space
        f"x=sv_{key[3:9]}\u3164{key[9:]}",  # a Hangul filler
    ]:
        assert redact_url_credentials(f"/healthz?{query}") == "[redacted]", query
    assert redact_url_credentials("/v1/scans?cursor=abc&limit=5") == "/v1/scans?cursor=abc&limit=5"


def test_openapi_shows_the_route_and_the_security_schemes() -> None:
    document = create_app().openapi()
    schemes = document["components"]["securitySchemes"]
    assert schemes["bearer"]["type"] == "http" and schemes["bearer"]["scheme"] == "bearer"
    assert schemes["accessTokenQuery"] == {
        "type": "apiKey",
        "in": "query",
        "name": "access_token",
        "description": schemes["accessTokenQuery"]["description"],
    }
    mint_op = document["paths"]["/v1/tokens"]["post"]
    assert mint_op["operationId"] == "createToken"
    assert {"201", "401", "403", "422"} <= set(mint_op["responses"])
    assert mint_op["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/TokenCreate"
    }
    assert {"bearer": []} in mint_op["security"]
    stream = document["paths"]["/v1/scans/{scan_id}/events"]["get"]
    assert {"accessTokenQuery": []} in stream["security"] and {"bearer": []} in stream["security"]
    for path in ("/v1/scans", "/v1/scans/{scan_id}"):
        for operation in document["paths"][path].values():
            assert {"accessTokenQuery": []} not in operation.get("security", [])
    described = document["paths"]["/v1/scans"]["get"]["responses"]["401"]["description"]
    assert "invalid_token" in described and "api_key_in_url" in described


async def test_the_stored_secret_is_one_for_every_process(services: Resources) -> None:
    """On each backend (SQLite, Postgres): authenticators of separate processes (here: each
    with its own cache), racing for the first secret, all sign with the same one."""
    from app.auth.service import KeyAuthenticator

    auth = services.settings.auth
    fresh = [KeyAuthenticator.from_settings(services.sessionmaker, auth) for _ in range(4)]
    secrets = await asyncio.gather(*(a.token_secret() for a in fresh))
    assert len(set(secrets)) == 1 and len(secrets[0]) == 32
    assert await services.authenticator.token_secret() == secrets[0]
    later = KeyAuthenticator.from_settings(services.sessionmaker, auth)
    assert await later.token_secret() == secrets[0]
