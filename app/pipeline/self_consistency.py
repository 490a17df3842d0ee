"""Self-consistency as request-path evidence: N more solves, answers clustered by
equivalence (the sandbox), the share agreeing with the returned answer as evidence
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
from app.verification.verdict import Verdict

# Samples must differ to be evidence: deterministic decoding would repeat one answer N times.
SAMPLE_TEMPERATURE = 0.7


@dataclass(frozen=True, slots=True)
class SampleAgreement:
    samples: int  # requested (each one model call)
    answers: list[str]  # the usable answers that came back
    clusters: list[list[str]]  # answers grouped by equivalence, largest first
    agreeing: int  # answers equivalent to the returned one

    @property
    def agreement(self) -> float:
        """Share of the requested samples that agree: a failed sample never agrees."""
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


async def _sample(ctx: PipelineContext, state: SolveState, seed: int) -> str | None:
    assert state.provider is not None
    messages = prompts.build(
        state.problem_text, state.language, [(e.question, e.solution) for e in state.examples]
    )
    try:
        reply = await ctx.registry.get(state.provider).generate(
            messages,
            json_schema=schema_of(SolveOutput),
            temperature=SAMPLE_TEMPERATURE,
            seed=seed,
        )
        return parse_solution(reply.data or extract_json(reply.text), reply.text).final_answer
    except (ProviderError, ValidationError):
        return None


async def _same(ctx: PipelineContext, a: str, b: str, problem: str) -> bool:
    return a.strip() == b.strip() or bool(await ctx.sandbox.equivalent(a, b, problem))


async def sample_agreement(ctx: PipelineContext, state: SolveState, n: int) -> SampleAgreement:
    """N solves by the answering provider, concurrently; clustered by equivalence."""
    assert state.solution is not None
    found = await asyncio.gather(*(_sample(ctx, state, seed) for seed in range(1, n + 1)))
    answers = [a for a in found if a]
    clusters: list[list[str]] = []
    for answer in answers:
        for cluster in clusters:
            if await _same(ctx, cluster[0], answer, state.problem_text):
                cluster.append(answer)
                break
        else:
            clusters.append([answer])
    clusters.sort(key=len, reverse=True)
    returned = state.solution.final_answer
    agreeing = 0
    for cluster in clusters:
        if await _same(ctx, cluster[0], returned, state.problem_text):
            agreeing += len(cluster)
    return SampleAgreement(n, answers, clusters, agreeing)
