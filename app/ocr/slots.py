"""A bounded OCR queue: at most `capacity` images are read at once, at most `max_waiting` wait,
and none waits longer than `max_wait_s` (then OcrBusy: the API answers 503 + Retry-After).

A slot is held until the worker thread finishes, even when the request that started it is
cancelled: a thread cannot be stopped, so letting the next one in would overrun the cap.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from typing import TypeVar

from app.ocr.errors import OcrBusy

T = TypeVar("T")


class OcrSlots:
    def __init__(self, capacity: int, max_wait_s: float, max_waiting: int) -> None:
        self.capacity = max(1, capacity)
        self.max_wait_s = max_wait_s
        self.max_waiting = max_waiting
        self._free = asyncio.Semaphore(self.capacity)
        self._waiting = 0

    @property
    def retry_after_s(self) -> int:
        return max(1, math.ceil(self.max_wait_s))

    async def _acquire(self) -> None:
        if self._free.locked() and self._waiting >= self.max_waiting:
            raise OcrBusy(self.retry_after_s)
        self._waiting += 1
        try:
            async with asyncio.timeout(self.max_wait_s):  # not wait_for: it can swallow a cancel
                await self._free.acquire()
        except TimeoutError:
            raise OcrBusy(self.retry_after_s) from None
        finally:
            self._waiting -= 1

    async def run_in_thread(self, work: Callable[..., T], *args: object) -> T:
        await self._acquire()
        try:
            running = asyncio.ensure_future(asyncio.to_thread(work, *args))
        except BaseException:
            self._free.release()
            raise
        running.add_done_callback(lambda _: self._free.release())
        return await asyncio.shield(running)
