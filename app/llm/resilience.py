"""Timeouts, retries with backoff and budgets, once for every provider.

`Resilient` wraps any ModelClient. Each attempt first takes one request from the budget (for
background calls, only from the share left after the request reserve: app/llm/budget.py),
then runs under the timeout; retryable failures (429, 5xx, timeouts, connection errors) are retried
with exponential backoff and jitter, a 429's Retry-After taking precedence. Everything else is
raised at once.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import random
from collections.abc import Sequence
from typing import Any

from app.llm.base import ModelClient, Wrapper
from app.llm.budget import Budget, Limits, Purpose, current_purpose, limits_for
from app.llm.errors import BudgetExhausted, ProviderError, ProviderTimeout, RateLimited
from app.llm.types import Message, ModelResponse
from app.metrics import MODEL_CALLS, ModelOutcome

log = logging.getLogger(__name__)


def outcome_of(error: ProviderError) -> ModelOutcome:
    """The model-call outcome a failed request is counted under (app/metrics.py)."""
    if isinstance(error, ProviderTimeout):
        return "timeout"
    if isinstance(error, RateLimited):
        return "rate_limited"
    return "error"


class Resilient(Wrapper):
    def __init__(
        self,
        inner: ModelClient,
        *,
        budget: Budget | None = None,
        limits: Limits | None = None,
        max_retries: int = 2,
        base_delay_s: float = 0.5,
        max_delay_s: float = 20.0,
        default_timeout_s: float = 60.0,
        request_reserve: float = 0.0,
        purpose: Purpose | None = None,
    ) -> None:
        self.inner = inner
        # Share of each limit kept for request-path calls; `purpose` None: the context's.
        self.request_reserve = request_reserve
        self.purpose = purpose
        self.budget = budget
        self.limits = limits or Limits()
        self.max_retries = max_retries
        self.base_delay_s = base_delay_s
        self.max_delay_s = max_delay_s
        self.default_timeout_s = default_timeout_s

    def for_background(self) -> Resilient:
        """The same client for background work, whatever the context says."""
        view = copy.copy(self)  # shares the inner client, the budget and the limits
        view.purpose = "background"
        return view

    @property
    def budget_key(self) -> str:
        return f"{self.provider}:{self.model}"

    def _delay(self, attempt: int, error: ProviderError) -> float:
        if isinstance(error, RateLimited) and error.retry_after is not None:
            return float(error.retry_after)  # past max_delay_s: not waited for (generate)
        backoff = self.base_delay_s * 2.0**attempt
        return min(backoff * (0.5 + random.random() / 2), self.max_delay_s)

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        timeout: float | None = None,
        seed: int | None = None,
    ) -> ModelResponse:
        if "read_image" not in self.capabilities and any(m.images for m in messages):
            raise ProviderError(self.provider, f"{self.model} does not read images")
        # `timeout` bounds the whole call, retries included: a provider that hangs costs the
        # student one limit, not one per try (30 s × 3 tries × 2 providers was 3 minutes).
        limit = timeout or self.default_timeout_s
        deadline = asyncio.get_running_loop().time() + limit
        purpose = self.purpose or current_purpose()
        limits = limits_for(self.limits, purpose, self.request_reserve)
        for attempt in range(self.max_retries + 1):
            # Only limited models are counted: no store round trip for the others.
            if self.budget is not None and not self.limits.unlimited:
                try:
                    await self.budget.acquire(self.budget_key, limits)
                except BudgetExhausted:
                    MODEL_CALLS.labels(self.provider, "budget_exhausted").inc()
                    raise
            try:
                async with asyncio.timeout_at(deadline):
                    response = await self.inner.generate(
                        messages,
                        json_schema=json_schema,
                        temperature=temperature,
                        max_tokens=max_tokens,
                        timeout=deadline - asyncio.get_running_loop().time(),
                        seed=seed,
                    )
                MODEL_CALLS.labels(self.provider, "ok").inc()
                return response
            except TimeoutError as exc:
                error: ProviderError = ProviderTimeout(self.provider, f"no reply within {limit}s")
                error.__cause__ = exc
            except ProviderError as exc:
                error = exc
            MODEL_CALLS.labels(self.provider, outcome_of(error)).inc()
            delay = self._delay(attempt, error)
            left = deadline - asyncio.get_running_loop().time()
            if (
                not error.retryable
                or attempt == self.max_retries
                or delay >= left
                or delay > self.max_delay_s
            ):
                raise error  # a retry that could not finish in time, or is too far off, is not made
            log.warning(
                "%s failed (%s); retry %d in %.2fs", self.budget_key, error, attempt + 1, delay
            )
            await asyncio.sleep(delay)
        raise AssertionError("unreachable")
