"""Per-key request limits in fixed one-minute windows: shared in Redis when configured (every
server process counts together), in memory otherwise."""

from __future__ import annotations

import math
import time
from typing import Protocol

from redis.asyncio import Redis

WINDOW_S = 60


class RateLimiter(Protocol):
    async def hit(self, key: str, limit: int) -> float | None:
        """Count one request; None when allowed, else seconds until the window resets."""
        ...


def _window(now: float) -> tuple[int, float]:
    index = int(now // WINDOW_S)
    return index, (index + 1) * WINDOW_S - now


class MemoryRateLimiter:
    def __init__(self) -> None:
        self._counts: dict[str, tuple[int, int]] = {}

    async def hit(self, key: str, limit: int) -> float | None:
        index, reset_in = _window(time.time())
        window, count = self._counts.get(key, (index, 0))
        count = count + 1 if window == index else 1
        self._counts[key] = (index, count)
        return None if count <= limit else reset_in


class RedisRateLimiter:
    def __init__(self, redis: Redis, prefix: str = "solveverify:ratelimit") -> None:
        self.redis = redis
        self.prefix = prefix

    async def hit(self, key: str, limit: int) -> float | None:
        index, reset_in = _window(time.time())
        name = f"{self.prefix}:{key}:{index}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(name)
            pipe.expire(name, WINDOW_S + 5)
            count, _ = await pipe.execute()
        return None if count <= limit else max(1.0, math.ceil(reset_in))
