"""The model providers a process calls, with the symbolic sandbox and the token budget they
share: opened by every process that solves or checks (the server's Resources, a worker's job
context, the CLI and the benchmark), closed with the caller's exit stack."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AsyncExitStack

from redis.asyncio import Redis

from app.llm.base import ModelClient
from app.llm.budget import Budget, InMemoryBudget, RedisBudget
from app.llm.factory import configured_providers
from app.llm.registry import ProviderRegistry, build_registry
from app.settings import Settings
from app.symbolic.sandbox import SymbolicSandbox


def open_redis(settings: Settings, stack: AsyncExitStack) -> Redis | None:
    if not settings.redis.url:
        return None
    # Short timeouts: a Redis outage must fail fast (budgets and limits fail open), not hang.
    redis: Redis = Redis.from_url(settings.redis.url, socket_timeout=2, socket_connect_timeout=2)
    stack.push_async_callback(redis.aclose)
    return redis


async def open_providers(
    settings: Settings,
    stack: AsyncExitStack,
    extra_clients: Sequence[ModelClient] = (),
    redis: Redis | None = None,
) -> tuple[SymbolicSandbox, Budget, ProviderRegistry]:
    """`redis`: a client the caller already opened (else one is opened when configured)."""
    sandbox = SymbolicSandbox(settings.verify.symbolic_workers, settings.verify.symbolic_timeout_s)
    stack.callback(sandbox.close)
    await sandbox.warm_up()
    redis = redis or open_redis(settings, stack)
    # Budgets are shared in Redis when there is one (all processes count together).
    budget: Budget = InMemoryBudget() if redis is None else RedisBudget(redis)
    registry = build_registry(
        settings.llm.default_provider_order,
        [*configured_providers(settings.llm, sandbox, budget, stack), *extra_clients],
    )
    return sandbox, budget, registry
