"""Per-provider request budgets (design-notes §9: e.g. Flash-Lite 15 RPM / 1000 RPD).

A budget is checked before every request, retries included. Windows are fixed (the current
UTC minute and day), kept in Redis when configured — so every API and worker process shares
them — and in memory otherwise. An exhausted budget raises BudgetExhausted with the moment it
resets: the pipeline skips verification ("unverified"), the worker defers to that moment.

Each call has a purpose: "request" (a student is waiting: SOLVE, QUICK_VERIFY, samples) or
"background" (deep evaluation, consensus, spot checks, MARS). A share of every limit
(`SOLVEVERIFY_LLM_REQUEST_RESERVE`) is kept for requests: background calls are refused once
they would eat into it, so checks after the response never starve the next student. The
purpose is a context variable, set by the worker's task wrappers (app/worker/queue.py), so
the ModelClient protocol stays as it is.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal, Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.llm.errors import BudgetExhausted

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Limits:
    rpm: int | None = None  # requests per minute; None = unlimited
    rpd: int | None = None  # requests per UTC day

    @property
    def unlimited(self) -> bool:
        return self.rpm is None and self.rpd is None


Purpose = Literal["request", "background"]
_PURPOSE: ContextVar[Purpose] = ContextVar("llm_purpose", default="request")


def current_purpose() -> Purpose:
    """The purpose of calls made from here: "request" unless a background job set it."""
    return _PURPOSE.get()


@contextmanager
def llm_purpose(purpose: Purpose) -> Iterator[None]:
    """Calls made inside (this task and the tasks it starts) have this purpose."""
    token = _PURPOSE.set(purpose)
    try:
        yield
    finally:
        _PURPOSE.reset(token)


def limits_for(limits: Limits, purpose: Purpose, request_reserve: float) -> Limits:
    """What a caller may use: everything for requests; for background calls, each limit less
    its reserved request share, rounded down (the reserve never shrinks)."""
    if purpose == "request" or request_reserve <= 0:
        return limits

    def share(limit: int | None) -> int | None:
        return None if limit is None else math.floor(limit * (1.0 - request_reserve))

    return Limits(rpm=share(limits.rpm), rpd=share(limits.rpd))


@dataclass(frozen=True, slots=True)
class BudgetState:
    key: str
    limits: Limits
    used_minute: int
    used_day: int


class Budget(Protocol):
    async def acquire(self, key: str, limits: Limits) -> None:
        """Count one request, or raise BudgetExhausted without counting it."""
        ...

    async def state(self, key: str, limits: Limits) -> BudgetState: ...


def _windows(now: datetime) -> tuple[str, str, datetime, datetime]:
    minute = now.replace(second=0, microsecond=0)
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    return (
        minute.strftime("%Y%m%d%H%M"),
        day.strftime("%Y%m%d"),
        minute + timedelta(minutes=1),
        day + timedelta(days=1),
    )


def _check(key: str, limits: Limits, minute: int, day: int, now: datetime) -> None:
    _, _, next_minute, next_day = _windows(now)
    if limits.rpd is not None and day > limits.rpd:
        raise BudgetExhausted(
            key, f"daily budget of {limits.rpd} requests used", resets_at=next_day
        )
    if limits.rpm is not None and minute > limits.rpm:
        raise BudgetExhausted(
            key, f"budget of {limits.rpm} requests per minute used", resets_at=next_minute
        )


class InMemoryBudget:
    def __init__(self) -> None:
        self._counts: dict[tuple[str, str], int] = {}
        self._lock = asyncio.Lock()

    async def acquire(self, key: str, limits: Limits) -> None:
        now = datetime.now(UTC)
        minute_key, day_key, _, _ = _windows(now)
        async with self._lock:
            minute = self._counts.get((key, minute_key), 0) + 1
            day = self._counts.get((key, day_key), 0) + 1
            _check(key, limits, minute, day, now)
            # Old windows are dropped as we go, so memory stays at two counters per key.
            self._counts = {
                k: v
                for k, v in self._counts.items()
                if k[0] != key or k[1] in (minute_key, day_key)
            }
            self._counts[(key, minute_key)] = minute
            self._counts[(key, day_key)] = day

    async def state(self, key: str, limits: Limits) -> BudgetState:
        minute_key, day_key, _, _ = _windows(datetime.now(UTC))
        return BudgetState(
            key, limits, self._counts.get((key, minute_key), 0), self._counts.get((key, day_key), 0)
        )


# Count both windows atomically; refuse (and count nothing) when either is over its limit.
_ACQUIRE = """
local minute = redis.call('INCR', KEYS[1])
local day = redis.call('INCR', KEYS[2])
if minute == 1 then redis.call('EXPIRE', KEYS[1], 120) end
if day == 1 then redis.call('EXPIRE', KEYS[2], 172800) end
local rpm, rpd = tonumber(ARGV[1]), tonumber(ARGV[2])
if (rpm >= 0 and minute > rpm) or (rpd >= 0 and day > rpd) then
  redis.call('DECR', KEYS[1])
  redis.call('DECR', KEYS[2])
end
return {minute, day}
"""


class RedisBudget:
    def __init__(self, redis: Redis, prefix: str = "solveverify:budget") -> None:
        self.redis = redis
        self.prefix = prefix
        self._script = redis.register_script(_ACQUIRE)

    def _keys(self, key: str, now: datetime) -> list[str]:
        minute_key, day_key, _, _ = _windows(now)
        return [f"{self.prefix}:{key}:m:{minute_key}", f"{self.prefix}:{key}:d:{day_key}"]

    async def acquire(self, key: str, limits: Limits) -> None:
        now = datetime.now(UTC)
        rpm = -1 if limits.rpm is None else limits.rpm
        rpd = -1 if limits.rpd is None else limits.rpd
        try:
            minute, day = await self._script(keys=self._keys(key, now), args=[rpm, rpd])
        except RedisError:
            # Fail open: a Redis outage must not stop answering; the provider's own 429s
            # (retried with Retry-After) still protect the quota meanwhile.
            log.warning("budget store unavailable; %s not counted", key, exc_info=True)
            return
        _check(key, limits, int(minute), int(day), now)

    async def state(self, key: str, limits: Limits) -> BudgetState:
        values = await self.redis.mget(self._keys(key, datetime.now(UTC)))
        minute, day = (int(v or 0) for v in values)
        return BudgetState(key, limits, minute, day)
