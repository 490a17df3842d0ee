"""Connections cannot be hoarded (issue 26, finding 1), against a real `serve`: sockets that
send nothing, trickle their headers a byte at a time, or stop mid-body are closed at their
deadline, and idle sockets never count against the concurrency limit, so /healthz answers fast
with 1,000 of them open (the issue's acceptance, at the server's default settings)."""

from __future__ import annotations

import contextlib
import http.client
import resource
import socket
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from solveverify_bench.perf.stack import CLI, cli_env, free_port, spawn, wait_until_up
from tests.fixtures.processes import serve, stop

HEADER_TIMEOUT_S = 1.5
BODY_TIMEOUT_S = 3.0
LIMIT = 5  # requests uvicorn works on at once (beyond: 503); connections owing one not counted
IDLE_SOCKETS = 1000
SLOW_SOCKETS = 50
DEFAULT_HEADER_TIMEOUT_S = 5.0  # ApiSettings.http_header_timeout_s
SERVER_SOFT_NOFILE = 1024  # systemd's default soft limit: the server must lift its own


def _raise_own_nofile(wanted: int) -> None:
    """This process holds the 1,000 client sockets: lift its soft limit if it is lower."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def sqlite_env(directory: Path) -> dict[str, str]:
    return {
        "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{directory / 'serve.db'}",
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
    }


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    directory: Path = tmp_path_factory.mktemp("serve-deadlines")
    env = {
        **sqlite_env(directory),
        "SOLVEVERIFY_API_HTTP_HEADER_TIMEOUT_S": str(HEADER_TIMEOUT_S),
        "SOLVEVERIFY_API_HTTP_BODY_TIMEOUT_S": str(BODY_TIMEOUT_S),
        "SOLVEVERIFY_API_HTTP_LIMIT_CONCURRENCY": str(LIMIT),
    }
    process, base = serve(directory, env)
    try:
        yield base
    finally:
        stop(process)


@pytest.fixture(scope="module")
def default_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`solveverify serve` with every HTTP setting at its default (connection limit 1,000,
    header deadline 5 s), started with a soft limit of 1,024 open files."""
    _raise_own_nofile(4 * IDLE_SOCKETS)
    directory: Path = tmp_path_factory.mktemp("serve-defaults")
    port = free_port()
    log = directory / "server.log"
    lower_then_exec = (
        "import os, resource, sys; "
        "hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]; "
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({SERVER_SOFT_NOFILE}, hard)); "
        "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
    )
    args = [sys.executable, "-c", lower_then_exec, *CLI[1:], "serve", "--port", str(port)]
    process = spawn(args, directory, cli_env(sqlite_env(directory)), log)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(process, f"{base}/readyz", log)
        yield base
    finally:
        stop(process)
        assert "EMFILE" not in log.read_text() and "Too many open files" not in log.read_text()


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


def still_open(sock: socket.socket) -> bool:
    """Neither EOF nor a reset is waiting on `sock` (without blocking)."""
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""  # b"": the server closed it
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)


def healthz_ms(base: str, n: int = 20) -> list[tuple[int, float]]:
    """n probes, each a fresh connection (like a load balancer's): status and milliseconds
    from connect to the whole response."""
    host, port = base.removeprefix("http://").split(":")
    probes = []
    for _ in range(n):
        started = time.perf_counter()
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            conn.request("GET", "/healthz")
            response = conn.getresponse()
            response.read()
            probes.append((response.status, (time.perf_counter() - started) * 1000))
        finally:
            conn.close()
    return probes


def median_ms(probes: list[tuple[int, float]]) -> float:
    return statistics.median(ms for _, ms in probes)


def test_healthz_answers_within_100_ms_with_1000_idle_sockets_open(default_server: str) -> None:
    """The acceptance: /healthz within 100 ms with 1,000 idle sockets open, at the defaults."""
    baseline = healthz_ms(default_server)
    sockets = [connect(default_server) for _ in range(IDLE_SOCKETS)]
    opened = time.monotonic()
    slow = [connect(default_server) for _ in range(SLOW_SOCKETS)]
    stop_trickling = threading.Event()

    def trickle() -> None:  # every slow socket one more header byte every 0.5 s
        for sock in slow:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        while not stop_trickling.wait(0.5):
            for sock in slow:
                with contextlib.suppress(OSError):
                    sock.send(b"a")

    trickler = threading.Thread(target=trickle, daemon=True)
    trickler.start()
    try:
        time.sleep(0.5)
        probes = healthz_ms(default_server, n=30)
        measured_within = time.monotonic() - opened
        # Every idle socket was still open while /healthz was measured.
        assert measured_within < DEFAULT_HEADER_TIMEOUT_S - 1, measured_within
        assert all(still_open(sock) for sock in sockets)
        latencies = sorted(ms for _, ms in probes)
        print(
            f"/healthz with {IDLE_SOCKETS} idle + {SLOW_SOCKETS} slow sockets: median "
            f"{median_ms(probes):.1f} ms, max {latencies[-1]:.1f} ms (idle server: median "
            f"{median_ms(baseline):.1f} ms)"
        )
        assert {status for status, _ in probes} == {200}, probes
        assert median_ms(probes) < 100, probes
        # On a shared, busy machine one probe may be descheduled: 29 of 30 within 100 ms.
        assert latencies[-2] < 100, probes
        assert latencies[-1] < 500, probes

        # The header deadline then closes every one of them, the trickling ones included.
        time.sleep(max(0.0, opened + DEFAULT_HEADER_TIMEOUT_S - time.monotonic()))
        waited = [closed_by_server(s, within_s=2.0) for s in [*sockets, *slow]]
        assert waited.count(None) == 0, waited.count(None)
        assert time.monotonic() - opened < DEFAULT_HEADER_TIMEOUT_S + 4
        assert {status for status, _ in healthz_ms(default_server, n=5)} == {200}
    finally:
        stop_trickling.set()
        trickler.join()
        for sock in [*sockets, *slow]:
            sock.close()


def test_the_limit_counts_requests_not_idle_connections(server: str) -> None:
    # Four times the limit in idle sockets: requests are still served.
    sockets = [connect(server) for _ in range(4 * LIMIT)]
    try:
        time.sleep(0.2)
        assert {status for status, _ in healthz_ms(server, n=5)} == {200}
    finally:
        for sock in sockets:
            sock.close()
    # LIMIT requests in progress (their bodies still arriving): the next one is refused.
    posting = [connect(server) for _ in range(LIMIT)]
    try:
        for sock in posting:
            sock.sendall(
                b"POST /v1/scans HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b'Content-Length: 1000\r\n\r\n{"text": "'
            )
        time.sleep(0.3)
        assert {status for status, _ in healthz_ms(server, n=3)} == {503}
        # Once the body deadline has closed them, requests are served again.
        for sock in posting:
            assert closed_by_server(sock, within_s=BODY_TIMEOUT_S + 3) is not None
        assert {status for status, _ in healthz_ms(server, n=3)} == {200}
    finally:
        for sock in posting:
            sock.close()


def test_idle_sockets_are_closed_at_the_header_deadline(server: str) -> None:
    sockets = [connect(server) for _ in range(200)]
    try:
        opened = time.monotonic()
        time.sleep(HEADER_TIMEOUT_S + 0.5)
        waited = [closed_by_server(s, within_s=2.0) for s in sockets]
        assert all(w is not None for w in waited), waited.count(None)
        assert time.monotonic() - opened < HEADER_TIMEOUT_S + 5
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
