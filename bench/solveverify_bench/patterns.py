"""Verifier patterns over one example, all built on app.verification.

Math examples (given candidates): self_consistency, best_of_n (one independent verifier
reranks), bon_mav (aspect-verifier panel), mars (cross-agent rounds), consensus (DELLM
cascade). Grounded QA examples (question + evidence): entailment, best_of_n and
self_consistency, in solveverify_bench/grounded.py. Each returns one result record; P(correct) is
the verifier score of every candidate.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from functools import partial
from typing import Any

from app.llm.base import ModelClient
from app.llm.types import Message, ModelResponse
from app.pipeline.prompts import quick_verify
from app.verification.answers import (
    Equivalence,
    cluster_answers,
    extract_final_answer,
    normalize_math_answer,
)
from app.verification.aspects import ASPECTS, AspectVerifier
from app.verification.bon_mav import bon_mav_select, select_best
from app.verification.consensus import ConsensusBuilder, NodeAnswer
from app.verification.llm_check import llm_verdict
from app.verification.mars import Mars
from app.verification.panel import run_panel
from solveverify_bench.context import PatternContext, make_record
from solveverify_bench.datasets import Candidate, Example, MathExample
from solveverify_bench.grounded import claims_of, run_grounded
from solveverify_bench.labels import token_f1

__all__ = ["PATTERNS", "PatternContext", "claims_of", "make_record", "run_pattern", "token_f1"]

MATH_PATTERNS = ("best_of_n", "self_consistency", "bon_mav", "mars", "consensus")
GROUNDED_PATTERNS = ("entailment", "best_of_n", "self_consistency")
PATTERNS = ("best_of_n", "entailment", "self_consistency", "bon_mav", "mars", "consensus")


class _Renamed:
    """The same model as another MARS agent (agents are told apart by provider name): only
    when the run names no other providers (--mars-agents), and the record says so."""

    def __init__(self, inner: ModelClient, name: str) -> None:
        self.inner, self.provider = inner, name
        self.model, self.capabilities = inner.model, inner.capabilities

    async def generate(self, messages: Sequence[Message], **kwargs: Any) -> ModelResponse:
        return await self.inner.generate(messages, **kwargs)


async def _labels(
    example: MathExample,
    candidates: Sequence[Candidate],
    answers: list[str | None],
    eq: Equivalence,
) -> list[bool]:
    async def one(candidate_correct: bool | None, answer: str | None) -> bool:
        if candidate_correct is not None:
            return candidate_correct
        if answer is None:
            return False
        if normalize_math_answer(answer) == normalize_math_answer(example.gold_answer):
            return True
        return bool(await eq(example.gold_answer, answer))

    return list(
        await asyncio.gather(*(one(c.correct, a) for c, a in zip(candidates, answers, strict=True)))
    )


async def run_math(pattern: str, example: MathExample, ctx: PatternContext) -> dict[str, Any]:
    candidates = example.candidates[: ctx.n]
    solutions = [c.solution for c in candidates]
    answers = [extract_final_answer(s) for s in solutions]
    scores: list[float]
    calls = 0
    extra: dict[str, Any] = {}
    if pattern == "self_consistency":
        clusters = await cluster_answers(answers, ctx.equivalent)
        share = {i: len(g) / len(answers) for g in clusters for i in g if answers[i] is not None}
        scores = [share.get(i, 0.0) for i in range(len(answers))]
        biggest = max(clusters, key=lambda g: (len(g) if answers[g[0]] else 0, -min(g)))
        selected = min(biggest)
    elif pattern == "best_of_n":
        model = ctx.model(pattern)
        verdicts = await asyncio.gather(
            *(
                llm_verdict(
                    model,
                    quick_verify.build(example.problem, a or "", s[:1500], "en"),
                    timeout=ctx.timeout,
                )
                for a, s in zip(answers, solutions, strict=True)
            )
        )
        calls = len(verdicts)
        scores = [v.score if v.score is not None else 0.5 for v in verdicts]
        selected = select_best(scores)
    elif pattern == "bon_mav":
        model = ctx.model(pattern)
        verifiers = [AspectVerifier(model, ASPECTS[k]) for k in ctx.aspect_keys]
        panels = await asyncio.gather(
            *(
                run_panel(
                    [partial(v.verify, example.problem, s, timeout=ctx.timeout) for v in verifiers],
                    early_stop=False,
                )
                for s in solutions
            )
        )
        calls = sum(p.started for p in panels)
        approvals = [
            {v.verifier_id: v.verdict == "approve" for v in p.verdicts if v.verdict != "abstain"}
            for p in panels
        ]
        selected, scores = bon_mav_select(approvals, [v.verifier_id for v in verifiers])
    elif pattern == "consensus":
        builder = ConsensusBuilder(equivalent=ctx.equivalent, arbiter=ctx.backend)
        nodes = [NodeAnswer(c.source, a or "") for c, a in zip(candidates, answers, strict=True)]
        result = await builder.build(example.problem, nodes)
        calls = int(result.method == "llm_arbitration")
        scores = [
            result.weighted_agreement if i in result.supporters else 0.0 for i in range(len(nodes))
        ]
        selected = result.supporters[0] if result.supporters else 0
    elif pattern == "mars":
        model = ctx.model(pattern)
        distinct = list({a.provider: a for a in ctx.mars_agents}.values())
        if len(distinct) >= 2:
            # One candidate per provider: no provider ever scores its own solution.
            candidates = candidates[: len(distinct)]
            solutions, answers = solutions[: len(distinct)], answers[: len(distinct)]
            pool: list[ModelClient] = distinct[: len(candidates)]
        else:
            pool = [model] * len(candidates)  # one model verifying itself, flagged below
            extra["mars_self_verification"] = True
        agents = [_Renamed(m, f"agent{i}") for i, m in enumerate(pool)]
        extra["mars_providers"] = [m.provider for m in pool]
        mars = Mars(agents, ctx.mars, timeout=ctx.timeout)
        outcome = await mars.run(
            example.problem,
            {
                f"agent{i}": (a or "", s)
                for i, (a, s) in enumerate(zip(answers, solutions, strict=True))
            },
        )
        calls = outcome.calls
        by_agent = {s.agent: s for s in outcome.solutions}
        scores = [by_agent[f"agent{i}"].score for i in range(len(candidates))]
        answers = [by_agent[f"agent{i}"].answer for i in range(len(candidates))]
        selected = select_best(scores)
    else:
        raise ValueError(f"pattern {pattern!r} does not apply to math examples")
    correct = await _labels(example, candidates, answers, ctx.equivalent)
    return make_record(example.id, pattern, answers, correct, scores, selected, calls, **extra)


async def run_pattern(pattern: str, example: Example, ctx: PatternContext) -> dict[str, Any]:
    if isinstance(example, MathExample):
        if pattern not in MATH_PATTERNS:
            raise ValueError(f"pattern {pattern!r} needs grounded-QA examples (with evidence)")
        return await run_math(pattern, example, ctx)
    if pattern not in GROUNDED_PATTERNS:
        raise ValueError(f"pattern {pattern!r} needs math examples (with candidates)")
    return await run_grounded(pattern, example, ctx)
