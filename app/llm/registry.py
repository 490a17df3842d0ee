"""Which providers exist, their models per tier, and which one to ask for what.

Provider choice follows design-notes §2: the solver comes from the subject's route; the
verifier is a provider other than the solver (no self-evaluation); a retry uses a provider not
yet tried.
Tiers follow the design's MODEL_CONFIG (§7): strong (solve), fast, verify (quick verify) and
evaluate (deep evaluation); a provider without a tier falls back along TIER_FALLBACK.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from app.llm.base import Capability, ModelClient

Tier = Literal["strong", "fast", "verify", "evaluate"]
TIERS: tuple[Tier, ...] = ("strong", "fast", "verify", "evaluate")
TIER_FALLBACK: dict[Tier, tuple[Tier, ...]] = {
    "strong": ("strong",),
    "fast": ("fast", "strong"),
    "verify": ("verify", "fast", "strong"),
    "evaluate": ("evaluate", "strong"),
}

# the design's MODEL_CONFIG (design-notes §7); settings may override any id.
MODEL_CONFIG: dict[str, dict[Tier, str]] = {
    "anthropic": {"strong": "claude-sonnet-4-20250514", "fast": "claude-haiku-4-5-20251001"},
    "openai": {"strong": "gpt-4o", "fast": "gpt-4o-mini"},
    "gemini": {
        "strong": "gemini-2.5-flash",
        "fast": "gemini-2.5-flash-lite",
        "verify": "gemini-2.5-flash-lite",
        "evaluate": "gemini-2.5-flash",
    },
}


def model_ids(provider: str, overrides: Mapping[str, Mapping[str, str]]) -> dict[Tier, str]:
    """the design's ids for `provider`, with the configured overrides on top."""
    merged: dict[Tier, str] = dict(MODEL_CONFIG.get(provider, {}))
    merged.update({t: m for t, m in overrides.get(provider, {}).items() if t in TIERS})
    return merged


@dataclass(slots=True)
class Provider:
    """One provider's clients, one per tier (several tiers may share a client).

    `operator_chosen`: false for a model nobody picked for this deployment (the bundled tiny
    GGUF); such a verifier cannot grant `verified` until a measured AUROC admits it.
    """

    name: str
    tiers: dict[Tier, ModelClient] = field(default_factory=dict)
    operator_chosen: bool = True

    @classmethod
    def single(cls, client: ModelClient) -> Provider:
        return cls(client.provider, {"strong": client})

    @property
    def capabilities(self) -> frozenset[Capability]:
        return self.tiers["strong"].capabilities

    def client(self, tier: Tier = "strong") -> ModelClient:
        for candidate in TIER_FALLBACK[tier]:
            if candidate in self.tiers:
                return self.tiers[candidate]
        raise KeyError(f"{self.name} has no {tier} model")


class ProviderRegistry:
    def __init__(self, providers: Iterable[Provider], order: Iterable[str]) -> None:
        self.providers = {p.name: p for p in providers}
        listed = [name for name in order if name in self.providers]
        # Providers not named in the order (e.g. added in tests) go last, in insertion order.
        self.order = listed + [name for name in self.providers if name not in listed]
        # subject → provider to ask first, learned from data (app.analytics.routing)
        self.preferred: dict[str, str] = {}

    def prefer(self, table: Mapping[str, str]) -> None:
        self.preferred = dict(table)

    def __contains__(self, name: str) -> bool:
        return name in self.providers

    def get(self, name: str, tier: Tier = "strong") -> ModelClient:
        return self.providers[name].client(tier)

    def route(self, subject: str, capability: Capability = "solve") -> list[str]:
        """Providers for `subject`, best first (static order until routing learns from data)."""
        names = [n for n in self.order if capability in self.providers[n].capabilities]
        first = self.preferred.get(subject)
        if capability == "solve" and first in names and first != names[0]:
            names.remove(first)
            names.insert(0, first)
        return names

    def next_solver(self, subject: str, tried: Iterable[str]) -> str | None:
        tried = set(tried)
        return next((n for n in self.route(subject) if n not in tried), None)

    def verifier_for(self, solver: str | None) -> str | None:
        """A verify-capable provider other than the one that produced the answer."""
        return next((n for n in self.route("*", "verify") if n != solver), None)

    def verifier_admitted(
        self, name: str, measured_auroc: Mapping[str, float], min_auroc: float
    ) -> bool:
        """May this provider's verify model grant `verified`? Its measured AUROC ("provider:
        model" or "provider") must reach `min_auroc`; unmeasured, only an operator's choice."""
        provider = self.providers[name]
        model = provider.client("verify").model
        auroc = measured_auroc.get(f"{name}:{model}", measured_auroc.get(name))
        if auroc is None:
            return provider.operator_chosen
        return auroc >= min_auroc

    def labeller(self, measured_auroc: Mapping[str, float], min_auroc: float) -> str | None:
        """The provider that labels scans (ANALYZE, ENRICH): the first analyze-capable one
        under the verifier admission rule. Labels reach the student unchecked, so a model not
        admitted to verify (the bundled tiny GGUF, unmeasured) does not label either."""
        return next(
            (
                name
                for name in self.route("*", "analyze")
                if self.verifier_admitted(name, measured_auroc, min_auroc)
            ),
            None,
        )

    @property
    def has_model_provider(self) -> bool:
        return any("verify" in p.capabilities for p in self.providers.values())


def build_registry(
    order: Iterable[str], providers: Iterable[Provider | ModelClient]
) -> ProviderRegistry:
    return ProviderRegistry(
        [p if isinstance(p, Provider) else Provider.single(p) for p in providers], order
    )
