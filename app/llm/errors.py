"""Provider failures, typed so that retries and degradation are decided once, in llm/.

Retryable: rate limits (429, honouring Retry-After), server errors (5xx), timeouts and
connection errors. Not retryable: other 4xx, malformed replies, an exhausted budget (waiting
will not help until the window resets), and CannotAnswer.
"""

from __future__ import annotations

from datetime import datetime


class ProviderError(Exception):
    """A provider call failed."""

    retryable = False

    def __init__(self, provider: str, message: str, *, status: int | None = None) -> None:
        super().__init__(f"{provider}: {message}")
        self.provider = provider
        self.status = status


class ProviderTimeout(ProviderError):
    retryable = True


class ProviderUnavailable(ProviderError):
    """5xx or a connection that could not be made or was dropped."""

    retryable = True


class RateLimited(ProviderError):
    """The provider answered 429."""

    retryable = True

    def __init__(
        self,
        provider: str,
        message: str,
        *,
        retry_after: float | None = None,
        status: int | None = 429,
    ) -> None:
        super().__init__(provider, message, status=status)
        self.retry_after = retry_after


class BudgetExhausted(ProviderError):
    """Our own RPM/RPD budget refused the call before it was made (design-notes §9)."""

    def __init__(self, provider: str, message: str, *, resets_at: datetime) -> None:
        super().__init__(provider, message)
        self.resets_at = resets_at


class MalformedResponse(ProviderError):
    """The reply did not follow the wire protocol (bad JSON, missing fields)."""


class CannotAnswer(ProviderError):
    """The provider cannot handle this request (e.g. the symbolic solver on a word problem)."""


def retry_after_seconds(headers: object) -> float | None:
    """Seconds from a Retry-After header (delta-seconds form; dates are rare for LLM APIs)."""
    getter = getattr(headers, "get", None)
    value = getter("retry-after") if getter else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None
