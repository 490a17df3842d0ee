"""Programmatic checks (DELLM's most trusted validator): substitution, evaluation, equivalence.

The math runs in the symbolic sandbox; a check that times out or cannot read the problem
abstains, so the validator falls through to the next method instead of guessing.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import replace

from app.symbolic.sandbox import SandboxTimeout, SandboxUnavailable, SymbolicSandbox
from app.symbolic.step_sandbox import check_steps
from app.symbolic.step_text import to_plain
from app.verification.step_verdicts import symbolic_verdict
from app.verification.verdict import Verdict, abstain


def _elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


async def programmatic_verdict(
    sandbox: SymbolicSandbox, problem: str, answer: str, steps: Sequence[str] = ()
) -> Verdict:
    """The answer checked against the problem; where that abstains, the solution's shown
    `steps`: one proved false (`12 + 24 = 30` on the way to 30) rejects the answer it led to."""
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
        false_step = await first_false_step(sandbox, problem, steps) if claims(steps) else None
        if false_step is not None:
            return replace(false_step, latency_ms=_elapsed_ms(started))
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


_RELATION = re.compile(r"[=<>≈≤≥]")
_DIGIT = re.compile(r"\d")


def _number_beside_relation(text: str) -> bool:
    """A digit before some relation, or after one, from where each first and last stands: two
    linear scans (a pattern `\\d[^=]*=` restarts at every digit of a long run)."""
    relations = [m.start() for m in _RELATION.finditer(text)]
    digits = [m.start() for m in _DIGIT.finditer(text)]
    return bool(relations and digits) and (digits[0] < relations[-1] or relations[0] < digits[-1])


def claims(steps: Sequence[str]) -> bool:
    """Can any step hold a claim the step checks judge: a number on one side of a relation
    (18 - 6 = 12, x > 3)? "Work it out" cannot, and costs no sandbox round trip."""
    return any(_number_beside_relation(to_plain(step)) for step in steps)


async def first_false_step(
    sandbox: SymbolicSandbox, problem: str, steps: Sequence[str]
) -> Verdict | None:
    """The first step the symbolic step checks prove false (a proof: sound first, so a
    rounding, a loose percent or prose is never one), as a rejection of the solution."""
    findings = await check_steps(sandbox, problem, list(steps))
    for finding in findings:
        if finding.verdict == "wrong":
            verdict = symbolic_verdict(finding)
            return replace(
                verdict,
                verifier_id="symbolic:solution_steps",
                rationale=f"a step of the solution is false ({verdict.rationale})",
            )
    return None


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
    if same is None:  # the answer is known: one that cannot be read as it is not approved
        return abstain(  # on a model's word either ("72, 73" echoed for 72)
            "ground_truth",
            verifier_id,
            "the answer could not be compared",
            _elapsed_ms(started),
            conclusive=True,
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
