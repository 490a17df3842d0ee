"""Where background jobs go: Redis + arq when configured, in-process asyncio tasks otherwise.

Both honour a caller-chosen job id, so the same job enqueued twice runs once, and both follow
one retry contract: a task that raises `RetryLater` runs again after its delay (until the
job's tries are used up); so does one that meets a transient infrastructure error (the
database or Redis away or saying "try later"), with exponential backoff; one that raises
`Erased` (its scan was erased while it worked) ends quietly; any other exception fails the
job, logged with its id.

Both acknowledge a job by completion: when its task returned (or failed for good), the job's
outbox row is marked completed; a job whose tries ran out on transient errors is not, and the
outbox delivers it again later (app/worker/outbox.py).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from arq import ArqRedis, Retry, create_pool
from arq.connections import RedisSettings
from arq.constants import in_progress_key_prefix
from arq.jobs import Job, JobStatus
from arq.typing import WorkerCoroutine

from app.db.models._columns import utcnow
from app.db.repositories.outbox import OutboxRepository, outbox_job_id
from app.llm.budget import Purpose, llm_purpose
from app.worker.context import JOB_CONTEXT_KEY, JobContext
from app.worker.job_signals import Erased, RetryLater, is_transient
from app.worker.task_queue import TaskQueue

# The retry contract's signals and the queue protocol, as callers have always named them.
__all__ = ["Erased", "RetryLater", "TaskQueue", "is_transient"]

log = logging.getLogger(__name__)

Task = Callable[..., Awaitable[Any]]


def backoff_s(attempt: int, cap_s: float = 60.0) -> float:
    """1, 2, 4 ... seconds, at most `cap_s`: a 7 s database restart costs a few tries."""
    return float(min(cap_s, 2 ** max(0, attempt - 1)))


async def acknowledge(context: JobContext | None, job_id: str | None) -> None:
    """Mark the job's outbox row completed (jobs not from the outbox change nothing). A failure
    here only means the job may run once more: tasks are idempotent."""
    if context is None or not job_id:
        return
    try:
        async with context.transaction() as session:
            await OutboxRepository(session).mark_completed(outbox_job_id(job_id), utcnow())
    except Exception as exc:
        log.warning("job %s done but not acknowledged (%s)", job_id, type(exc).__name__)


# A queued scan is a student's request run by the worker: it spends the request share.
REQUEST_PATH_TASKS = frozenset({"run_scan"})


def purpose_of(task_name: str) -> Purpose:
    """Model calls of a job are background calls (app/llm/budget.py), except queued scans."""
    return "request" if task_name in REQUEST_PATH_TASKS else "background"


def for_arq(task: Task, name: str | None = None) -> WorkerCoroutine:
    """The task as arq runs it: its model calls have the job's purpose (background, unless a
    queued scan); `RetryLater` becomes arq's `Retry`, other errors are logged with the job id
    and fail the job (arq does not retry them)."""
    purpose = purpose_of(name or str(getattr(task, "__name__", "")))

    @functools.wraps(task)
    async def run(ctx: dict[Any, Any], *args: Any, **kwargs: Any) -> Any:
        job_id = ctx.get("job_id")
        try:
            with llm_purpose(purpose):
                result = await task(ctx, *args, **kwargs)
        except RetryLater as exc:
            log.warning("job %s: %s; retrying in %.0fs", job_id, exc, exc.delay_s)
            raise Retry(defer=exc.delay_s) from exc
        except Erased as exc:
            result = f"erased: {exc}"
            log.info("job %s: %s", job_id, result)
        except Exception as exc:
            if is_transient(exc):
                # Not acknowledged: if its tries run out the outbox delivers it again.
                delay = backoff_s(int(ctx.get("job_try") or 1))
                log.warning("job %s: %s; retrying in %.0fs", job_id, type(exc).__name__, delay)
                raise Retry(defer=delay) from exc
            log.exception("job %s failed", job_id)
            await acknowledge(ctx.get(JOB_CONTEXT_KEY), job_id)  # for good: do not redeliver
            raise
        await acknowledge(ctx.get(JOB_CONTEXT_KEY), job_id)
        return result

    return run


class InProcessQueue:
    """Runs tasks as asyncio tasks in this process, retried on `RetryLater`; drained on close.
    `bind` gives it the JobContext its tasks receive (the context names the queue, too).

    A job id is refused while that job is queued or running; afterwards the task's own
    idempotence (e.g. "store the evaluation only if there is none") takes over, so the set of
    ids stays as small as the work in flight.
    """

    def __init__(
        self,
        tasks: Mapping[str, Task],
        *,
        max_tries: int = 3,
        concurrency: int = 2,
        request_concurrency: int = 16,
    ) -> None:
        self.tasks = dict(tasks)
        self.context: JobContext | None = None
        self.max_tries = max_tries
        self._seen: set[str] = set()
        self._running: set[asyncio.Task[Any]] = set()
        self._deferred: set[asyncio.Task[Any]] = set()
        self._closing = False
        # Background checks may run a local model: a few at a time, not one per request. A
        # queued scan (a student waits on it) has slots of its own: it never waits behind
        # background checks (one waited 187 s behind them), and mostly waits on models.
        self._slots: dict[Purpose, asyncio.Semaphore] = {
            "background": asyncio.Semaphore(concurrency),
            "request": asyncio.Semaphore(request_concurrency),
        }

    async def enqueue(
        self, task: str, *args: Any, job_id: str, defer_until: datetime | None = None
    ) -> bool:
        if task not in self.tasks:
            raise KeyError(f"unknown task {task!r}")
        if job_id in self._seen:
            return False
        if self._closing and defer_until is not None:
            log.warning("dropping deferred in-process job %s: shutting down", job_id)
            return False
        self._seen.add(job_id)
        running = asyncio.create_task(self._run(task, args, job_id, defer_until), name=job_id)
        self._running.add(running)
        running.add_done_callback(self._running.discard)
        if defer_until is not None:
            self._deferred.add(running)
            running.add_done_callback(self._deferred.discard)
        running.add_done_callback(lambda _: self._seen.discard(job_id))
        return True

    def bind(self, context: JobContext) -> None:
        self.context = context

    async def _run(
        self, task: str, args: tuple[Any, ...], job_id: str, defer_until: datetime | None
    ) -> Any:
        if defer_until is not None:
            await asyncio.sleep(max(0.0, (defer_until - datetime.now(UTC)).total_seconds()))
            current = asyncio.current_task()
            if current is not None:
                self._deferred.discard(current)
        for attempt in range(1, self.max_tries + 1):
            ctx = {JOB_CONTEXT_KEY: self.context, "job_id": job_id, "job_try": attempt}
            try:
                purpose = purpose_of(task)
                async with self._slots[purpose]:
                    with llm_purpose(purpose):
                        try:
                            result = await self.tasks[task](ctx, *args)
                        except Erased as exc:
                            result = f"erased: {exc}"
                            log.info("job %s: %s", job_id, result)
                await acknowledge(self.context, job_id)
                return result
            except RetryLater as exc:
                if attempt == self.max_tries:
                    log.error("job %s failed after %d tries: %s", job_id, attempt, exc)
                    return None
                log.warning("job %s: %s; retrying in %.0fs", job_id, exc, exc.delay_s)
                await asyncio.sleep(exc.delay_s)
            except Exception as exc:
                if not is_transient(exc):
                    log.exception("job %s failed", job_id)
                    await acknowledge(self.context, job_id)
                    return None
                if attempt == self.max_tries:  # left to the outbox's redelivery
                    log.error("job %s: %s after %d tries", job_id, type(exc).__name__, attempt)
                    return None
                log.warning("job %s: %s; retrying", job_id, type(exc).__name__)
                await asyncio.sleep(backoff_s(attempt))
        return None

    async def join(self) -> None:
        """Wait for every job queued so far (tests, CLI)."""
        while self._running:
            await asyncio.gather(*list(self._running), return_exceptions=True)

    async def is_pending(self, job_id: str) -> bool:
        return job_id in self._seen

    async def ping(self) -> bool:
        return True

    async def close(self, timeout: float = 10.0) -> None:
        """Finish the jobs that are running; jobs still waiting for a later time are dropped
        (in-process jobs are not durable: configure Redis for that), and said so."""
        self._closing = True
        if self._deferred:
            log.warning("dropping %d deferred in-process job(s) at shutdown", len(self._deferred))
            for waiting in list(self._deferred):
                waiting.cancel()
        try:
            async with asyncio.timeout(timeout):  # not wait_for: it can swallow a cancel
                await self.join()
        except TimeoutError:
            log.warning(
                "cancelling %d in-process job(s) still running at shutdown", len(self._running)
            )
            for running in list(self._running):
                running.cancel()


class ArqQueue:
    """Jobs in Redis for `solveverify worker`. Connects on first use, so a server starts while
    Redis is down; failed enqueues raise and the outbox tries again later."""

    def __init__(self, pool: ArqRedis | None, queue_name: str, url: str | None = None) -> None:
        self._pool = pool
        self.queue_name = queue_name
        self.url = url

    @classmethod
    def from_url(cls, url: str, queue_name: str) -> ArqQueue:
        return cls(None, queue_name, url)

    @classmethod
    async def connect(cls, url: str, queue_name: str) -> ArqQueue:
        queue = cls.from_url(url, queue_name)
        await queue.pool()
        return queue

    async def pool(self) -> ArqRedis:
        if self._pool is None:
            if self.url is None:
                raise RuntimeError("ArqQueue needs a pool or a URL")
            settings = RedisSettings.from_dsn(self.url)
            settings.conn_retries = 0
            settings.conn_timeout = 2
            self._pool = await create_pool(settings, default_queue_name=self.queue_name)
        return self._pool

    async def enqueue(
        self, task: str, *args: Any, job_id: str, defer_until: datetime | None = None
    ) -> bool:
        pool = await self.pool()
        job = await pool.enqueue_job(
            task, *args, _job_id=job_id, _queue_name=self.queue_name, _defer_until=defer_until
        )
        return job is not None

    async def is_pending(self, job_id: str) -> bool:
        job = Job(job_id, await self.pool(), _queue_name=self.queue_name)
        return await job.status() in (JobStatus.deferred, JobStatus.queued, JobStatus.in_progress)

    async def ping(self) -> bool:
        try:
            return bool(await (await self.pool()).ping())
        except Exception:
            return False

    async def backlog(self, now_ms: int, look_at: int = 50) -> tuple[int, float]:
        """(jobs in the queue, seconds the oldest due job has waited unstarted) for /metrics.
        arq keeps a job in its sorted set (scored by when it is due, in ms) until it finishes,
        so the depth counts running and deferred jobs too; the lag skips those of the oldest
        `look_at` due jobs that a worker has started (0 when none waits)."""
        pool = await self.pool()
        depth = int(await pool.zcard(self.queue_name))
        due = await pool.zrangebyscore(
            self.queue_name, min=float("-inf"), max=now_ms, start=0, num=look_at, withscores=True
        )
        if not due:
            return depth, 0.0
        async with pool.pipeline(transaction=False) as pipe:
            for job, _ in due:
                pipe.exists(in_progress_key_prefix + job.decode())
            running = await pipe.execute()
        for (_, score), started in zip(due, running, strict=True):
            if not started:
                return depth, max(0.0, (now_ms - score) / 1000)
        return depth, 0.0

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.aclose()
