"""Consensus respects proofs and never breaks a tie by list order (issue 15)."""

from __future__ import annotations

from app.verification.consensus import ConsensusBuilder, NodeAnswer
from tests.fixtures.scripted import ScriptedClient


async def test_a_two_way_disagreement_is_no_decision_whatever_the_order(sandbox) -> None:
    builder = ConsensusBuilder(equivalent=sandbox.equivalent)
    for first, second in (("42", "41"), ("41", "42")):
        result = await builder.build(
            "t", [NodeAnswer("a", first, 0.6), NodeAnswer("b", second, 0.4)]
        )
        # 0.6 of the weight would have been "semantic_aggregation" for the first answer.
        assert (result.method, result.answer, result.supporters) == ("no_consensus", None, [])
        assert not result.agrees and not result.decided


async def test_a_tie_between_two_pairs_is_no_decision(sandbox) -> None:
    builder = ConsensusBuilder(equivalent=sandbox.equivalent)
    answers = [NodeAnswer(p, a, 0.5) for p, a in zip("abcd", ["3", "3", "4", "4"], strict=True)]
    result = await builder.build("t", answers)
    assert result.method == "no_consensus" and result.supporters == []


async def test_a_proof_outvotes_a_majority_of_models(sandbox) -> None:
    # The review's case: exact_match 67% for 42 would have rejected the proven 19/12.
    answers = [
        NodeAnswer("symbolic", "19/12", 0.5, proof="proven"),
        NodeAnswer("anthropic", "42", 0.9),
        NodeAnswer("openai", "42", 0.9),
        NodeAnswer("gemini", "\\frac{19}{12}", 0.1),
    ]
    result = await ConsensusBuilder(equivalent=sandbox.equivalent).build("3/4 + 5/6", answers)
    assert (result.method, result.answer, result.supporters) == ("proof", "19/12", [0, 3])
    assert result.agrees and result.confidence == 1.0


async def test_refuted_answers_get_no_vote(sandbox) -> None:
    answers = [
        NodeAnswer("a", "7", 0.5, proof="refuted"),
        NodeAnswer("b", "7", 0.5, proof="refuted"),
        NodeAnswer("c", "5", 0.5),
        NodeAnswer("d", "5", 0.5),
    ]
    result = await ConsensusBuilder(equivalent=sandbox.equivalent).build("t", answers)
    assert result.answer == "5" and result.supporters == [2, 3]


async def test_arbitration_sees_reasoning_and_confidence(sandbox) -> None:
    arbiter = ScriptedClient("judge", ["ANSWER: 41\nREASONING: b checked\nCONFIDENCE: 0.7"])
    answers = [
        NodeAnswer("a", "42", 0.5, confidence=0.9, reasoning="6*7"),
        NodeAnswer("b", "41", 0.5, confidence=0.6, reasoning="40+1"),
    ]
    builder = ConsensusBuilder(equivalent=sandbox.equivalent, arbiter=arbiter)
    result = await builder.build("t", answers)
    assert (result.method, result.answer, result.supporters) == ("llm_arbitration", "41", [1])
    assert result.decided and not result.agrees
    prompt = arbiter.calls[0][0].content
    assert "6*7" in prompt and "40+1" in prompt and "Confidence: 0.90" in prompt


async def test_a_refuted_answer_leading_a_group_leaves_its_unrefuted_members_a_vote(
    sandbox,
) -> None:
    """An IndexError (an independent tester): the group was dropped with its refuted first
    member, so the voters left had no group at all."""
    answers = [
        NodeAnswer("a", "7", 0.5, proof="refuted"),
        NodeAnswer("b", "7", 0.5),
        NodeAnswer("c", "7", 0.5),
    ]
    result = await ConsensusBuilder(equivalent=sandbox.equivalent).build("t", answers)
    assert result.answer == "7" and result.supporters == [1, 2]
    alone = await ConsensusBuilder(equivalent=sandbox.equivalent).build("t", answers[:2])
    assert (alone.method, alone.answer) == ("no_consensus", None)
