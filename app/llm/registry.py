"""Which clients exist, and which one to ask for what.

Provider choice follows seed §2: the solver comes from the subject's route; the verifier must be
a different provider than the solver (no self-evaluation), and a retry uses a provider that has
not been tried for this problem.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from app.llm.base import Capability, ModelClient

# The seed's MODEL_CONFIG (multi-model-evaluation-design.md §7): model ids per provider and tier.
MODEL_CONFIG: dict[str, dict[str, str]] = {
    "anthropic": {"strong": "claude-sonnet-4-20250514", "fast": "claude-haiku-4-5-20251001"},
    "openai": {"strong": "gpt-4o", "fast": "gpt-4o-mini"},
    "gemini": {
        "strong": "gemini-2.5-flash",
        "fast": "gemini-2.5-flash-lite",
        "verify": "gemini-2.5-flash-lite",
        "evaluate": "gemini-2.5-flash",
    },
}


class ProviderRegistry:
    def __init__(self, clients: Mapping[str, ModelClient], order: Iterable[str]) -> None:
        self.clients = dict(clients)
        listed = [name for name in order if name in self.clients]
        # Clients not named in the order (e.g. injected in tests) go last, in insertion order.
        self.order = listed + [name for name in self.clients if name not in listed]

    def __contains__(self, name: str) -> bool:
        return name in self.clients

    def get(self, name: str) -> ModelClient:
        return self.clients[name]

    def route(self, subject: str, capability: Capability = "solve") -> list[str]:
        """Providers for `subject`, best first (static order until routing learns from data)."""
        return [n for n in self.order if capability in self.clients[n].capabilities]

    def next_solver(self, subject: str, tried: Iterable[str]) -> str | None:
        tried = set(tried)
        return next((n for n in self.route(subject) if n not in tried), None)

    def verifier_for(self, solver: str | None) -> str | None:
        """A verify-capable provider other than the one that produced the answer."""
        return next((n for n in self.route("*", "verify") if n != solver), None)

    @property
    def has_model_provider(self) -> bool:
        return any("verify" in c.capabilities for c in self.clients.values())


def build_registry(order: Iterable[str], clients: Iterable[ModelClient]) -> ProviderRegistry:
    return ProviderRegistry({c.provider: c for c in clients}, order)
