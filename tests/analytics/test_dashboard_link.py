"""`solveverify dashboard-link`: a signed, expiring link that opens /dashboard on a server with
auth on (real CLI, real `serve`); a tampered or expired link does not."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx

from app.auth import dashboard_tokens
from tests.fixtures.processes import run_cli, serve, stop

SECRET = "dashboard-link-test-secret"


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
        assert link.startswith(f"{base}/dashboard?token=")
        token = parse_qs(urlsplit(link).query)["token"][0]
        expires = int(token.split(".")[0])
        assert 290 <= expires - time.time() <= 300  # --minutes 5

        with httpx.Client(timeout=30) as browser:
            assert browser.get(f"{base}/dashboard").status_code == 401  # auth is on
            opened = browser.get(link, follow_redirects=True)
            assert opened.status_code == 200 and "Verified rate by provider" in opened.text
            # The token left the URL for an HttpOnly cookie, which keeps the page open.
            assert str(opened.url) == f"{base}/dashboard"
            assert browser.get(f"{base}/dashboard").status_code == 200

        tampered = link[:-2] + ("AA" if not link.endswith("AA") else "BB")
        expired = dashboard_tokens.sign(SECRET, 60, now=time.time() - 120)
        for bad in (tampered, f"{base}/dashboard?token={expired}"):
            assert httpx.get(bad, timeout=30).status_code == 401
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
    token = parse_qs(urlsplit(made.stdout.strip()).query)["token"][0]
    assert dashboard_tokens.verify(SECRET, token)
    assert 110 <= int(token.split(".")[0]) - time.time() <= 120
