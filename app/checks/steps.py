"""Check my steps: the student's worked steps, the first wrong one, and why (in their language).

Symbolic checks first (arithmetic claims and derivation lines, in the sandbox); then, when an
admitted verify-tier model is configured and it can still change the result, the ProcessBench
critique on that model, judged like every other verifier (its calibrator and the one judge,
app/verification/step_critique.py); app.verification.step_verdicts combines them, proofs
first. The explanation points at the step and the calculation the student wrote, never at the
right value: it must not give the answer away.

Every witness is kept as a `Verdict` (`WorkCheck.evidence`): each step's symbolic finding and
the critique; the API stores them with the check (app/db/models/check.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from app.analysis.classifier import detect_language
from app.checks.schemas import StepCheck
from app.pipeline.context import PipelineContext
from app.symbolic.step_equations import LOST_ROOT
from app.symbolic.step_sandbox import check_steps
from app.symbolic.steps import StepFinding
from app.verification.admission import critique_admitted, critique_calibrator
from app.verification.step_critique import StepCritique, critique_steps
from app.verification.step_verdicts import (
    StepOutcome,
    combine,
    first_error,
    first_flagged,
    first_wrong,
    symbolic_verdict,
)
from app.verification.verdict import Verdict

# A critique reads the whole solution: longer than quick verify's one answer.
CRITIQUE_TIMEOUT_S = 20.0


@dataclass(frozen=True, slots=True)
class StepEvidence:
    """One witness on the work: `step` is the step it judged (for the critique, the step it
    named; None when it spoke of the whole work or abstained)."""

    step: int | None
    verdict: Verdict


@dataclass(slots=True)
class WorkCheck:
    first_error_step: int | None
    first_flagged_step: int | None
    steps: list[StepCheck]
    language: str
    evidence: list[StepEvidence] = field(default_factory=list)


def step_evidence(findings: list[StepFinding], critique: StepCritique | None) -> list[StepEvidence]:
    rows = [StepEvidence(i, symbolic_verdict(f)) for i, f in enumerate(findings)]
    if critique is not None:
        named = critique.earliest_error
        rows.append(
            StepEvidence(named if named is not None and named >= 0 else None, critique.as_verdict())
        )
    return rows


async def check_work(
    ctx: PipelineContext, problem: str, steps: list[str], verifier: str | None
) -> WorkCheck:
    """The first wrong step (when every step before it was found right), the first step found
    wrong at all, one verdict per step, and the evidence behind them."""
    findings = await check_steps(ctx.sandbox, problem, steps)
    critique: StepCritique | None = None
    model = ctx.registry.get(verifier, "verify") if verifier is not None else None
    own = (
        None
        if model is None
        else critique_calibrator(ctx.step_calibrator, f"{model.provider}:{model.model}")
    )
    # The model is asked only when its critique is admitted and it can still move the first
    # error earlier.
    if (
        model is not None
        and critique_admitted(own, ctx.verify.min_verifier_auroc)
        and first_wrong(f.verdict for f in findings) != 0
    ):
        critique = await critique_steps(
            model,
            problem,
            steps,
            timeout=CRITIQUE_TIMEOUT_S,
            calibrator=own,
            raw_bar=ctx.verify.verified_threshold,
        )
    outcomes = combine(findings, critique)
    language = detect_language(problem + "\n" + "\n".join(steps))
    checks = [
        StepCheck(
            index=i,
            text=steps[i],
            verdict=o.verdict,
            method=o.method,
            explanation=explain(i, o, language) if o.verdict == "wrong" else None,
        )
        for i, o in enumerate(outcomes)
    ]
    return WorkCheck(
        first_error_step=first_error(outcomes),
        first_flagged_step=first_flagged(outcomes),
        steps=checks,
        language=language,
        evidence=step_evidence(findings, critique),
    )


def shown(claim: str) -> str:
    """The claim as the student would recognise it: ((3)/(4)) → 3/4, * → ×, units plain."""
    text = re.sub(r"\(\((-?[\d.]+)\)/\((-?[\d.]+)\)\)", r"\1/\2", claim)
    text = re.sub(r"[⟦⟧]", "", text).replace("*", "×")
    text = text.replace("sqrt", "√").replace("<=", "≤").replace(">=", "≥")
    return re.sub(r"\s+", " ", text).strip()


_TEMPLATES = {
    ("arithmetic", "en"): "Step {n}: check the calculation {claim} again: the two sides are "
    "not equal.",
    ("arithmetic", "zh"): "第{n}步：请再算一算「{claim}」，等号两边并不相等。",
    ("equation", "en"): "Step {n}: going from the line before to {claim} changes the solution "
    "of the equation. Check that both sides were changed in the same way.",
    ("equation", "zh"): "第{n}步：从上一步变到「{claim}」后，方程的解变了。"
    "请检查等式两边是否做了同样的变形。",
    ("first_equation", "en"): "Step {n}: {claim} does not have the same solution as the "
    "equation in the problem. Check how it was copied or changed.",
    (
        "first_equation",
        "zh",
    ): "第{n}步：「{claim}」和题目中方程的解不一样。请检查抄写或变形是否正确。",
    ("lost_root", "en"): "Step {n}: going to {claim} loses a solution of the equation. Did "
    "a division by an expression that can be zero drop one?",
    ("lost_root", "zh"): "第{n}步：变到「{claim}」时丢掉了方程的一个解。"
    "是不是两边同时除以了一个可能为零的式子？",
    ("inequality", "en"): "Step {n}: going from the line before to {claim} changes the "
    "solutions of the inequality. Multiplying or dividing both sides by a negative number "
    "turns the inequality sign around.",
    ("inequality", "zh"): "第{n}步：从上一步变到「{claim}」后，不等式的解集变了。"
    "两边同时乘或除以一个负数时，不等号要改变方向。",
    ("first_inequality", "en"): "Step {n}: {claim} does not have the same solutions as the "
    "inequality in the problem. Check how it was copied or changed.",
    ("first_inequality", "zh"): "第{n}步：「{claim}」和题目中不等式的解集不一样。"
    "请检查抄写或变形是否正确。",
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
    if method == "equation" and finding.detail == LOST_ROOT:
        method = "lost_root"
    elif method == "equation" and index == 0:  # no line before it: the problem's equation
        method = "first_equation"
    if method in ("equation", "first_equation") and re.search(r"[<>]", finding.claim or ""):
        method = method.replace("equation", "inequality")
    template = _TEMPLATES[(method, "zh" if language == "zh" else "en")]
    return template.format(n=index + 1, claim=shown(finding.claim or ""))
