"""An independent model re-computes the answer (the seed's quick_verify) and we read its JSON."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

from app.llm.base import ModelClient
from app.llm.errors import ProviderError
from app.llm.structured import (
    coerce_bool,
    coerce_probability,
    extract_json,
    extract_verdict_line,
)
from app.llm.outputs import QuickVerifyOutput, schema_of
from app.llm.types import Message
from app.verification.verdict import Verdict, abstain

DEFAULT_CONFIDENCE = 0.5  # a verdict without a stated confidence is a coin flip, not certainty


async def llm_verdict(
    client: ModelClient, messages: Sequence[Message], *, timeout: float
) -> Verdict:
    verifier_id = f"{client.provider}:{client.model}:quick_verify"
    started = time.perf_counter()

    def elapsed() -> float:
        return (time.perf_counter() - started) * 1000

    try:
        response = await asyncio.wait_for(
            client.generate(
                messages, json_schema=schema_of(QuickVerifyOutput), timeout=timeout, max_tokens=512
            ),
            timeout,
        )
    except TimeoutError:
        return abstain("llm", verifier_id, f"no verdict within {timeout:.1f}s", elapsed())
    except ProviderError as exc:
        return abstain("llm", verifier_id, f"verifier unavailable: {exc}", elapsed())

    data = response.data or extract_json(response.text) or {}
    is_correct = coerce_bool(data.get("is_correct"))
    if is_correct is None:  # no JSON verdict: accept MAV's "FINAL VERIFICATION ANSWER" line
        is_correct = extract_verdict_line(response.text)
    if is_correct is None:  # prose, or JSON without a verdict: an abstention, recorded as such
        return abstain("llm", verifier_id, "unparsable verdict: " + response.text[:200], elapsed())
    confidence = coerce_probability(data.get("confidence"))
    confidence = DEFAULT_CONFIDENCE if confidence is None else confidence
    independent = data.get("independent_answer")
    return Verdict(
        "approve" if is_correct else "reject",
        "llm",
        verifier_id,
        # Score is P(answer correct): a confident rejection is a low score.
        confidence if is_correct else 1.0 - confidence,
        str(data.get("error_description") or ""),
        independent_answer=None if independent is None else str(independent),
        latency_ms=elapsed(),
        tokens=response.usage.total,
    )
