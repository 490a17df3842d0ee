"""Dashboard sessions like a bank's (issue 26, finding 7): a session lives as long as the token
it was opened with, tokens never ride in a URL the server sees, the cookie is Secure over
HTTPS, the forms refuse other origins, and failed logins are throttled like the API's."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from pydantic import SecretStr

from app.auth import dashboard_tokens
from app.auth.key_repository import ApiKeyRepository
from app.auth.keys import Role, new_key
from app.main import create_app
from app.resources import Resources
from app.settings import ApiSettings, AuthSettings, RetrievalSettings
from tests.conftest import settings_for
from tests.fixtures.processes import run_cli, serve, stop

SECRET = "dashboard-session-secret"
FAILED_PER_MINUTE = 3


@pytest.fixture
async def secured(tmp_path: Path) -> AsyncIterator[FastAPI]:
    settings = settings_for(f"sqlite+aiosqlite:///{tmp_path / 'dash.db'}").model_copy(
        update={
            "auth": AuthSettings(
                required=True, rate_limit_per_minute=0, failed_auth_per_minute=FAILED_PER_MINUTE
            ),
            "api": ApiSettings(dashboard_secret=SecretStr(SECRET)),
            "retrieval": RetrievalSettings(load_on_start=False),
        }
    )
    application = create_app(settings)
    async with LifespanManager(application, startup_timeout=120, shutdown_timeout=60):
        yield application


def browser(app: FastAPI, base: str = "http://test") -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app, client=("192.0.2.10", 5000)), base_url=base
    )


async def make_key(app: FastAPI, role: Role) -> str:
    services: Resources = app.state.services
    key = new_key()
    async with services.sessionmaker() as session:
        ApiKeyRepository(session).add(key, tenant="acme", role=role)
        await session.commit()
    return key.key


def session_cookie(response: httpx.Response) -> str:
    return next(v for v in response.headers.get_list("set-cookie") if "solveverify_dashboard=" in v)


async def test_a_session_ends_when_its_link_does(secured: FastAPI) -> None:
    token = dashboard_tokens.sign(SECRET, 60)
    async with browser(secured) as http:
        opened = await http.post(
            "/dashboard/session", data={"token": token}, headers={"Origin": "http://test"}
        )
        assert opened.status_code == 303
        cookie = session_cookie(opened)
        assert f"solveverify_dashboard={token};" in cookie  # the same token: no fresher one
        max_age = int(cookie.split("Max-Age=")[1].split(";")[0])
        assert 55 <= max_age <= 60
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Secure" not in cookie
        assert (await http.get("/dashboard")).status_code == 200
        # Exchanging the cookie's value again gives the same expiry, never a renewed one.
        again = await http.post(
            "/dashboard/session", data={"token": token}, headers={"Origin": "http://test"}
        )
        assert f"solveverify_dashboard={token};" in session_cookie(again)
    expired = dashboard_tokens.sign(SECRET, 1, now=time.time() - 5)
    async with browser(secured) as http:
        http.cookies.set("solveverify_dashboard", expired, path="/dashboard")
        assert (await http.get("/dashboard")).status_code == 401


async def test_a_token_in_the_query_string_opens_nothing(secured: FastAPI) -> None:
    token = dashboard_tokens.sign(SECRET, 60)
    async with browser(secured) as http:
        response = await http.get(f"/dashboard?token={token}")
    assert response.status_code == 401 and "set-cookie" not in response.headers
    assert 'action="/dashboard/session"' in response.text  # the page that POSTs a fragment


@pytest.mark.parametrize(
    ("setting", "base", "secure"),
    [("auto", "http://test", False), ("auto", "https://test", True),
     ("always", "http://test", True), ("never", "https://test", False)],
)  # fmt: skip
async def test_the_cookie_is_secure_over_https(
    secured: FastAPI, setting: str, base: str, secure: bool
) -> None:
    services: Resources = secured.state.services
    services.settings.api.dashboard_cookie_secure = setting  # type: ignore[assignment]
    token = dashboard_tokens.sign(SECRET, 60)
    async with browser(secured, base) as http:
        opened = await http.post(
            "/dashboard/session", data={"token": token}, headers={"Origin": base}
        )
    assert opened.status_code == 303
    assert ("Secure" in session_cookie(opened)) is secure


@pytest.mark.parametrize(
    "headers",
    [{"Origin": "https://evil.example"}, {"Origin": "null"},
     {"Referer": "https://evil.example/page"}, {"Sec-Fetch-Site": "cross-site"},
     {"Origin": "http://test.evil.example"}],
)  # fmt: skip
async def test_forms_refuse_other_origins(secured: FastAPI, headers: dict[str, str]) -> None:
    analyst = await make_key(secured, "platform")
    token = dashboard_tokens.sign(SECRET, 60)
    async with browser(secured) as http:
        login = await http.post("/dashboard/login", data={"api_key": analyst}, headers=headers)
        link = await http.post("/dashboard/session", data={"token": token}, headers=headers)
    assert login.status_code == link.status_code == 403
    assert "set-cookie" not in login.headers and "set-cookie" not in link.headers


async def test_same_origin_forms_work(secured: FastAPI) -> None:
    analyst = await make_key(secured, "platform")
    for headers in ({"Origin": "http://test"}, {"Referer": "http://test/dashboard"}, {}):
        async with browser(secured) as http:
            login = await http.post("/dashboard/login", data={"api_key": analyst}, headers=headers)
            assert login.status_code == 303, (headers, login.text)
            assert (await http.get("/dashboard")).status_code == 200


async def test_a_form_field_or_an_authorization_sent_twice_opens_nothing(
    secured: FastAPI,
) -> None:
    """Round 16: `api_key=bad&api_key=<platform key>` logged in (the last one won), and two
    Authorization headers let the first act."""
    platform, student = await make_key(secured, "platform"), await make_key(secured, "student")
    same = {"Origin": "http://test", "Content-Type": "application/x-www-form-urlencoded"}
    async with browser(secured) as http:
        login = await http.post(
            "/dashboard/login", content=f"api_key=bad&api_key={platform}", headers=same
        )
        link = await http.post("/dashboard/session", content="token=bad&token=1.x", headers=same)
        assert login.status_code == link.status_code == 422
        assert "set-cookie" not in login.headers and "set-cookie" not in link.headers
        two = [("authorization", f"Bearer {platform}"), ("authorization", f"Bearer {student}")]
        assert (await http.get("/dashboard", headers=two)).status_code == 401
        one = {"authorization": f"Bearer {platform}"}
        assert (await http.get("/dashboard", headers=one)).status_code == 200


async def test_failed_logins_are_throttled_and_a_valid_key_still_gets_in(secured: FastAPI) -> None:
    platform, analyst = await make_key(secured, "platform"), await make_key(secured, "analyst")
    same = {"Origin": "http://test"}
    async with browser(secured) as http:
        statuses = []
        # A tenant's analyst key is a failure too: the dashboard spans every tenant.
        for guess in ["sv_0123456789ab_x", analyst, "not-a-key", "sv_0123456789ab_y", "\x00"]:
            response = await http.post("/dashboard/login", data={"api_key": guess}, headers=same)
            statuses.append(response.status_code)
        assert statuses == [401] * FAILED_PER_MINUTE + [429, 429]
        assert int(response.headers["retry-after"]) >= 1
        bad_link = await http.post("/dashboard/session", data={"token": "1.x"}, headers=same)
        assert bad_link.status_code == 429
        good = await http.post("/dashboard/login", data={"api_key": platform}, headers=same)
        assert good.status_code == 303


async def test_failed_bearer_keys_and_forged_cookies_on_the_page_count_too(
    secured: FastAPI,
) -> None:
    platform = await make_key(secured, "platform")
    async with browser(secured) as http:
        assert (await http.get("/dashboard")).status_code == 401  # a bare visit: not a failure
        statuses = [
            (
                await http.get("/dashboard", headers={"Authorization": f"Bearer sv_{i:012x}_x"})
            ).status_code
            for i in range(FAILED_PER_MINUTE)
        ]
        assert statuses == [401] * FAILED_PER_MINUTE
        http.cookies.set("solveverify_dashboard", "forged.cookie")
        throttled = await http.get("/dashboard")
        assert throttled.status_code == 429 and int(throttled.headers["retry-after"]) >= 1
        http.cookies.clear()
        good = await http.get("/dashboard", headers={"Authorization": f"Bearer {platform}"})
        assert good.status_code == 200  # the limiter never locks out a valid key


CHROMIUM = shutil.which("chromium")


@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed")
def test_a_link_opens_the_dashboard_in_a_real_browser(tmp_path: Path) -> None:
    env = {
        "SOLVEVERIFY_AUTH_REQUIRED": "true",
        "SOLVEVERIFY_API_DASHBOARD_SECRET": SECRET,
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
    }
    process, base = serve(tmp_path, env)
    try:
        made = run_cli(
            "dashboard-link", "--minutes", "2", "--base-url", base, cwd=tmp_path, env=env
        )
        assert made.returncode == 0, made.stderr
        link = made.stdout.strip()
        dom = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=10000",
             "--dump-dom", link],
            capture_output=True, text=True, timeout=120, check=True,
        ).stdout  # fmt: skip
    finally:
        stop(process)
    assert "Verified rate by provider" in dom, dom[:500]
    log = next(tmp_path.glob("server-*.log")).read_text()
    token = link.split("#token=")[1]
    assert "POST /dashboard/session" in log and token not in log


async def test_revoking_the_platform_key_ends_its_sessions(secured: FastAPI) -> None:
    """A session opened with a platform key names it: once the key is revoked (and the key
    cache has let go of it) the cookie opens nothing, as the key's own requests."""
    platform = await make_key(secured, "platform")
    services: Resources = secured.state.services
    async with browser(secured) as http:
        login = await http.post(
            "/dashboard/login", data={"api_key": platform}, headers={"Origin": "http://test"}
        )
        assert login.status_code == 303
        token = session_cookie(login).split("solveverify_dashboard=")[1].split(";")[0]
        session = dashboard_tokens.read(SECRET, token)
        assert session is not None and session.key_id == platform.split("_")[1]
        assert (await http.get("/dashboard")).status_code == 200
        async with services.sessionmaker() as db:
            assert await ApiKeyRepository(db).revoke(session.key_id)
            await db.commit()
        services.authenticator.forget()  # what the key cache does within key_cache_s
        assert (await http.get("/dashboard")).status_code == 401
        # An operator's link names no key: it lives until it expires.
        link = dashboard_tokens.sign(SECRET, 60)
        opened = await http.post(
            "/dashboard/session", data={"token": link}, headers={"Origin": "http://test"}
        )
        assert opened.status_code == 303
        assert (await http.get("/dashboard")).status_code == 200


