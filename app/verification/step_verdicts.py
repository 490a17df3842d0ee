"""One verdict per step from the symbolic findings and a model's critique (programmatic first).

A symbolic `wrong` is a proof and always stands. The model's critique (the earliest wrong
step, or -1 for none), once its claim stands (app/verification/step_critique.py `judged`), is
believed only where no proof contradicts it: a model that calls a symbolically wrong step
right (its index is -1 or later than the proof's), or that names a step proved right by its
equation, is set aside whole. Otherwise the step it names is `wrong` (method `llm`) when it
comes before any symbolic flag, and the steps before it are `ok`.

Two "first" steps: `first_flagged` is the first step any check found wrong; `first_error` is
that step only when every step before it was shown right: a derivation line that keeps the
equation's solutions, a line of nothing but right calculations, or a step a model critique
that stood vouched for (it named a later step). A false calculation after a step nothing could
read is wrong, but it is not known to be the *first* error: the reasoning before it may
already have gone wrong (ProcessBench's MATH solutions do, often). Right calculations inside
prose are no such proof: the prose's reasoning may be the mistake (`\\frac{2}{2}=1`, so the
lines with slope greater than 1 are outside of the square).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.symbolic.steps import StepFinding
from app.verification.step_critique import NO_ERROR, StepCritique
from app.verification.verdict import Verdict


def symbolic_verdict(finding: StepFinding) -> Verdict:
    """A step's symbolic finding in the ledger's terms: a proof (score 1 or 0) or an
    abstention."""
    verifier_id = f"symbolic:{finding.method or 'steps'}"
    why = finding.detail if not finding.claim else f"{finding.claim}: {finding.detail}"
    if finding.verdict == "ok":
        return Verdict("approve", "programmatic", verifier_id, 1.0, why)
    if finding.verdict == "wrong":
        return Verdict("reject", "programmatic", verifier_id, 0.0, why)
    return Verdict("abstain", "programmatic", verifier_id, None, why)


@dataclass(frozen=True, slots=True)
class StepOutcome:
    verdict: str  # ok | wrong | unchecked
    method: str | None  # arithmetic | equation | llm
    finding: StepFinding
    # shown right: every step before a claimed first error must be (StepFinding.shown_right,
    # or vouched for by a model critique that stood)
    vouched: bool = False


def critique_stands(findings: Sequence[StepFinding], critique: StepCritique | None) -> bool:
    """Is the model's earliest-error index consistent with every proof?"""
    if critique is None or critique.earliest_error is None:
        return False
    index = critique.earliest_error
    first_proved_wrong = first_wrong(f.verdict for f in findings)
    if first_proved_wrong is not None and (index == NO_ERROR or index > first_proved_wrong):
        return False
    proved_right = index >= 0 and findings[index].verdict == "ok"
    return not (proved_right and findings[index].method == "equation")


def first_wrong(verdicts: Iterable[str]) -> int | None:
    """The first step found wrong, whatever came before it (`first_flagged`)."""
    return next((i for i, v in enumerate(verdicts) if v == "wrong"), None)


def first_flagged(outcomes: Sequence[StepOutcome]) -> int | None:
    return first_wrong(o.verdict for o in outcomes)


def first_error(outcomes: Sequence[StepOutcome]) -> int | None:
    """The first wrong step, when every step before it was shown right; else None."""
    flagged = first_flagged(outcomes)
    if flagged is None or any(not (o.verdict == "ok" and o.vouched) for o in outcomes[:flagged]):
        return None
    return flagged


def combine(findings: Sequence[StepFinding], critique: StepCritique | None) -> list[StepOutcome]:
    model_index = None
    if critique is not None and critique_stands(findings, critique):
        model_index = critique.earliest_error
    outcomes: list[StepOutcome] = []
    for i, finding in enumerate(findings):
        if finding.verdict == "wrong":
            outcomes.append(StepOutcome("wrong", finding.method, finding))
        elif model_index is not None and i == model_index:
            outcomes.append(StepOutcome("wrong", "llm", finding))
        elif model_index is not None and (model_index == NO_ERROR or i < model_index):
            method = finding.method if finding.verdict == "ok" else "llm"
            outcomes.append(StepOutcome("ok", method, finding, vouched=True))
        else:
            outcomes.append(
                StepOutcome(finding.verdict, finding.method, finding, finding.shown_right)
            )
    return outcomes
