"""Issue 28's acceptance: a student's browser, on the school's own origin, uses only a
per-student token minted by the school's backend (here: the test, with the tenant key) against
a real `serve` with auth required, in real headless Chromium (Debian `chromium`, installed by
.ci/run), driven over the DevTools protocol as in tests/analytics/test_dashboard_browser.py.

The page is served from another origin (a second local HTTP server; CORS allows it in the
service's settings). With the token alone it creates a scan (fetch POST), follows it over
EventSource (the token in the query string) to `done`, lists the student's history, and gets
404s for another student's scan (read, stream, erase); it writes what it saw into its DOM,
where the test reads and checks each. The access log keeps no token and no key."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.fixtures.processes import run_cli, serve, stop

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="Debian chromium is not installed (`apt-get install -y chromium`; .ci/run does)",
)
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--remote-debugging-port=0",  # the port it picked is written to DevToolsActivePort
]
PAGE_TIMEOUT_S = 45

# The student's app: nothing but the token (the school's backend handed it over).
PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>homework</title></head>
<body><pre id="results"></pre><script>
const API = %(api)s, TOKEN = %(token)s, OTHER = %(other)s;
const auth = {"Authorization": "Bearer " + TOKEN};
const results = {};

function follow(url, onEvent) {
  // Resolves "done", "failed", "refused" (the server said no: EventSource gives up),
  // or "timeout".
  return new Promise((resolve) => {
    const source = new EventSource(url);
    const finish = (how) => { source.close(); clearTimeout(timer); resolve(how); };
    const timer = setTimeout(() => finish("timeout"), 30000);
    for (const kind of ["ocr", "analyze", "retrieve", "solve", "quick_verify", "enrich"]) {
      source.addEventListener(kind, (e) => onEvent(kind, e));
    }
    source.addEventListener("done", (e) => { onEvent("done", e); finish("done"); });
    source.addEventListener("failed", (e) => { onEvent("failed", e); finish("failed"); });
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) finish("refused");
    };
  });
}

async function status(url, init) {
  const reply = await fetch(url, init);
  const text = await reply.text();
  let code = null;
  try { code = JSON.parse(text).error.code; } catch (e) {}
  return {status: reply.status, code: code};
}

async function run() {
  const created = await fetch(API + "/v1/scans", {
    method: "POST",
    headers: {...auth, "Content-Type": "application/json", "Prefer": "respond-async"},
    body: JSON.stringify({text: "Solve 2x + 3 = 11"}),
  });
  results.create_status = created.status;
  results.location = created.headers.get("Location");
  const scanId = (await created.json()).scan_id;
  results.scan_id = scanId;

  results.events = [];
  const stream = API + "/v1/scans/" + scanId + "/events?access_token=" + encodeURIComponent(TOKEN);
  results.stream_end = await follow(stream, (kind, e) => {
    results.events.push(kind);
    if (kind === "done") results.done = JSON.parse(e.data);
  });

  const page = await fetch(API + "/v1/scans?limit=100", {headers: auth});
  results.list_status = page.status;
  const items = (await page.json()).items || [];
  results.list_ids = items.map((item) => item.id);
  results.list_users = items.map((item) => item.user_id);

  results.other_get = await status(API + "/v1/scans/" + OTHER, {headers: auth});
  results.other_stream_fetch = await status(
    API + "/v1/scans/" + OTHER + "/events?access_token=" + encodeURIComponent(TOKEN));
  results.other_stream = await follow(
    API + "/v1/scans/" + OTHER + "/events?access_token=" + encodeURIComponent(TOKEN),
    (kind) => { results.other_events = (results.other_events || 0) + 1; });
  results.other_delete = await status(
    API + "/v1/scans/" + OTHER, {method: "DELETE", headers: auth});
  results.no_token = await status(API + "/v1/scans");
}

run().catch((e) => { results.exception = String(e); }).finally(() => {
  document.getElementById("results").textContent = JSON.stringify(results);
});
</script></body></html>
"""


