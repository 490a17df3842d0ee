"""How many answers each provider has given, for the spot-check sampler's "new provider" rate.

Counting solutions per request is a scan that grows with the table; the sampler only asks
"fewer than N?", so a provider past N is never counted again, and below N a count is reused
for `ttl_s` (a few extra spot checks at the boundary are harmless)."""

from __future__ import annotations

import time

from sqlalchemy.ext.asyncio import AsyncSession

from app.scans.repository import ScanRepository
from app.verification.spot_check_sampling import SpotCheckRates


class ProviderResultCounts:
    def __init__(self, enough: int, ttl_s: float = 60.0) -> None:
        self.enough = enough
        self.ttl_s = ttl_s
        self._counts: dict[str, tuple[float, int]] = {}

    async def get(self, session: AsyncSession, provider: str | None) -> int:
        if provider is None:
            return 0
        now = time.monotonic()
        cached = self._counts.get(provider)
        if cached is not None and (cached[1] >= self.enough or cached[0] > now):
            return cached[1]
        count = await ScanRepository(session).provider_result_count(provider)
        self._counts[provider] = (now + self.ttl_s, count)
        return count


def new_provider_counts() -> ProviderResultCounts:
    """Counts up to the spot-check sampler's "new provider" limit."""
    return ProviderResultCounts(SpotCheckRates().new_provider_results)