def test_a_session_token_cannot_be_moved_to_another_key() -> None:
    token = dashboard_tokens.sign(SECRET, 60, key_id="0123456789ab")
    expires, key_id, signature = token.split(".")
    assert key_id == "0123456789ab"
    assert dashboard_tokens.read(SECRET, f"{expires}.ba9876543210.{signature}") is None
    assert dashboard_tokens.read(SECRET, f"{expires}.{signature}") is None
    assert dashboard_tokens.read(SECRET, f"{expires}.NOT-A-KEY-ID.{signature}") is None


@pytest.fixture
async def open_server(tmp_path: Path) -> AsyncIterator[FastAPI]:
    settings = settings_for(f"sqlite+aiosqlite:///{tmp_path / 'open.db'}").model_copy(
        update={
            "auth": AuthSettings(required=False, rate_limit_per_minute=0),
            "api": ApiSettings(dashboard_secret=SecretStr(SECRET)),
            "retrieval": RetrievalSettings(load_on_start=False),
        }
    )
    application = create_app(settings)
    async with LifespanManager(application, startup_timeout=120, shutdown_timeout=60):
        yield application


async def test_an_open_server_with_keys_shows_no_tenant_to_anonymous_callers(
    open_server: FastAPI,
) -> None:
    """Open (no auth required), one anonymous tenant: its callers read the analytics and the
    dashboard. Once keys are made the server holds keyed tenants' data, which they must not."""
    async with browser(open_server) as http:
        assert (await http.get("/v1/analytics/trend")).status_code == 200
        assert (await http.get("/dashboard")).status_code == 200
        analyst = await make_key(open_server, "analyst")
        open_server.state.services.authenticator.forget()
        for path in ("/v1/analytics/trend", "/v1/analytics/trend?tenant=acme"):
            refused = await http.get(path)
            assert refused.status_code == 403, (path, refused.text)
            assert "analyst" in refused.text
        assert (await http.get("/dashboard")).status_code == 401
        keyed = await http.get(
            "/v1/analytics/trend", headers={"Authorization": f"Bearer {analyst}"}
        )
        assert keyed.status_code == 200
