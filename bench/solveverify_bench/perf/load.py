"""A closed-loop HTTP load generator: N clients, each sending its next request when the last
one is answered, for a number of requests or a duration."""

from __future__ import annotations

import asyncio
import itertools
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


@dataclass
class LoadResult:
    concurrency: int
    elapsed_s: float = 0.0
    latencies_s: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)  # transport errors by type
    bodies: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> int:
        return self.statuses.get(201, 0)

    @property
    def failed(self) -> int:
        return sum(n for s, n in self.statuses.items() if s != 201) + sum(self.errors.values())

    @property
    def throughput_rps(self) -> float:
        return self.ok / self.elapsed_s if self.elapsed_s else 0.0

    def p(self, q: float) -> float:
        return percentile(self.latencies_s, q)

    def summary(self) -> dict[str, Any]:
        return {
            "concurrency": self.concurrency,
            "requests": len(self.latencies_s) + sum(self.errors.values()),
            "ok": self.ok,
            "failed": self.failed,
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "errors": dict(self.errors),
            "p50_s": round(self.p(50), 4),
            "p95_s": round(self.p(95), 4),
            "p99_s": round(self.p(99), 4),
            "throughput_rps": round(self.throughput_rps, 1),
        }


async def run_load(
    base_url: str,
    body: Callable[[int], dict[str, Any]],
    *,
    concurrency: int,
    requests: int | None = None,
    duration_s: float | None = None,
    path: str = "/v1/scans",
    headers: dict[str, str] | None = None,
    keep_bodies: bool = False,
    timeout_s: float = 60.0,
) -> LoadResult:
    """POST `body(i)` to `path` from `concurrency` clients until `requests` were sent or
    `duration_s` passed."""
    if requests is None and duration_s is None:
        raise ValueError("give requests or duration_s")
    result = LoadResult(concurrency)
    counter = itertools.count()
    deadline = None if duration_s is None else time.perf_counter() + duration_s
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)

    async def client(http: httpx.AsyncClient) -> None:
        while True:
            i = next(counter)
            if requests is not None and i >= requests:
                return
            if deadline is not None and time.perf_counter() >= deadline:
                return
            started = time.perf_counter()
            try:
                response = await http.post(path, json=body(i), headers=headers)
            except httpx.HTTPError as exc:
                result.errors[type(exc).__name__] += 1
                continue
            result.latencies_s.append(time.perf_counter() - started)
            result.statuses[response.status_code] += 1
            if keep_bodies:
                result.bodies.append(response.json())

    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=timeout_s) as http:
        started = time.perf_counter()
        await asyncio.gather(*(client(http) for _ in range(concurrency)))
        result.elapsed_s = time.perf_counter() - started
    return result


# ---------------------------------------------------- image uploads (bench load --images)


async def run_upload_load(
    base_url: str,
    image: bytes,
    *,
    concurrency: int,
    requests: int,
    path: str = "/v1/scans",
    timeout_s: float = 120.0,
) -> LoadResult:
    """`requests` multipart uploads of `image` from `concurrency` clients at once."""
    result = LoadResult(concurrency)
    counter = itertools.count()
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)

    async def client(http: httpx.AsyncClient) -> None:
        while next(counter) < requests:
            started = time.perf_counter()
            try:
                response = await http.post(path, files={"image": ("page.png", image, "image/png")})
            except httpx.HTTPError as exc:
                result.errors[type(exc).__name__] += 1
                continue
            result.latencies_s.append(time.perf_counter() - started)
            result.statuses[response.status_code] += 1

    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=timeout_s) as http:
        started = time.perf_counter()
        await asyncio.gather(*(client(http) for _ in range(concurrency)))
        result.elapsed_s = time.perf_counter() - started
    return result


def rss_mb(pid: int) -> float | None:
    """Current resident set size (Linux VmRSS), in MiB."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


class RssSampler:
    """Samples a process's RSS every `interval_s` while running (peak and last value)."""

    def __init__(self, pid: int, interval_s: float = 0.05) -> None:
        self.pid, self.interval_s = pid, interval_s
        self.samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            value = rss_mb(self.pid)
            if value is not None:
                self.samples.append(value)
            await asyncio.sleep(self.interval_s)

    async def __aenter__(self) -> RssSampler:
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *_: object) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    @property
    def peak_mb(self) -> float:
        return max(self.samples, default=0.0)
