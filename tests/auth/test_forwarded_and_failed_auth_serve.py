"""The failed-auth limiter against a real `serve` (issue 26, finding 8): X-Forwarded-For is
believed only from configured proxies, so forged addresses neither dodge the limiter nor aim
it; and failures counted against an address never lock out a valid key sent from it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.fixtures.processes import run_cli, serve, stop

FAILED_PER_MINUTE = 30


def env_for(directory: Path, **extra: str) -> dict[str, str]:
    return {
        "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{directory / 'serve.db'}",
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        "SOLVEVERIFY_AUTH_REQUIRED": "true",
        "SOLVEVERIFY_AUTH_FAILED_AUTH_PER_MINUTE": str(FAILED_PER_MINUTE),
        **extra,
    }


@pytest.fixture
def started(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[str, str]]:
    env = env_for(tmp_path, **getattr(request, "param", {}))
    created = run_cli("keys", "create", "--tenant", "acme", cwd=tmp_path, env=env)
    assert created.returncode == 0, created.stderr
    process, base = serve(tmp_path, env)
    try:
        yield base, created.stdout.strip()
    finally:
        stop(process)


def codes(base: str, forwarded: list[str]) -> list[int]:
    with httpx.Client(base_url=base, timeout=30) as http:
        return [
            http.get(
                "/v1/scans",
                headers={"Authorization": f"Bearer sv_{n:012x}_guess", "X-Forwarded-For": address},
            ).status_code
            for n, address in enumerate(forwarded)
        ]


def test_forged_forwarded_addresses_do_not_dodge_the_limiter(started: tuple[str, str]) -> None:
    base, _ = started
    statuses = codes(base, [f"198.51.100.{n}" for n in range(60)])
    assert statuses[:FAILED_PER_MINUTE] == [401] * FAILED_PER_MINUTE
    assert set(statuses[FAILED_PER_MINUTE:]) == {429}


def test_a_valid_key_is_never_locked_out(started: tuple[str, str]) -> None:
    base, key = started
    assert set(codes(base, ["203.0.113.7"] * (FAILED_PER_MINUTE + 5))) == {401, 429}
    with httpx.Client(base_url=base, timeout=30) as http:
        good = http.get("/v1/scans", headers={"Authorization": f"Bearer {key}"})
        assert good.status_code == 200, good.text
        bad = http.get("/v1/scans", headers={"Authorization": "Bearer sv_0123456789ab_no"})
        assert bad.status_code == 429  # the address is still over its limit for bad keys


@pytest.mark.parametrize(
    "started", [{"SOLVEVERIFY_API_FORWARDED_ALLOW_IPS": "127.0.0.1"}], indirect=True
)
def test_a_configured_proxy_is_believed(started: tuple[str, str]) -> None:
    base, _ = started
    # Behind a trusted proxy each forwarded client has its own count.
    statuses = codes(base, [f"198.51.100.{n}" for n in range(40)])
    assert statuses == [401] * 40
