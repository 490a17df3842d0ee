"""Request limits in fixed one-minute windows: shared in Redis when configured (every server
process counts together), in memory otherwise.

Limits never fail open: while Redis is unreachable each process counts in memory (a client may
then get up to limit × processes a minute, never unlimited). An outage is logged once when it
starts and once when Redis answers again, not per request; during it Redis is retried at most
every `retry_s`, so requests do not each wait out a connect timeout.
"""

from __future__ import annotations

import logging
import math
import time
from collections import OrderedDict
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.outage import Outage

log = logging.getLogger(__name__)

WINDOW_S = 60


class RateLimiter(Protocol):
    async def hit(self, key: str, limit: int) -> float | None:
        """Count one request; None when allowed, else seconds until the window resets."""
        ...

    async def count(self, key: str) -> tuple[int, float]:
        """Count one request: (requests in this window, seconds until it resets)."""
        ...

    async def exceeded(self, key: str, limit: int) -> float | None:
        """Like `hit` without counting: is `key` already over `limit` in this window?"""
        ...


def _window(now: float) -> tuple[int, float]:
    index = int(now // WINDOW_S)
    return index, (index + 1) * WINDOW_S - now


def _verdict(count: int, limit: int, reset_in: float) -> float | None:
    return None if count <= limit else max(1.0, math.ceil(reset_in))


class MemoryRateLimiter:
    """Per process; at most `max_keys` counters (least recently used dropped first), so a
    flood of distinct keys costs bounded memory."""

    def __init__(self, max_keys: int = 100_000) -> None:
        self.max_keys = max_keys
        self._counts: OrderedDict[str, tuple[int, int]] = OrderedDict()

    def _count(self, key: str, index: int) -> int:
        window, count = self._counts.get(key, (index, 0))
        return count if window == index else 0

    async def hit(self, key: str, limit: int) -> float | None:
        count, reset_in = await self.count(key)
        return _verdict(count, limit, reset_in)

    async def count(self, key: str) -> tuple[int, float]:
        """Count one request: (requests in this window, seconds until it resets)."""
        index, reset_in = _window(time.time())
        count = self._count(key, index) + 1
        self._counts[key] = (index, count)
        self._counts.move_to_end(key)
        while len(self._counts) > self.max_keys:
            self._counts.popitem(last=False)
        return count, reset_in

    async def exceeded(self, key: str, limit: int) -> float | None:
        index, reset_in = _window(time.time())
        count = self._count(key, index)
        return None if count < limit else max(1.0, math.ceil(reset_in))


class RedisRateLimiter:
    def __init__(
        self,
        redis: Redis,
        prefix: str = "solveverify:ratelimit",
        *,
        fallback: MemoryRateLimiter | None = None,
        retry_s: float = 5.0,
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.fallback = fallback or MemoryRateLimiter()
        self.retry_s = retry_s
        self._outage = Outage(
            log,
            down="rate limits: Redis unreachable; counting per process in memory until it is back",
            back="rate limits: Redis is back; counting in Redis again",
        )
        self._next_try = 0.0

    @property
    def redis_down(self) -> bool:
        return self._outage.down

    def _use_redis(self) -> bool:
        return not self._outage.down or time.monotonic() >= self._next_try

    def _failed(self, exc: Exception) -> None:
        self._next_try = time.monotonic() + self.retry_s
        self._outage.failed(exc)

    def _answered(self) -> None:
        self._outage.answered()

    async def hit(self, key: str, limit: int) -> float | None:
        count, reset_in = await self.count(key)
        return _verdict(count, limit, reset_in)

    async def count(self, key: str) -> tuple[int, float]:
        """Count one request: (requests in this window, seconds until it resets)."""
        if not self._use_redis():
            return await self.fallback.count(key)
        index, reset_in = _window(time.time())
        name = f"{self.prefix}:{key}:{index}"
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.incr(name)
                pipe.expire(name, WINDOW_S + 5)
                count, _ = await pipe.execute()
        except (RedisError, OSError) as exc:
            self._failed(exc)
            return await self.fallback.count(key)
        self._answered()
        return int(count), reset_in

    async def exceeded(self, key: str, limit: int) -> float | None:
        if not self._use_redis():
            return await self.fallback.exceeded(key, limit)
        index, reset_in = _window(time.time())
        try:
            raw = await self.redis.get(f"{self.prefix}:{key}:{index}")
        except (RedisError, OSError) as exc:
            self._failed(exc)
            return await self.fallback.exceeded(key, limit)
        self._answered()
        count = int(raw or 0)
        return None if count < limit else max(1.0, math.ceil(reset_in))
