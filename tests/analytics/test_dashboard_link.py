"""`solveverify dashboard-link`: a signed, expiring link that opens /dashboard on a server with
auth on (real CLI, real `serve`); a tampered or expired link does not. The token travels in
the fragment, which the login page's script POSTs to /dashboard/session (done by hand here;
tests/auth/test_dashboard_sessions.py runs the script in Chromium)."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import httpx

from app.auth import dashboard_tokens
from tests.fixtures.processes import run_cli, serve, stop

SECRET = "dashboard-link-test-secret"


def token_of(link: str) -> str:
    return unquote(urlsplit(link).fragment.removeprefix("token="))


def exchange(browser: httpx.Client, base: str, token: str) -> httpx.Response:
    """What the login page's script does with the fragment: POST it, from the page's origin."""
    return browser.post(
        f"{base}/dashboard/session",
        data={"token": token},
        headers={"Origin": base},
        follow_redirects=True,
    )


def test_link_opens_the_dashboard_until_it_expires(tmp_path: Path) -> None:
    env = {
        "SOLVEVERIFY_AUTH_REQUIRED": "true",
        "SOLVEVERIFY_API_DASHBOARD_SECRET": SECRET,
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
    }
    process, base = serve(tmp_path, env)
    try:
        made = run_cli(
            "dashboard-link", "--minutes", "5", "--base-url", base, cwd=tmp_path, env=env
        )
        assert made.returncode == 0, made.stderr
        link = made.stdout.strip()
        assert link.startswith(f"{base}/dashboard#token=")
        token = token_of(link)
        expires = int(token.split(".")[0])
        assert 290 <= expires - time.time() <= 300  # --minutes 5

        with httpx.Client(timeout=30) as browser:
            assert browser.get(f"{base}/dashboard").status_code == 401  # auth is on
            opened = exchange(browser, base, token)
            assert opened.status_code == 200 and "Verified rate by provider" in opened.text
            assert str(opened.url) == f"{base}/dashboard"
            # The cookie keeps the page open, and ends when the link does (not 15 min later).
            cookie = next(c for c in browser.cookies.jar if c.name == "solveverify_dashboard")
            assert cookie.expires is not None and abs(cookie.expires - expires) <= 2
            assert browser.get(f"{base}/dashboard").status_code == 200

        tampered = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
        expired = dashboard_tokens.sign(SECRET, 60, now=time.time() - 120)
        for bad in (tampered, expired):
            with httpx.Client(timeout=30) as browser:
                assert exchange(browser, base, bad).status_code == 401
    finally:
        stop(process)


def test_link_needs_the_servers_secret(tmp_path: Path) -> None:
    # Without a shared secret a server signs with a random one of its own: refuse clearly.
    made = run_cli("dashboard-link", cwd=tmp_path)
    assert made.returncode == 2
    assert "SOLVEVERIFY_API_DASHBOARD_SECRET" in made.stderr


def test_default_lifetime_is_the_configured_ttl(tmp_path: Path) -> None:
    env = {
        "SOLVEVERIFY_API_DASHBOARD_SECRET": SECRET,
        "SOLVEVERIFY_API_DASHBOARD_LINK_TTL_S": "120",
    }
    made = run_cli("dashboard-link", cwd=tmp_path, env=env)
    assert made.returncode == 0, made.stderr
    token = token_of(made.stdout.strip())
    assert dashboard_tokens.verify(SECRET, token)
    assert 110 <= int(token.split(".")[0]) - time.time() <= 120
