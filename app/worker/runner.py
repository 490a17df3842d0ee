"""Run the arq worker so that it outlives a Redis outage.

arq's `Worker.main` polls Redis in a loop; a connection error escapes it and `run_worker`
exits the process, so one Redis restart would stop every background job until someone
restarted the worker. Here the loop is started again after such an error, with backoff (up to
`SOLVEVERIFY_WORKER_REDIS_RETRY_MAX_S`); the log says so once when the outage starts and once
when it is over. Over means the poll loop has run `stable_s` without a connection error: right
after a restart a ping answers while pooled connections are still dead (or Redis is still
loading its data), and counting each of those blips as an outage and a recovery filled the log
with pairs. Jobs already running keep running; those whose result could not be written
while Redis was down are forgotten before the loop starts again (`_drop_casualties`).

Stopping (SIGTERM, SIGINT): the worker takes no new job and lets the running ones finish for up
to the grace period (`SOLVEVERIFY_WORKER_SHUTDOWN_GRACE_S`, arq's `job_completion_wait`); what
still runs then is cancelled (its job stays queued and runs again, with another worker or this
one restarted) and the worker exits. A second signal during the grace stops it at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import Any

from arq.worker import Worker, create_worker
from redis.exceptions import RedisError

from app.outage import Outage

log = logging.getLogger(__name__)
# What an unreachable or restarting Redis raises (redis-py's errors, sockets, timeouts).
REDIS_DOWN = (RedisError, OSError)


async def run_until_stopped(
    worker: Worker, retry_max_s: float, first_delay_s: float = 0.5, stable_s: float = 5.0
) -> None:
    outage = Outage(
        log,
        down="Redis is unreachable: the worker retries until it is back",
        back="Redis is reachable again: the worker goes on",
    )
    delay = first_delay_s
    while True:
        polling: asyncio.Future[Any] | None = None
        try:
            if outage.down and worker._pool is not None:
                await worker.pool.ping()  # (without a pool, main() connects or raises)
            _drop_casualties(worker)
            polling = asyncio.ensure_future(worker.main())
            if outage.down:
                done, _ = await asyncio.wait({polling}, timeout=stable_s)
                if not done:  # polled `stable_s` without a connection error: it is over
                    outage.answered()
                    delay = first_delay_s
            await polling
            return  # burst mode ends; a normal worker polls until it is cancelled
        except asyncio.CancelledError:
            if polling is not None:
                polling.cancel()  # asyncio.wait does not pass a cancellation on
            raise
        except REDIS_DOWN as exc:
            outage.failed(exc)
        await asyncio.sleep(delay)
        delay = min(delay * 2, retry_max_s)


def _drop_casualties(worker: Worker) -> None:
    """Forget the jobs whose bookkeeping failed with Redis down (their result or retry could
    not be written; the outbox delivers lost jobs again). arq's poll loop re-raises each such
    task's error, one per restart: with ten of them a recovered Redis served ten jobs per
    restart for minutes while the backoff grew (a tester's 15 s outage under load: 278 s)."""
    for job_id, task in list(worker.tasks.items()):
        if task.done() and not task.cancelled() and isinstance(task.exception(), REDIS_DOWN):
            del worker.tasks[job_id]


async def _close(worker: Worker) -> None:
    with contextlib.suppress(*REDIS_DOWN):  # closing with Redis down: nothing left to tidy
        await worker.close()


def finish_jobs_on_signal(worker: Worker) -> None:
    """The first SIGTERM/SIGINT lets running jobs finish (within arq's job_completion_wait);
    a second one cancels them and stops the worker at once."""
    stopping = False

    def on_signal(signum: signal.Signals) -> None:
        nonlocal stopping
        if stopping:
            log.warning("%s again: cancelling the running jobs", signum.name)
            worker.handle_sig(signum)
            return
        stopping = True
        log.info(
            "%s: finishing %d running job(s) within %d s, taking no new ones",
            signum.name,
            sum(not task.done() for task in worker.tasks.values()),
            worker._job_completion_wait,
        )
        worker.handle_sig_wait_for_completion(signum)

    for signum in (signal.SIGINT, signal.SIGTERM):
        worker.loop.add_signal_handler(signum, on_signal, signum)


def run_worker_resilient(
    settings: dict[str, Any], retry_max_s: float, shutdown_grace_s: int = 0
) -> None:
    """`arq.run_worker`, surviving Redis outages; on a signal, running jobs get
    `shutdown_grace_s` to finish (0: cancelled at once, arq's default)."""
    worker = create_worker({**settings, "job_completion_wait": shutdown_grace_s})
    if shutdown_grace_s > 0:
        finish_jobs_on_signal(worker)
    # arq's signal handlers cancel `main_task`: this loop, so SIGTERM still stops the worker.
    worker.main_task = worker.loop.create_task(run_until_stopped(worker, retry_max_s))
    try:
        worker.loop.run_until_complete(worker.main_task)
    except asyncio.CancelledError:
        pass  # shutdown on a signal
    finally:
        worker.loop.run_until_complete(_close(worker))
