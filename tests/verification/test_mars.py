"""MARS: cross-agent rounds, averaged scores, threshold, improvement, custom verifiers."""

from __future__ import annotations

import json

import pytest

from app.verification.mars import Mars, MarsConfig, custom_verify
from tests.fixtures.scripted import ScriptedClient

PROBLEM = "Tom has 12 apples and buys 3 bags of 4. How many apples now?"


def agent(name: str, answer: str, *, improved: str | None = None, grade=None) -> ScriptedClient:
    """Solves with `answer`; when asked to improve, answers `improved`; scores others with
    `grade(solution_text) -> score` (None: an unreadable reply)."""

    def reply(messages) -> str:
        prompt = messages[-1].content
        if "improved solution" in prompt:
            return json.dumps({"steps": [{"description": "redo"}], "final_answer": improved})
        if "verifying another agent's solution" in prompt:
            score = grade(prompt) if grade else 0.9
            if score is None:
                return "it is fine I guess"
            return json.dumps({"score": score, "feedback": "" if score > 0.7 else "wrong total"})
        return json.dumps({"steps": [{"description": "12 + 3*4"}], "final_answer": answer})

    return ScriptedClient(name, [reply])


def by_answer(prompt: str) -> float:
    return 0.95 if "Final answer: 24" in prompt else 0.2


async def test_cross_verification_averages_and_improves_the_weak_solution() -> None:
    agents = [
        agent("a", "24", grade=by_answer),
        agent("b", "24", grade=by_answer),
        agent("c", "20", improved="24", grade=by_answer),
    ]
    result = await Mars(agents, MarsConfig(num_verification_rounds=2)).run(PROBLEM)
    scores = {s.agent: s for s in result.solutions}
    assert scores["a"].scores == [0.95, 0.95, 0.95, 0.95]  # two verifiers × two rounds
    c = scores["c"]
    assert c.improvements == 1 and c.answer == "24"  # scored 0.2 in round 1, then improved
    assert c.scores == [0.95, 0.95]  # the improved solution is judged afresh in round 2
    assert result.verified and result.best is not None and result.best.agent == "a"
    # 3 solves + 2 rounds × 3 solutions × 2 verifiers + 1 improvement
    assert result.calls == 3 + 12 + 1


async def test_below_threshold_is_not_verified_and_unreadable_scores_abstain() -> None:
    agents = [
        agent("a", "20", improved="21", grade=lambda p: 0.3),
        agent("b", "19", improved="18", grade=lambda p: None),
    ]
    result = await Mars(agents, MarsConfig(num_verification_rounds=1)).run(
        PROBLEM, initial={"a": ("20", "Final answer: 20"), "b": ("19", "Final answer: 19")}
    )
    scores = {s.agent: s.scores for s in result.solutions}
    assert scores == {"a": [], "b": [0.3]}  # a's only verifier gave no readable score
    assert not result.verified
    assert result.calls == 2  # no solving: both brought solutions


async def test_custom_domain_verifier_cascade(sandbox) -> None:
    async def rules(answer: str) -> bool | None:
        result = await sandbox.check("Solve 2x + 3 = 11", answer)
        return None if result.verdict == "abstain" else result.verdict == "approve"

    def fmt(answer: str) -> bool:
        return any(ch.isdigit() for ch in answer) and len(answer) < 40

    def complete(answer: str, solution: str) -> bool:
        return "Final answer" in solution and solution.count("\n") >= 1

    async def score(answer: str, solution: str) -> float:
        return await custom_verify(
            answer, solution, rules=rules, is_valid_format=fmt, is_complete=complete
        )

    assert await score("x = 5", "1. ...\nFinal answer: x = 5") == 0.0  # breaks the domain rule
    assert await score("four", "1. ...\nFinal answer: four") == 0.2  # unreadable: bad format
    assert await score("x = 4", "Final answer: x = 4") == 0.5  # no steps
    assert await score("x = 4", "1. 2x = 8\nFinal answer: x = 4") == 0.9

    agents = [agent("a", "x = 4"), agent("b", "x = 5")]
    result = await Mars(
        agents, MarsConfig(num_verification_rounds=1), domain_verifiers=[score]
    ).run("Solve 2x + 3 = 11")
    by_agent = {s.agent: s.scores for s in result.solutions}
    assert by_agent["b"][-1] == 0.0 and by_agent["a"][-1] == 0.9


def test_needs_two_agents() -> None:
    with pytest.raises(ValueError):
        Mars([agent("a", "1")])


async def test_four_dimensions_are_scored_separately_and_calls_are_capped() -> None:
    def scorer(messages) -> str:
        prompt = messages[-1].content
        if "verifying another agent's solution" in prompt:
            dims = {"correctness": 1.0, "reasoning": 0.6, "completeness": 0.8, "clarity": 0.6}
            return json.dumps({**dims, "feedback": "explain the last step"})
        return json.dumps({"steps": [{"description": "12 + 3*4"}], "final_answer": "24"})

    agents = [ScriptedClient("a", [scorer]), ScriptedClient("b", [scorer])]
    result = await Mars(agents, MarsConfig(num_verification_rounds=1)).run(PROBLEM)
    a = next(s for s in result.solutions if s.agent == "a")
    assert a.scores == [pytest.approx(0.75)]  # the mean of the four dimensions
    assert a.dimensions == [
        {"correctness": 1.0, "reasoning": 0.6, "completeness": 0.8, "clarity": 0.6}
    ]
    capped = await Mars(
        [ScriptedClient("a", [scorer]), ScriptedClient("b", [scorer])],
        MarsConfig(num_verification_rounds=2, max_calls=3),
    ).run(PROBLEM)
    assert capped.calls == 3  # two solves and one score; the rest abstain
