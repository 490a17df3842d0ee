"""Provider failures the pipeline degrades on, instead of turning them into 5xx responses."""


class ProviderError(Exception):
    """A provider call failed (transport, server error, malformed reply)."""

    def __init__(self, provider: str, message: str) -> None:
        super().__init__(f"{provider}: {message}")
        self.provider = provider


class ProviderTimeout(ProviderError):
    """The call ran past its timeout."""


class RateLimited(ProviderError):
    """The provider answered 429 or our own budget refused the call."""


class CannotAnswer(ProviderError):
    """The provider cannot handle this request (e.g. the symbolic solver on a word problem)."""
