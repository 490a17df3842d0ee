"""`bench perf` in sections, each on its own: one that raises (a local model that crashes its
process, an OCR runtime that fails, a server that does not come up) is reported in the report's
`sections` and the next one runs. The report is saved after every section, so what was measured
is on disk even if the run is killed later. Every section records the machine's load average
before and after it (the machine is shared: a figure means little without it)."""

from __future__ import annotations

import asyncio
import os
import time
import traceback
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

Work = Callable[[], Awaitable[None]]


class SkipSection(Exception):
    """Raised by a section that cannot run here (no Postgres, no replay data): reported as
    skipped, with the reason, not as a failure."""


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages (/proc/loadavg)."""
    return [round(x, 2) for x in os.getloadavg()]


def selected(names: Sequence[str], only: Iterable[str]) -> list[str]:
    """The sections to run, in the benchmark's order; `only` empty: all. An unknown name is a
    ValueError naming the known ones."""
    wanted = list(only)
    unknown = sorted(set(wanted) - set(names))
    if unknown:
        raise ValueError(f"unknown section(s) {', '.join(unknown)}; known: {', '.join(names)}")
    return [n for n in names if not wanted or n in wanted]


async def run_sections(
    sections: Sequence[tuple[str, Work]],
    report: dict[str, Any],
    *,
    say: Callable[[str], None] = print,
    save: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Run each section in turn; `report["sections"][name]` says how it went (status ok,
    skipped or failed, the error and the last lines of its traceback, seconds, load average
    before and after). A failure never stops the run; only cancellation (Ctrl-C) does."""
    outcomes: dict[str, Any] = report.setdefault("sections", {})
    for name, work in sections:
        entry: dict[str, Any] = {"load_before": load_average()}
        say(f"[{name}] load average {entry['load_before']} …")
        started = time.perf_counter()
        try:
            await work()
            entry["status"] = "ok"
        except SkipSection as exc:
            entry["status"], entry["reason"] = "skipped", str(exc)
            say(f"[{name}] skipped: {exc}")
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # isolate: report and go on to the next section
            entry["status"], entry["error"] = "failed", f"{type(exc).__name__}: {exc}"[:2000]
            entry["traceback"] = traceback.format_exc().strip().splitlines()[-12:]
            say(f"[{name}] FAILED: {entry['error'][:500]}")
        entry["seconds"] = round(time.perf_counter() - started, 1)
        entry["load_after"] = load_average()
        outcomes[name] = entry
        if save is not None:
            save(report)
    return report


def failed(report: dict[str, Any]) -> list[str]:
    return [n for n, e in (report.get("sections") or {}).items() if e.get("status") == "failed"]
