"""Self-consistency as request-path evidence and selection: N more solves, answers clustered
by equivalence (the sandbox). The answer returned is the best-supported candidate — the
largest cluster, the answer already in hand on a tie (weighted self-consistency; the panel
then judges the chosen one) — and the share of all candidates agreeing with it is evidence
(design-notes, the verifier benchmark harness: self-consistency pattern)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from pydantic import ValidationError

from app.llm.errors import ProviderError
from app.llm.outputs import SolveOutput, schema_of
from app.llm.structured import extract_json
from app.pipeline.context import PipelineContext
from app.pipeline.nodes.solve import parse_solution
from app.pipeline.prompts import solve as prompts
from app.pipeline.state import SolveState
from app.symbolic.sandbox import SandboxUnavailable
from app.verification.verdict import Verdict

# Samples must differ to be evidence: deterministic decoding would repeat one answer N times.
SAMPLE_TEMPERATURE = 0.7


@dataclass(frozen=True, slots=True)
class SampleAgreement:
    samples: int  # requested (each one model call)
    answers: list[str]  # the usable answers that came back
    clusters: list[list[str]]  # answers grouped by equivalence, largest first
    agreeing: int  # other candidates (of `samples`) equivalent to the answer returned
    # The best-supported sample's solution when its cluster outvotes the answer in hand
    # (counting that answer as one vote), else None: keep the answer in hand.
    better: SolveOutput | None = None

    @property
    def agreement(self) -> float:
        """Share of the other candidates agreeing with the answer returned (`samples` of them:
        the samples, or the answer in hand and the other samples after a switch); a failed
        sample never agrees."""
        return self.agreeing / self.samples if self.samples else 0.0

    def verdict(self, provider: str, threshold: float) -> Verdict:
        largest = len(self.clusters[0]) if self.clusters else 0
        # Another answer held by more samples than ours is evidence against ours.
        approve = self.agreement >= threshold and self.agreeing >= largest
        return Verdict(
            "approve" if approve else "reject",
            "llm",
            f"{provider}:self_consistency",
            self.agreement,
            f"{self.agreeing}/{self.samples} samples agree; clusters "
            + ", ".join(f"{c[0]}×{len(c)}" for c in self.clusters),
        )


async def _sample(ctx: PipelineContext, state: SolveState, seed: int) -> SolveOutput | None:
    assert state.provider is not None
    messages = prompts.build(
        state.problem_text, state.language, [(e.question, e.solution) for e in state.examples]
    )
    try:
        reply = await ctx.registry.get(_solver(ctx, state)).generate(
            messages,
            json_schema=schema_of(SolveOutput),
            temperature=SAMPLE_TEMPERATURE,
            seed=seed,
        )
        return parse_solution(reply.data or extract_json(reply.text), reply.text)
    except (ProviderError, ValidationError):
        return None


def _solver(ctx: PipelineContext, state: SolveState) -> str:
    """The registry name of the provider that answered (a reply may name its upstream)."""
    assert state.provider is not None
    if state.provider in ctx.registry or not state.provider_history:
        return state.provider
    return state.provider_history[-1]


async def _same(ctx: PipelineContext, a: str, b: str, problem: str) -> bool:
    """Equivalent by the checker; a checker that could not run says "not shown the same"."""
    if a.strip() == b.strip():
        return True
    try:
        return bool(await ctx.sandbox.equivalent(a, b, problem))
    except SandboxUnavailable:
        return False


async def _agreement(
    ctx: PipelineContext, state: SolveState, n: int, solutions: list[SolveOutput]
) -> SampleAgreement:
    """Cluster the samples' answers; how many agree with `state.solution`; whether another
    cluster outvotes it (the answer in hand is one vote of its own cluster)."""
    assert state.solution is not None
    clusters: list[list[SolveOutput]] = []
    for solution in solutions:
        for cluster in clusters:
            if await _same(ctx, cluster[0].final_answer, solution.final_answer, state.problem_text):
                cluster.append(solution)
                break
        else:
            clusters.append([solution])
    clusters.sort(key=len, reverse=True)
    returned = state.solution.final_answer
    agreeing, better = 0, None
    for cluster in clusters:
        if await _same(ctx, cluster[0].final_answer, returned, state.problem_text):
            agreeing += len(cluster)
    if clusters and len(clusters[0]) > agreeing + 1:
        # Outvoted: return that cluster's answer. Its witnesses are the other candidates that
        # agree with it (its cluster but the chosen sample; the answer in hand does not).
        better = clusters[0][0]
        agreeing = len(clusters[0]) - 1
    answers = [s.final_answer for s in solutions]
    return SampleAgreement(
        n, answers, [[s.final_answer for s in c] for c in clusters], agreeing, better
    )


async def sample_agreement(ctx: PipelineContext, state: SolveState, n: int) -> SampleAgreement:
    """N solves by the answering provider, concurrently; clustered by equivalence."""
    found = await asyncio.gather(*(_sample(ctx, state, seed) for seed in range(1, n + 1)))
    return await _agreement(ctx, state, n, [s for s in found if s and s.final_answer])