class _PageHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def page_server(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A static file server on another port: another origin than the API's."""
    site = tmp_path / "site"
    site.mkdir()
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0),
        lambda *args: _PageHandler(*args, directory=str(site)),  # type: ignore[misc]
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class Browser:
    """Headless Chromium and one page of it, over the DevTools protocol."""

    def __init__(self, profile: Path) -> None:
        assert CHROMIUM is not None
        self.profile = profile
        self.process = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.messages = 0

    def page_socket_url(self) -> str:
        active = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"chromium exited with {self.process.returncode}")
            try:
                port = int(active.read_text().split()[0])
                targets = httpx.get(f"http://127.0.0.1:{port}/json/list", timeout=5).json()
                pages = [t for t in targets if t.get("type") == "page"]
                if pages:
                    return str(pages[0]["webSocketDebuggerUrl"])
            except (OSError, ValueError, IndexError, httpx.TransportError):
                pass
            time.sleep(0.2)
        raise RuntimeError("chromium's DevTools did not come up")

    def run_page(self, url: str, timeout_s: float) -> tuple[dict[str, Any], list[str]]:
        """Open `url`, wait until the page has written its results into #results, and return
        them with what the page logged to its console (for a failure's message)."""
        console: list[str] = []
        with connect(self.page_socket_url(), max_size=None, open_timeout=30) as socket:

            def call(method: str, **params: Any) -> dict[str, Any]:
                self.messages += 1
                ident = self.messages
                socket.send(json.dumps({"id": ident, "method": method, "params": params}))
                while True:
                    message = json.loads(socket.recv(timeout=30))
                    if message.get("method") in ("Runtime.consoleAPICalled", "Log.entryAdded"):
                        console.append(json.dumps(message["params"])[:500])
                    elif message.get("method") == "Runtime.exceptionThrown":
                        console.append(json.dumps(message["params"])[:1000])
                    if message.get("id") == ident:
                        result: dict[str, Any] = message.get("result", {})
                        return result

            call("Runtime.enable")
            call("Log.enable")
            call("Page.navigate", url=url)
            deadline = time.monotonic() + timeout_s
            while time.monotonic() < deadline:
                value = call(
                    "Runtime.evaluate",
                    expression="(document.getElementById('results') || {}).textContent || ''",
                    returnByValue=True,
                )["result"].get("value")
                if value:
                    return json.loads(value), console
                time.sleep(0.25)
        raise AssertionError(f"the page wrote no results in {timeout_s} s; console: {console}")

    def close(self) -> None:
        stop(self.process, timeout=10)


def test_a_students_browser_uses_only_its_token(
    tmp_path: Path, page_server: tuple[Path, str]
) -> None:
    site, page_origin = page_server
    env = {
        "SOLVEVERIFY_AUTH_REQUIRED": "true",
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        "SOLVEVERIFY_API_CORS_ORIGINS": page_origin,
    }
    created = run_cli("keys", "create", "--tenant", "school-a", cwd=tmp_path, env=env)
    assert created.returncode == 0, created.stderr
    key = created.stdout.strip()
    tenant_key = {"Authorization": f"Bearer {key}"}
    process, api = serve(tmp_path, env)
    browser: Browser | None = None
    try:
        # The school's backend: earlier homework of u1 and of another student, u2, and a
        # token for u1 (what it hands to u1's browser).
        def backend_scan(user_id: str) -> str:
            reply = httpx.post(
                f"{api}/v1/scans",
                json={"text": "3/4 + 5/6 = ?", "user_id": user_id},
                headers=tenant_key,
                timeout=60,
            )
            assert reply.status_code == 201, reply.text
            scan_id: str = reply.json()["scan_id"]
            return scan_id

        earlier, other = backend_scan("u1"), backend_scan("u2")
        minted = httpx.post(
            f"{api}/v1/tokens", json={"user_id": "u1"}, headers=tenant_key, timeout=30
        )
        assert minted.status_code == 201, minted.text
        token = minted.json()["token"]

        page = PAGE % {
            "api": json.dumps(api),
            "token": json.dumps(token),
            "other": json.dumps(other),
        }
        (site / "index.html").write_text(page)
        browser = Browser(tmp_path / "profile")
        results, console = browser.run_page(f"{page_origin}/index.html", PAGE_TIMEOUT_S)

        # A tenant key in a URL is refused, whoever sends it.
        in_url = httpx.get(
            f"{api}/v1/scans/{other}/events", params={"access_token": key}, timeout=30
        )
        other_still_there = httpx.get(f"{api}/v1/scans/{other}", headers=tenant_key, timeout=30)
    finally:
        if browser is not None:
            browser.close()
        stop(process)

    assert "exception" not in results, (results, console)
    scan_id = results["scan_id"]
    # Created with the token alone, cross-origin (CORS let the page read Location).
    assert results["create_status"] == 202, results
    assert results["location"] == f"/v1/scans/{scan_id}"
    # Followed over EventSource (token in the query string) to `done`.
    assert results["stream_end"] == "done", (results, console)
    assert results["events"][-1] == "done" and "solve" in results["events"], results
    assert results["done"]["scan_id"] == scan_id
    assert results["done"]["final_answer"].replace(" ", "") in ("x=4", "4"), results["done"]
    # The student's history: their scans (the page's and the backend's for u1) only.
    assert results["list_status"] == 200
    assert set(results["list_ids"]) == {scan_id, earlier}, results
    assert results["list_users"] == ["u1", "u1"]
    # Another student's scan does not exist for this token: read, stream, erase.
    assert results["other_get"] == {"status": 404, "code": "not_found"}
    assert results["other_stream_fetch"] == {"status": 404, "code": "not_found"}
    assert results["other_stream"] == "refused" and "other_events" not in results
    assert results["other_delete"] == {"status": 404, "code": "not_found"}
    assert other_still_there.status_code == 200  # not erased either
    assert results["no_token"] == {"status": 401, "code": "unauthorized"}
    assert in_url.status_code == 401 and in_url.json()["error"]["code"] == "api_key_in_url"

    # The access log shows the stream requests, never the token or the key.
    log = next(tmp_path.glob("server-*.log")).read_text()
    assert f"/v1/scans/{scan_id}/events?access_token=[redacted]" in log, log[-3000:]
    assert token not in log and token.split(".")[-1] not in log
    assert key not in log and key.split("_", 2)[2] not in log
