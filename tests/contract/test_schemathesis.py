"""Property-based fuzzing of every operation in the OpenAPI schema against a real `serve`
process: whatever schemathesis sends (valid, invalid, odd encodings), no 5xx."""

from __future__ import annotations

from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from tests.fixtures.processes import run_cli, serve, stop

EXAMPLES_PER_OPERATION = 40


def test_no_server_errors(tmp_path: Path) -> None:
    env = {
        "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
        "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
        "SOLVEVERIFY_AUTH_REQUIRED": "true",
        "SOLVEVERIFY_AUTH_RATE_LIMIT_PER_MINUTE": "0",
    }
    created = run_cli(
        "keys", "create", "--tenant", "fuzz", "--role", "analyst", cwd=tmp_path, env=env
    )
    assert created.returncode == 0, created.stderr
    # A valid key, so the fuzzing reaches the handlers instead of stopping at a 401.
    auth = {"Authorization": f"Bearer {created.stdout.strip()}"}
    process, base = serve(tmp_path, env)
    try:
        schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]
        assert {op.path for op in operations} >= {"/v1/scans", "/v1/solutions/{solution_id}"}
        for operation in operations:

            @given(case=operation.as_strategy())
            @settings(
                max_examples=EXAMPLES_PER_OPERATION,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            def fuzz(case: schemathesis.Case) -> None:
                case.call_and_validate(checks=[not_a_server_error], headers=auth, timeout=30)

            fuzz()
    finally:
        stop(process)
    log = next(tmp_path.glob("server-*.log")).read_text()
    requests = log.count('HTTP/1.1"')
    assert requests >= 2 * len(operations), requests  # it really sent them
    assert " 500 " not in log and "Traceback" not in log, log[-3000:]
