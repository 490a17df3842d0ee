"""How much evidence a scan buys before answering (settings, per subject and difficulty).

`SOLVEVERIFY_VERIFY_EVIDENCE` maps "subject:difficulty", "subject" or "*" to "quick" (one
solve + quick verify, the default) or "panel:K" (also K MAV aspect verifiers, concurrently,
on providers other than the solver: design-notes, MAV) or "samples:N" (N more solves by the
answering provider; the share agreeing with the answer is evidence: self-consistency,
app/pipeline/self_consistency.py). The most specific key wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from app.pipeline.context import PipelineContext
from app.pipeline.state import SolveState
from app.settings import VerifySettings
from app.verification.aspects import DEFAULT_MATH_SET, build_panel
from app.verification.panel import PanelResult, run_panel


@dataclass(frozen=True, slots=True)
class EvidencePlan:
    panel_size: int = 0  # 0: quick verify only
    samples: int = 0  # self-consistency samples; 0: none


def evidence_plan(verify: VerifySettings, subject: str, difficulty: str) -> EvidencePlan:
    table = verify.evidence
    spec = table.get(f"{subject}:{difficulty}") or table.get(subject) or table.get("*") or "quick"
    kind, _, size = spec.partition(":")
    if kind == "panel":
        return EvidencePlan(panel_size=int(size or len(DEFAULT_MATH_SET)))
    if kind == "samples":
        return EvidencePlan(samples=int(size or 5))
    return EvidencePlan()


async def panel_evidence(ctx: PipelineContext, state: SolveState, size: int) -> PanelResult:
    """K aspect verifiers on every verify-capable provider but the solver, run concurrently."""
    assert state.solution is not None
    names = [n for n in ctx.registry.route("*", "verify") if n != state.provider]
    sets = ctx.verify.aspect_sets
    keys = sets.get(state.subject) or sets.get("*") or DEFAULT_MATH_SET
    clients = [ctx.registry.get(n, "verify") for n in names]
    verifiers = build_panel(clients, keys, subject=state.subject, language=state.language)[:size]
    text = "\n".join(
        [
            *(s.description for s in state.solution.steps),
            f"Final answer: {state.solution.final_answer}",
        ]
    )
    return await run_panel(
        [partial(v.verify, state.problem_text, text) for v in verifiers],
        threshold=ctx.verify.panel_threshold,
        early_stop=False,  # every verdict is a calibration feature
        max_concurrency=ctx.verify.panel_max_concurrency,
    )
