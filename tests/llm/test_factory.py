"""Settings → providers: tiers from the design's MODEL_CONFIG, overrides, budgets, order."""

from __future__ import annotations

from pydantic import SecretStr

from app.llm.budget import InMemoryBudget, Limits
from app.llm.factory import configured_providers
from app.llm.registry import build_registry
from app.llm.resilience import Resilient
from app.llm.types import Message
from app.settings import LLMSettings
from solveverify_bench.fake_llm import FakeLLMServer, Reply


async def test_configured_cloud_providers_follow_the_seed(sandbox) -> None:
    server = FakeLLMServer(default=Reply('{"is_correct": true, "confidence": 0.9}')).start()
    try:
        settings = LLMSettings(
            gemini_api_key=SecretStr("g"),
            gemini_base_url=server.url,
            anthropic_api_key=SecretStr("a"),
            anthropic_base_url=server.url,
            openai_api_key=SecretStr("o"),
            openai_base_url=f"{server.url}/v1",
            models={"openai": {"verify": "gpt-4.1-nano"}},
            llamacpp_enabled=False,
        )
        providers = configured_providers(settings, sandbox, InMemoryBudget())
        registry = build_registry(settings.default_provider_order, providers)
        assert registry.order == ["symbolic", "gemini", "anthropic", "openai"]
        gemini = registry.providers["gemini"]
        assert {t: c.model for t, c in gemini.tiers.items()} == {
            "strong": "gemini-2.5-flash",
            "fast": "gemini-2.5-flash-lite",
            "verify": "gemini-2.5-flash-lite",
            "evaluate": "gemini-2.5-flash",
        }
        assert gemini.tiers["verify"] is gemini.tiers["fast"]  # one client per model id
        verify = registry.get("gemini", "verify")
        assert isinstance(verify, Resilient) and verify.limits == Limits(rpm=15, rpd=1000)
        assert registry.get("anthropic", "verify").model == "claude-haiku-4-5-20251001"
        assert registry.get("anthropic", "evaluate").model == "claude-sonnet-4-20250514"
        assert registry.get("openai", "verify").model == "gpt-4.1-nano"  # the override

        await verify.generate([Message("user", "check")], timeout=10)
        assert server.requests[-1]["path"].endswith("/gemini-2.5-flash-lite:generateContent")
        assert registry.verifier_for("gemini") == "anthropic"
    finally:
        server.stop()


def test_only_symbolic_without_keys(sandbox) -> None:
    providers = configured_providers(LLMSettings(llamacpp_enabled=False), sandbox)
    assert [p.name for p in providers] == ["symbolic"]
