"""The clients this process is configured for: one place that reads provider settings."""

from __future__ import annotations

from app.llm.base import ModelClient
from app.llm.providers.symbolic import SymbolicClient
from app.settings import LLMSettings
from app.symbolic.sandbox import SymbolicSandbox


def configured_clients(settings: LLMSettings, sandbox: SymbolicSandbox) -> list[ModelClient]:
    """The symbolic solver always; model providers join as the provider layer adds them."""
    del settings  # read by the SDK providers (provider-layer issue)
    return [SymbolicClient(sandbox)]
