"""Connections cannot be hoarded (issue 26, finding 1), against a real `serve`: sockets that
send nothing, trickle their headers a byte at a time, or stop mid-body are closed at their
deadline, so they never hold the connection limit and /healthz answers fast meanwhile."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.fixtures.processes import serve, stop

HEADER_TIMEOUT_S = 1.5
BODY_TIMEOUT_S = 3.0
LIMIT = 150  # connections uvicorn serves at once (beyond: 503 for everything)
IDLE_SOCKETS = 200


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    directory: Path = tmp_path_factory.mktemp("serve-deadlines")
    env = {
        "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{directory / 'serve.db'}",
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        "SOLVEVERIFY_API_HTTP_HEADER_TIMEOUT_S": str(HEADER_TIMEOUT_S),
        "SOLVEVERIFY_API_HTTP_BODY_TIMEOUT_S": str(BODY_TIMEOUT_S),
        "SOLVEVERIFY_API_HTTP_LIMIT_CONCURRENCY": str(LIMIT),
    }
    process, base = serve(directory, env)
    try:
        yield base
    finally:
        stop(process)


def connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    return sock


def closed_by_server(sock: socket.socket, within_s: float) -> float | None:
    """Seconds until the server closed `sock` (EOF or reset), None if it stayed open."""
    started = time.monotonic()
    sock.settimeout(within_s)
    try:
        while sock.recv(65536):
            pass  # a 4xx the server may send first
    except TimeoutError:
        return None
    except OSError:
        pass  # reset: closed too
    return time.monotonic() - started


def healthz_ms(base: str, n: int = 20) -> list[tuple[int, float]]:
    probes = []
    with httpx.Client(base_url=base, timeout=10) as http:
        for _ in range(n):
            started = time.perf_counter()
            status = http.get("/healthz").status_code
            probes.append((status, (time.perf_counter() - started) * 1000))
    return probes


def median_ms(probes: list[tuple[int, float]]) -> float:
    return sorted(ms for _, ms in probes)[len(probes) // 2]


def test_idle_sockets_are_closed_and_healthz_stays_fast(server: str) -> None:
    # On a shared, busy machine the absolute time varies: compare with the same server idle.
    baseline = median_ms(healthz_ms(server))
    sockets = [connect(server) for _ in range(IDLE_SOCKETS)]
    try:
        opened = time.monotonic()
        # Over the limit, uvicorn refuses everything until the idle sockets are gone.
        time.sleep(HEADER_TIMEOUT_S + 1.0)
        waited = [closed_by_server(s, within_s=2.0) for s in sockets]
        assert all(w is not None for w in waited), waited.count(None)
        assert time.monotonic() - opened < HEADER_TIMEOUT_S + 5
        probes = healthz_ms(server)
        assert {status for status, _ in probes} == {200}, probes
        assert median_ms(probes) < max(100, 3 * baseline), (baseline, probes)
    finally:
        for sock in sockets:
            sock.close()


def test_headers_trickled_a_byte_at_a_time_are_cut_off(server: str) -> None:
    sock = connect(server)
    request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200
    stop_sending = threading.Event()

    def trickle() -> None:
        for byte in request:
            if stop_sending.is_set():
                return
            with contextlib.suppress(OSError):
                sock.send(bytes([byte]))
            time.sleep(0.1)

    sender = threading.Thread(target=trickle, daemon=True)
    sender.start()
    try:
        seconds = closed_by_server(sock, within_s=HEADER_TIMEOUT_S + 3)
        assert seconds is not None and seconds < HEADER_TIMEOUT_S + 1, seconds
    finally:
        stop_sending.set()
        sender.join()
        sock.close()


def test_a_body_that_stops_arriving_is_cut_off(server: str) -> None:
    sock = connect(server)
    try:
        sock.sendall(
            b"POST /v1/scans HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 1000\r\n\r\n{"text": "'
        )
        seconds = closed_by_server(sock, within_s=BODY_TIMEOUT_S + 3)
        assert seconds is not None and BODY_TIMEOUT_S - 0.5 < seconds < BODY_TIMEOUT_S + 1.5
    finally:
        sock.close()


def test_a_kept_alive_connection_gets_a_new_deadline_per_request(server: str) -> None:
    with httpx.Client(base_url=server, timeout=10) as http:
        for _ in range(3):  # one connection, requests spaced under the header deadline
            assert http.get("/healthz").status_code == 200
            time.sleep(HEADER_TIMEOUT_S / 2)
    sock = connect(server)
    try:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        # The response restarted the clock: silence after it ends the connection as before.
        seconds = closed_by_server(sock, within_s=HEADER_TIMEOUT_S + 3)
        assert seconds is not None and seconds < HEADER_TIMEOUT_S + 1
    finally:
        sock.close()


def test_a_slow_request_being_worked_on_is_not_cut_off(server: str) -> None:
    # An event stream stays open past both deadlines: the app has the whole request.
    with httpx.Client(base_url=server, timeout=30) as http:
        scan = http.post(
            "/v1/scans", json={"text": "1 + 1 = ?"}, headers={"Prefer": "respond-async"}
        )
        assert scan.status_code == 202, scan.text
        started = time.monotonic()
        with http.stream("GET", f"/v1/scans/{scan.json()['scan_id']}/events") as stream:
            for _ in stream.iter_lines():
                if time.monotonic() - started > BODY_TIMEOUT_S + 1:
                    break
        assert time.monotonic() - started > BODY_TIMEOUT_S
