"""A dependency's outage, logged when it starts and when it ends, not at every failure.

During an outage every request (or poll) fails the same way: one warning a failure, with a
stack, buries everything else in the log. Each place that rides out an outage (Redis for rate
limits and the worker's poll loop, the database and the queue for the outbox relay, the
database for the problem bank) keeps one of these.
"""

from __future__ import annotations

import logging
import time


class Outage:
    def __init__(self, log: logging.Logger, down: str, back: str) -> None:
        self.log = log
        self.down_message = down  # what is unreachable, and what is done meanwhile
        self.back_message = back
        self.since: float | None = None

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, exc: BaseException) -> None:
        """A failure: logged only when it starts an outage (the exception's class, never its
        message, which may hold SQL or a student's problem)."""
        if self.since is None:
            self.since = time.monotonic()
            self.log.warning("%s (%s)", self.down_message, type(exc).__name__)

    def answered(self) -> None:
        """A success: logged when it ends an outage, with how long it lasted."""
        if self.since is not None:
            self.log.warning("%s (after %.0f s)", self.back_message, time.monotonic() - self.since)
            self.since = None
