"""How much evidence a scan buys before answering (settings, per subject and difficulty).

`SOLVEVERIFY_VERIFY_EVIDENCE` maps "subject:difficulty", "subject" or "*" to "quick" (one
solve + quick verify, the default) or "panel:K" (also K MAV aspect verifiers, concurrently,
on admitted providers other than the solver, spread across them: design-notes, MAV) or
"samples:N" (N more solves by the answering provider; the best-supported answer is returned
and the share agreeing with it is evidence: self-consistency,
app/pipeline/self_consistency.py), or both joined by "+" ("samples:3+panel:6": samples first,
then the panel judges the answer they chose). The most specific key wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from app.pipeline.context import PipelineContext
from app.pipeline.self_consistency import SampleAgreement, Sampler, draw_samples
from app.pipeline.state import SolveState
from app.settings import VerifySettings
from app.verification.admission import admitted_verifiers, spread_panel
from app.verification.aspects import DEFAULT_MATH_SET, AspectVerifier
from app.verification.calibration import Calibrator
from app.verification.combiner import settled_for_each, unchanged_between
from app.verification.panel import PanelResult, run_panel
from app.verification.verdict import Verdict


@dataclass(frozen=True, slots=True)
class EvidencePlan:
    panel_size: int = 0  # 0: quick verify only
    samples: int = 0  # self-consistency samples; 0: none


def evidence_plan(verify: VerifySettings, subject: str, difficulty: str) -> EvidencePlan:
    table = verify.evidence
    spec = table.get(f"{subject}:{difficulty}") or table.get(subject) or table.get("*") or "quick"
    panel_size = samples = 0
    for part in spec.split("+"):
        kind, _, size = part.strip().partition(":")
        if kind == "panel":
            panel_size = int(size or len(DEFAULT_MATH_SET))
        elif kind == "samples":
            samples = int(size or 5)
    return EvidencePlan(panel_size=panel_size, samples=samples)


def fitted_evidence_model(ctx: PipelineContext) -> Calibrator | None:
    """The calibrator that may stop buying evidence early, else None: only a fitted evidence
    model can tell what a verdict would change (an empty one knows nothing), and a run that
    explores buys everything (app/pipeline/exploration.py)."""
    calibrator = ctx.calibrator
    if calibrator is None or not calibrator.fitted_evidence or not ctx.verify.panel_early_stop:
        return None
    if ctx.explore:
        return None
    return calibrator


def panel_verifiers(ctx: PipelineContext, state: SolveState, size: int) -> list[AspectVerifier]:
    """The K aspect verifiers of this answer's panel: on the admitted verify-capable providers
    but the solver, spread across them."""
    names = admitted_verifiers(
        ctx.registry,
        exclude=state.provider,
        measured_auroc=ctx.verify.verifier_auroc,
        min_auroc=ctx.verify.min_verifier_auroc,
    )
    sets = ctx.verify.aspect_sets
    keys = sets.get(state.subject) or sets.get("*") or DEFAULT_MATH_SET
    return spread_panel(
        ctx.registry, names, keys, size, subject=state.subject, language=state.language
    )


async def samples_evidence(
    ctx: PipelineContext,
    state: SolveState,
    plan: EvidencePlan,
    prior: Sequence[Verdict],
    sampler: Sampler,
) -> SampleAgreement:
    """`plan.samples` self-consistency samples (app/pipeline/self_consistency.py).

    Adaptive evidence (issue 25): with a fitted evidence model they are drawn in two waves,
    and the second is not drawn now once no outcome of it can change the answer returned (it
    cannot outvote the answer in hand) and either no panel is planned and it cannot change
    the badge over the `prior` verdicts (`unchanged_between`), or a panel is planned: then it
    is drawn after the panel, if still needed (`rest_of_samples`)."""
    fitted = fitted_evidence_model(ctx)
    if fitted is None:
        return await draw_samples(sampler)
    provider, threshold = _sampled_by(ctx, state)

    def settled(sampled: SampleAgreement, left: int) -> bool:
        if not sampled.keeps_whatever(left):
            return False
        if plan.panel_size:
            return True  # the answer the panel judges is settled; the rest waits for it
        return _unchanged(fitted, prior, sampled, left, provider, threshold)

    return await draw_samples(sampler, stop_when=settled)


async def rest_of_samples(
    ctx: PipelineContext,
    state: SolveState,
    heard: Sequence[Verdict],
    sampler: Sampler,
    sampled: SampleAgreement,
) -> SampleAgreement:
    """The samples put off until the panel was heard (`samples_evidence`): drawn only if
    their outcome can still change the badge over every verdict `heard`. Else the share stays
    over the samples drawn: it lies between the fewest and the most agreeing completions, and
    those give the same badge, so every completion does (the features read the share
    linearly and the badge is monotone in P)."""
    if not sampler.left:
        return sampled
    fitted = fitted_evidence_model(ctx)
    provider, threshold = _sampled_by(ctx, state)
    if fitted is not None and _unchanged(fitted, heard, sampled, sampler.left, provider, threshold):
        return sampled
    return await sampler.draw(sampler.left)


def _sampled_by(ctx: PipelineContext, state: SolveState) -> tuple[str, float]:
    assert state.provider is not None
    return state.provider, ctx.verify.self_consistency_threshold


def _unchanged(
    fitted: Calibrator,
    heard: Sequence[Verdict],
    sampled: SampleAgreement,
    left: int,
    provider: str,
    threshold: float,
) -> bool:
    """Whether the badge over `heard` stays what it is whatever the `left` samples not drawn
    show (`unchanged_between` the fewest and the most agreeing completions)."""
    every = sampled.completions(left)
    ends = (every[0].verdict(provider, threshold), every[-1].verdict(provider, threshold))
    return unchanged_between(fitted, heard, ends, [])


async def panel_evidence(
    ctx: PipelineContext,
    state: SolveState,
    size: int,
    prior: Sequence[Verdict] = (),
    deferred: tuple[SampleAgreement, int] | None = None,
) -> PanelResult:
    """K aspect verifiers on the admitted verify-capable providers but the solver, spread
    across them, run concurrently. Abstentions are no evidence (app/verification/panel.py).

    Adaptive evidence (issue 25): with a fitted evidence model, verifiers are asked in waves
    (`panel_max_concurrency`, else half the panel) and no more are asked once no mix of the
    rest's answers could change the badge the combiner gives (`settled_badge`, over the
    `prior` verdicts of this answer and the panel's). With samples `deferred` (the agreement
    so far, how many are left: `samples_evidence`), that must hold for every share they can
    end at, so the panel is settled whichever they would show."""
    assert state.solution is not None
    verifiers = panel_verifiers(ctx, state, size)
    text = "\n".join(
        [
            *(s.description for s in state.solution.steps),
            f"Final answer: {state.solution.final_answer}",
        ]
    )
    checks = [partial(v.verify, state.problem_text, text) for v in verifiers]
    fitted = fitted_evidence_model(ctx)
    if fitted is None:
        return await run_panel(
            checks,
            threshold=ctx.verify.panel_threshold,
            early_stop=False,  # every verdict is a calibration feature
            max_concurrency=ctx.verify.panel_max_concurrency,
        )
    provider, threshold = _sampled_by(ctx, state)
    sampled, left = deferred if deferred is not None else (None, 0)
    shares = (
        [[c.verdict(provider, threshold)] for c in sampled.completions(left)] if sampled else [[]]
    )

    def settled(heard: Sequence[Verdict], pending: Sequence[str]) -> bool:
        return settled_for_each(fitted, [*prior, *heard], pending, shares)

    return await run_panel(
        checks,
        threshold=ctx.verify.panel_threshold,
        max_concurrency=ctx.verify.panel_max_concurrency or max(1, (len(checks) + 1) // 2),
        ids=[v.verifier_id for v in verifiers],
        stop_when=settled,
    )
