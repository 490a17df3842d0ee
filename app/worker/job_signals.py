"""How a job's work tells the queue running it what to do next: run it again later
(`RetryLater`, or an error `is_transient`), or end quietly (`Erased`). Defined here, below the
worker, because services raise them (a queued scan's run) and the queues (app/worker/queue.py)
catch them."""

from __future__ import annotations

from redis.exceptions import RedisError

from app.db.errors import is_try_later


class RetryLater(Exception):
    """Raised by a task whose failure is worth another try (an unreadable model reply, a
    transient outage): the queue runs the job again after `delay_s`."""

    def __init__(self, reason: str, delay_s: float = 5.0) -> None:
        super().__init__(reason)
        self.delay_s = delay_s


class Erased(Exception):
    """Raised by a task whose scan or solution was erased (DELETE /v1/scans/{id}) while it
    worked, e.g. while it waited on a model: nothing to store and nothing failed. The job ends,
    acknowledged, with the reason as its result."""


def is_transient(exc: BaseException) -> bool:
    """The database or Redis is away or busy: worth another try later, not a failure."""
    return is_try_later(exc) or isinstance(exc, RedisError | OSError)
