"""What a queue offers the code that queues jobs: the protocol both queues implement
(app/worker/queue.py), apart from them so that the job context can name its queue."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol


class TaskQueue(Protocol):
    async def enqueue(
        self, task: str, *args: Any, job_id: str, defer_until: datetime | None = None
    ) -> bool:
        """True when the job was queued, False when a job with that id already exists."""
        ...

    async def is_pending(self, job_id: str) -> bool:
        """Is the job with this id waiting or running in the queue?"""
        ...

    async def ping(self) -> bool: ...

    async def close(self) -> None: ...
