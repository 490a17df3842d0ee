"""Which verifiers may sit on a panel, and how a panel spreads over them.

The admission rule is the one QUICK_VERIFY applies (`ProviderRegistry.verifier_admitted`): a
provider whose measured AUROC is under the bar, or an unmeasured model nobody chose, never
approves anything, so it never sits on a panel (request path and spot checks alike). A panel
of K takes its members across providers first (aspect 1 on every provider, then aspect 2 …),
so one provider's blind spot or outage cannot be the whole panel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.llm.registry import ProviderRegistry
from app.verification.aspects import ASPECTS, AspectVerifier, Language, domain_for
from app.verification.calibration import Calibrator


def admitted_verifiers(
    registry: ProviderRegistry,
    *,
    exclude: str | None,
    measured_auroc: Mapping[str, float],
    min_auroc: float,
) -> list[str]:
    """Verify-capable providers other than `exclude` (the solver) that may approve."""
    return [
        name
        for name in registry.route("*", "verify")
        if name != exclude and registry.verifier_admitted(name, measured_auroc, min_auroc)
    ]


def critique_calibrator(calibrator: Calibrator | None, model_id: str) -> Calibrator | None:
    """The step critique's calibrator when it was fitted on this "provider:model" (or on an
    unnamed one, an older file): another model's claims are not this one's."""
    if calibrator is None or calibrator.measured_on not in (None, model_id):
        return None
    return calibrator


def critique_admitted(own: Calibrator | None, min_auroc: float) -> bool:
    """May this model critique worked steps? The answers' rule already admitted it as a
    verifier; a critique measured on it (`own`, its `critique_calibrator`: `bench steps
    --fit-calibration` records its claims' AUROC on held-out labelled work) must also reach
    the same bar, else it is not asked at all."""
    return own is None or own.auroc is None or own.auroc >= min_auroc


def spread_panel(
    registry: ProviderRegistry,
    providers: Sequence[str],
    keys: Sequence[str],
    size: int,
    *,
    subject: str = "math",
    language: Language = "en",
) -> list[AspectVerifier]:
    """Up to `size` (provider × aspect) verifiers, providers interleaved."""
    unknown = [k for k in keys if k not in ASPECTS]
    if unknown:
        raise ValueError(f"unknown aspect verifiers: {unknown}; known: {sorted(ASPECTS)}")
    clients = [registry.get(name, "verify") for name in providers]
    return [
        AspectVerifier(client, ASPECTS[key], domain_for(subject), language)
        for key in keys
        for client in clients
    ][:size]
