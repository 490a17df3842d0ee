"""Check my steps: the student's worked steps, the first wrong one, and why (in their language).

Symbolic checks first (arithmetic claims and derivation lines, in the sandbox); then, when an
admitted verify-tier model is configured and it can still change the result, the ProcessBench
critique on that model; app.verification.step_verdicts combines them, proofs first. The
explanation points at the step and the calculation the student wrote, never at the right
value: it must not give the answer away.
"""

from __future__ import annotations

import re

from app.analysis.classifier import detect_language
from app.pipeline.context import PipelineContext
from app.schemas.checks import StepCheck
from app.symbolic.step_sandbox import check_steps
from app.symbolic.steps import StepFinding
from app.verification.step_critique import StepCritique, critique_steps
from app.verification.step_verdicts import StepOutcome, combine, first_wrong

# A critique reads the whole solution: longer than quick verify's one answer.
CRITIQUE_TIMEOUT_S = 20.0


async def check_work(
    ctx: PipelineContext, problem: str, steps: list[str], verifier: str | None
) -> tuple[int | None, list[StepCheck]]:
    """(first wrong step or None, one verdict per step)."""
    findings = await check_steps(ctx.sandbox, problem, steps)
    critique: StepCritique | None = None
    # The model is asked only while it can still move the first error earlier.
    if verifier is not None and first_wrong(f.verdict for f in findings) != 0:
        critique = await critique_steps(
            ctx.registry.get(verifier, "verify"), problem, steps, timeout=CRITIQUE_TIMEOUT_S
        )
    outcomes = combine(findings, critique)
    language = detect_language(problem + "\n" + "\n".join(steps))
    checks = [
        StepCheck(
            index=i,
            verdict=o.verdict,
            method=o.method,
            explanation=explain(i, o, language) if o.verdict == "wrong" else None,
        )
        for i, o in enumerate(outcomes)
    ]
    return first_wrong(o.verdict for o in outcomes), checks


def shown(claim: str) -> str:
    """The claim as the student would recognise it: ((3)/(4)) → 3/4, * → ×, units plain."""
    text = re.sub(r"\(\((-?[\d.]+)\)/\((-?[\d.]+)\)\)", r"\1/\2", claim)
    text = re.sub(r"[⟦⟧]", "", text).replace("*", "×")
    text = text.replace("sqrt", "√")
    return re.sub(r"\s+", " ", text).strip()


_TEMPLATES = {
    ("arithmetic", "en"): "Step {n}: check the calculation {claim} again: the two sides are "
    "not equal.",
    ("arithmetic", "zh"): "第{n}步：请再算一算「{claim}」，等号两边并不相等。",
    ("equation", "en"): "Step {n}: going from the line before to {claim} changes the solution "
    "of the equation. Check that both sides were changed in the same way.",
    ("equation", "zh"): "第{n}步：从上一步变到「{claim}」后，方程的解变了。"
    "请检查等式两边是否做了同样的变形。",
    ("llm", "en"): "Step {n} looks wrong to the checker. Read it again carefully: is every "
    "fact taken from the problem right, and is each operation the right one?",
    ("llm", "zh"): "第{n}步可能有错误。请再仔细读一读：用到的条件对不对，每一步运算选得对不对？",
}


def explain(index: int, outcome: StepOutcome, language: str) -> str:
    """Where the mistake is, 1-based as a student counts steps; no right value is given."""
    finding: StepFinding = outcome.finding
    method = outcome.method if outcome.method in ("arithmetic", "equation") else "llm"
    if method != "llm" and not finding.claim:
        method = "llm"
    template = _TEMPLATES[(method, "zh" if language == "zh" else "en")]
    return template.format(n=index + 1, claim=shown(finding.claim or ""))
