"""Programmatic checks (DELLM's most trusted validator): substitution, evaluation, equivalence.

The math runs in the symbolic sandbox; a check that times out or cannot read the problem
abstains, so the validator falls through to the next method instead of guessing.
"""

from __future__ import annotations

import time

from app.symbolic.sandbox import SandboxTimeout, SandboxUnavailable, SymbolicSandbox
from app.verification.verdict import Verdict, abstain


def _elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


async def programmatic_verdict(sandbox: SymbolicSandbox, problem: str, answer: str) -> Verdict:
    started = time.perf_counter()
    try:
        result = await sandbox.check(problem, answer)
    except (SandboxTimeout, SandboxUnavailable) as exc:
        return abstain(
            "programmatic", "symbolic:check", f"check did not finish: {exc}", _elapsed_ms(started)
        )
    except Exception as exc:  # a checker bug on odd input abstains instead of failing the scan
        return abstain(
            "programmatic",
            "symbolic:check",
            f"check failed ({type(exc).__name__})",
            _elapsed_ms(started),
        )
    if result.verdict == "abstain":
        return abstain(
            "programmatic",
            f"symbolic:{result.method}",
            result.detail,
            _elapsed_ms(started),
            conclusive=result.conclusive,
        )
    return Verdict(
        result.verdict,  # type: ignore[arg-type]  # approve|reject: abstain returned above
        "programmatic",
        f"symbolic:{result.method}",
        result.score,
        result.detail,
        independent_answer=result.expected,
        latency_ms=_elapsed_ms(started),
    )


async def ground_truth_verdict(
    sandbox: SymbolicSandbox,
    ground_truth: str,
    answer: str,
    source: str = "problem_bank",
    *,
    problem: str | None = None,
) -> Verdict:
    """Compare with the known answer of the same problem in the problem bank. A unit after
    the number ("72 clips") is read only when `problem` uses that word."""
    started = time.perf_counter()
    verifier_id = f"ground_truth:{source}"
    try:
        same = await sandbox.equivalent(ground_truth, answer, problem)
    except (SandboxTimeout, SandboxUnavailable) as exc:
        return abstain(
            "ground_truth", verifier_id, f"comparison did not finish: {exc}", _elapsed_ms(started)
        )
    except Exception as exc:
        return abstain(
            "ground_truth",
            verifier_id,
            f"comparison failed ({type(exc).__name__})",
            _elapsed_ms(started),
        )
    if same is None:
        return abstain(
            "ground_truth", verifier_id, "the answer could not be compared", _elapsed_ms(started)
        )
    return Verdict(
        "approve" if same else "reject",
        "ground_truth",
        verifier_id,
        1.0 if same else 0.0,
        f"{'matches' if same else 'does not match'} the known answer {ground_truth}",
        independent_answer=ground_truth,
        latency_ms=_elapsed_ms(started),
    )
