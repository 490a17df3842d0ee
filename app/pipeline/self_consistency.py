"""Self-consistency as request-path evidence and selection: N more solves, answers clustered
by equivalence (the sandbox). The answer returned is the best-supported candidate — the
largest cluster, the answer already in hand on a tie (weighted self-consistency; the panel
then judges the chosen one) — and the share of all candidates agreeing with it is evidence
(design-notes, the verifier benchmark harness: self-consistency pattern)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field, replace

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
    samples: int  # drawn (each one model call): the share's denominator
    requested: int  # N; more than `samples` when adaptive evidence stopped early
    answers: list[str]  # the usable answers that came back
    clusters: list[list[str]]  # answers grouped by equivalence, largest first
    agreeing: int  # other candidates (of `samples`) equivalent to the answer returned
    # The best-supported sample's solution when its cluster outvotes the answer in hand
    # (counting that answer as one vote), else None: keep the answer in hand.
    better: SolveOutput | None = None
    largest_other: int = 0  # the largest cluster not equivalent to the answer in hand

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
        drawn = f"{self.samples} of {self.requested} drawn, the rest could change nothing; "
        return Verdict(
            "approve" if approve else "reject",
            "llm",
            f"{provider}:self_consistency",
            self.agreement,
            f"{self.agreeing}/{self.samples} samples agree; "
            + (drawn if self.samples < self.requested else "")
            + "clusters "
            + ", ".join(f"{c[0]}×{len(c)}" for c in self.clusters),
        )

    def keeps_whatever(self, left: int) -> bool:
        """No outcome of `left` more samples can make another answer outvote the one in hand:
        even all of them joining the largest other cluster (or a new one) leave it at most
        one vote ahead of ours (the answer in hand's own vote wins the tie)."""
        return self.better is None and self.largest_other + left <= self.agreeing + 1

    def completions(self, left: int) -> list[SampleAgreement]:
        """Every outcome of all `requested` samples when `left` more are drawn and the answer
        in hand is kept (`keeps_whatever`), from none of them agreeing to all of them."""
        whole = self.samples + left
        return [replace(self, samples=whole, agreeing=self.agreeing + k) for k in range(left + 1)]


# The caller's rule for "the samples left cannot change what is returned or its badge":
# (the agreement so far, how many samples are left) -> stop drawing.
SamplesSettled = Callable[[SampleAgreement, int], bool]


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


@dataclass(slots=True)
class _Clusters:
    """The samples' solutions grouped by equivalence as they come in (a solution joins the
    first group, in the order formed, whose first answer is equivalent), and whether each group
    agrees with the answer in hand: drawing in waves groups them as drawing all at once."""

    groups: list[list[SolveOutput]] = field(default_factory=list)
    agrees: list[bool] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)  # as they came back

    async def add(self, ctx: PipelineContext, state: SolveState, found: list[SolveOutput]) -> None:
        assert state.solution is not None
        for solution in found:
            self.answers.append(solution.final_answer)
            for group in self.groups:
                if await _same(
                    ctx, group[0].final_answer, solution.final_answer, state.problem_text
                ):
                    group.append(solution)
                    break
            else:
                self.groups.append([solution])
                self.agrees.append(
                    await _same(
                        ctx, solution.final_answer, state.solution.final_answer, state.problem_text
                    )
                )

    def agreement(self, drawn: int, requested: int) -> SampleAgreement:
        """How many agree with the answer in hand; whether another group outvotes it (the
        answer in hand is one vote of its own group)."""
        ranked = sorted(
            zip(self.groups, self.agrees, strict=True), key=lambda g: len(g[0]), reverse=True
        )
        agreeing = sum(len(group) for group, agrees in ranked if agrees)
        largest_other = max((len(group) for group, agrees in ranked if not agrees), default=0)
        better = None
        if ranked and len(ranked[0][0]) > agreeing + 1:
            # Outvoted: return that group's answer. Its witnesses are the other candidates
            # that agree with it (its group but the chosen sample; the answer in hand does not).
            better = ranked[0][0][0]
            agreeing = len(ranked[0][0]) - 1
        return SampleAgreement(
            samples=drawn,
            requested=requested,
            answers=list(self.answers),
            clusters=[[s.final_answer for s in group] for group, _ in ranked],
            agreeing=agreeing,
            better=better,
            largest_other=largest_other,
        )


class Sampler:
    """The N samples of one answer, drawn in as many waves as the caller asks: the clusters
    carry over, so the samples are grouped as if drawn at once."""

    def __init__(self, ctx: PipelineContext, state: SolveState, n: int) -> None:
        self._ctx, self._state, self.requested = ctx, state, n
        self._clusters, self.drawn = _Clusters(), 0

    @property
    def left(self) -> int:
        return self.requested - self.drawn

    async def draw(self, count: int) -> SampleAgreement:
        """`count` more samples (seeds continue), concurrently; the agreement so far."""
        seeds = range(self.drawn + 1, min(self.requested, self.drawn + count) + 1)
        found = await asyncio.gather(*(_sample(self._ctx, self._state, seed) for seed in seeds))
        self.drawn += len(seeds)
        await self._clusters.add(self._ctx, self._state, [s for s in found if s and s.final_answer])
        return self._clusters.agreement(self.drawn, self.requested)


async def draw_samples(
    sampler: Sampler, stop_when: SamplesSettled | None = None
) -> SampleAgreement:
    """The sampler's samples, all at once; with `stop_when` (adaptive evidence, issue 25) in
    two waves, ⌈N/2⌉ then the rest, not drawing the second when `stop_when` says so (then the
    share is over the samples drawn, and `sampler.left` more may still be drawn)."""
    n = sampler.requested
    wave = n if stop_when is None else max(1, (n + 1) // 2)
    while True:
        sampled = await sampler.draw(wave)
        if not sampler.left or (stop_when is not None and stop_when(sampled, sampler.left)):
            return sampled
