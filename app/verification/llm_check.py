"""An independent model re-computes the answer (the design's quick_verify) and we read its JSON.

A model's `is_correct` is only believed when its own work agrees: a verifier whose
independent answer is not equivalent to the candidate rejects it, whatever `is_correct`
says; one whose answer cannot be compared (or that gives none) cannot approve. A verifier
that is not admitted (AUROC below the bar, see ProviderRegistry.verifier_admitted) may reject
or abstain, never approve.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from fractions import Fraction

from app.llm.base import ModelClient
from app.llm.errors import ProviderError
from app.llm.outputs import QuickVerifyOutput, schema_of
from app.llm.structured import (
    coerce_bool,
    coerce_probability,
    extract_json,
    extract_verdict_line,
)
from app.llm.types import Message
from app.verification.verdict import Verdict, VerdictKind, abstain

DEFAULT_CONFIDENCE = 0.5  # a verdict without a stated confidence is a coin flip, not certainty

# (independent answer, candidate) → equivalent? None when it cannot tell (the sandbox's).
Equivalence = Callable[[str, str], Awaitable[bool | None]]
_NO_ANSWER = {"", "none", "null", "n/a", "unknown"}


_PLAIN_NUMBER = re.compile(r"\s*\$?\s*(-?\d+(?:\.(\d+))?)\s*(%?)\s*")
_FRACTION = re.compile(r"\s*(-?\d+)\s*/\s*(\d+)\s*(%?)\s*")


def _exact(text: str) -> tuple[Fraction, int | None, str] | None:
    """A plain number or a fraction: its value, its decimal places (None for a fraction),
    and its percent sign."""
    if (number := _PLAIN_NUMBER.fullmatch(text)) is not None:
        return Fraction(number[1]), len(number[2] or ""), number[3]
    if (fraction := _FRACTION.fullmatch(text)) is not None and int(fraction[2]) != 0:
        return Fraction(int(fraction[1]), int(fraction[2])), None, fraction[3]
    return None


def rounded_from(unrounded: str | None, candidate: str) -> bool:
    """Is `candidate` a plain number that `unrounded` (with more decimals, or a fraction)
    rounds to at the candidate's places, same sign and same percent sign (84.33 → 84,
    66.67% → 66.7%, 1/3 → 0.333)?"""
    a, b = _exact(unrounded or ""), _exact(candidate)
    if a is None or b is None or a[2] != b[2] or b[1] is None:
        return False
    places = b[1]
    if a[1] is not None and a[1] <= places:
        return False
    return abs(a[0] - b[0]) <= Fraction(1, 2 * 10**places)


def _by_rounding(independent: str | None, candidate: str) -> bool:
    if independent is None:
        return False
    return rounded_from(independent, candidate) or rounded_from(candidate, independent)


# An error the verifier describes while calling the answer correct ("should be 12").
_DESCRIBES_AN_ERROR = re.compile(
    r"\b(?:error|mistake|incorrect|wrong|miscalculat\w*|should\s+(?:be|have)|instead\s+of"
    r"|not\s+correct)\b|错|误|不对|应该是|应为",
    re.IGNORECASE,
)
_NO_ERROR = re.compile(
    r"^\s*(?:none|no\b|n/?a\b|null|nothing|there\s+(?:is|are)\s+no|无|没有|-+\s*$)",
    re.IGNORECASE,
)


def _describes_an_error(description: str) -> bool:
    return bool(_DESCRIBES_AN_ERROR.search(description)) and not _NO_ERROR.match(description)


async def _agrees(equivalent: Equivalence, independent: str, candidate: str) -> bool | None:
    if " ".join(independent.split()) == " ".join(candidate.split()):
        return True  # "20个" and "20个": the same text, whatever a reader makes of it
    try:
        return await equivalent(independent, candidate)
    except Exception:  # a sandbox timeout or crash: the comparison is unknown, not a pass
        return None


async def llm_verdict(
    client: ModelClient,
    messages: Sequence[Message],
    *,
    timeout: float,
    candidate: str | None = None,
    equivalent: Equivalence | None = None,
    may_approve: bool = True,
) -> Verdict:
    """`candidate` and `equivalent`: cross-check the verifier's independent answer against
    the answer under review (the service always passes both; benchmarks that score raw
    verdicts may not). `may_approve`: False for a verifier not admitted to grant `verified`."""
    verifier_id = f"{client.provider}:{client.model}:quick_verify"
    started = time.perf_counter()

    def elapsed() -> float:
        return (time.perf_counter() - started) * 1000

    try:
        async with asyncio.timeout(timeout):  # the whole call, retries included
            response = await client.generate(
                messages, json_schema=schema_of(QuickVerifyOutput), timeout=timeout, max_tokens=512
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
    stated = coerce_probability(data.get("confidence"))
    confidence = DEFAULT_CONFIDENCE if stated is None else stated
    raw_independent = data.get("independent_answer")
    independent = None if raw_independent is None else str(raw_independent).strip()
    if independent is not None and independent.lower() in _NO_ANSWER:
        independent = None
    rationale = str(data.get("error_description") or "")

    def verdict(kind: VerdictKind, score: float | None, why: str) -> Verdict:
        return Verdict(
            kind,
            "llm",
            verifier_id,
            score,
            why,
            independent_answer=independent,
            latency_ms=elapsed(),
            tokens=response.usage.total,
        )

    said = f"the verifier said is_correct={str(is_correct).lower()} with independent answer"
    said += f" {independent!r}" if independent is not None else " none"
    if stated is not None and stated < DEFAULT_CONFIDENCE:
        # "Correct, confidence 0.1", "wrong (42), confidence 0": it does not believe its own
        # verdict, nor the answer it worked out
        return verdict("abstain", None, f"{said}, at confidence {stated:g}: not a verdict")
    if equivalent is not None and candidate is not None:
        agrees = None if independent is None else await _agrees(equivalent, independent, candidate)
        if agrees is True and not is_correct:  # "incorrect", with the candidate's own answer
            return verdict("abstain", None, f"{said}, which is {candidate!r} itself")
        if agrees is False and is_correct and _by_rounding(independent, candidate):
            # 84.33 said right for 84 ("to the nearest whole number"), or 0.333 for 1/3: the
            # same value, one of them rounded
            return verdict("abstain", None, f"{said}; it differs from {candidate!r} by rounding")
        if agrees is False:  # its own work contradicts the candidate: a rejection
            # Score is P(answer correct). Having claimed "correct", its confidence is in a
            # claim its own work refutes: a coin flip, a rejection nobody should call sure.
            score = 1.0 - confidence if not is_correct else 0.5
            return verdict("reject", score, f"{said}, which differs from {candidate!r}")
        if agrees is None and is_correct:
            why = "could not be compared" if independent is not None else "is missing"
            return verdict("abstain", None, f"{said}; an approval needs an agreeing answer ({why})")
    if is_correct and _describes_an_error(rationale):
        return verdict("abstain", None, f"{said}, yet describes an error: {rationale[:200]!r}")
    if is_correct and not may_approve:
        return verdict("abstain", None, f"{said}; this verifier is not admitted to grant verified")
    # Score is P(answer correct): a confident rejection is a low score.
    return verdict(
        "approve" if is_correct else "reject",
        confidence if is_correct else 1.0 - confidence,
        "; ".join(filter(None, [rationale, said])),
    )
