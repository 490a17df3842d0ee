"""DELLM consensus cascade and fitness deltas, on hand-built cases."""

from __future__ import annotations

from functools import partial

import pytest

from app.verification.consensus import ConsensusBuilder, NodeAnswer, llm_similarity
from app.verification.fitness import latency_rating
from tests.fixtures.scripted import ScriptedClient


def nodes(*answers: str, weights=None) -> list[NodeAnswer]:
    weights = weights or [0.5] * len(answers)
    return [
        NodeAnswer(f"p{i}", a, w) for i, (a, w) in enumerate(zip(answers, weights, strict=True))
    ]


async def test_exact_match_after_normalization() -> None:
    result = await ConsensusBuilder().build("t", nodes("$6,288.95", "6288.95", " 6288.95.", "6"))
    assert (result.method, result.answer is not None, result.supporters) == (
        "exact_match",
        True,
        [0, 1, 2],
    )
    assert result.agreement == 0.75 and result.agrees


async def test_decimal_points_are_kept() -> None:
    result = await ConsensusBuilder().build("t", nodes("6.5", "65", "65"))
    assert result.supporters == [1, 2]


async def test_math_equivalence_groups(sandbox) -> None:
    builder = ConsensusBuilder(equivalent=sandbox.equivalent)
    result = await builder.build("t", nodes("1/2", "0.5", "\\frac{1}{2}", "2", "3"))
    assert result.method == "semantic_aggregation" and result.supporters == [0, 1, 2]
    assert result.groups == [[0, 1, 2], [3], [4]]


async def test_chinese_answers_group(sandbox) -> None:
    problem = "小明一共有多少个苹果？"
    builder = ConsensusBuilder(equivalent=partial(sandbox.equivalent, problem=problem))
    result = await builder.build(problem, nodes("答案是 72", "72", "72", "60"))
    assert result.supporters == [0, 1, 2]
    # The measure word the question counts in is read (多少个: 个); another is not: never
    # grouped by guess.
    assert await sandbox.equivalent("72 个", "72", problem) is True
    assert await sandbox.equivalent("72 盒", "72", problem) is None


async def test_weighted_majority_uses_fitness(sandbox) -> None:
    builder = ConsensusBuilder(equivalent=sandbox.equivalent)
    # A lone answer never wins by weight: the agreeing pair must be ahead of every group.
    result = await builder.build("t", nodes("5", "5", "7", "9", weights=[0.5, 0.5, 0.4, 0.3]))
    assert (result.method, result.answer) == ("weighted_majority", "5")
    assert result.weighted_agreement == pytest.approx(1.0 / 1.7)


async def test_split_goes_to_arbitration_or_is_flagged(sandbox) -> None:
    answers = nodes("5", "7", "9")
    arbiter = ScriptedClient("judge", ["ANSWER: 7\nREASONING: checked\nCONFIDENCE: 0.8"])
    result = await ConsensusBuilder(equivalent=sandbox.equivalent, arbiter=arbiter).build(
        "x + 2 = 9", answers
    )
    assert (result.method, result.answer, result.confidence) == ("llm_arbitration", "7", 0.8)
    assert result.supporters == [1] and not result.agrees
    assert "<task>" in arbiter.calls[0][0].content
    garbled = ScriptedClient("judge", ["I cannot decide"])
    flagged = await ConsensusBuilder(arbiter=garbled).build("t", answers)
    assert flagged.method == "no_consensus" and not flagged.agrees


async def test_prose_uses_similarity() -> None:
    scorer = ScriptedClient("sim", ["0.95"])
    builder = ConsensusBuilder(similarity=llm_similarity(scorer))
    result = await builder.build(
        "t",
        nodes(
            "The mitochondria makes energy.",
            "Energy is produced by the mitochondria.",
            "Chloroplasts do photosynthesis.",
        ),
    )
    # the scorer says "0.95" to everything, so all three group: the cascade trusts its scorer
    assert result.method == "semantic_aggregation" and len(result.supporters) == 3
    unreadable = ConsensusBuilder(similarity=llm_similarity(ScriptedClient("s", ["similar"])))
    split = await unreadable.build("t", nodes("a cat", "a dog", "a cow"))
    assert split.groups == [[0], [1], [2]]


def test_latency_rating() -> None:
    assert [latency_rating(s) for s in (1.8, 5, 12)] == ["fast", "average", "slow"]
