"""Learned consensus weights beat plain majority on a recorded multi-model run."""

from __future__ import annotations

import random

from app.verification.consensus import normalize_answer
from app.verification.learned_weights import OnlineWeights, majority_vote, weighted_vote
from solveverify_bench.recorded import Candidate, RecordedProblem, load_recorded, save_recorded

RELIABILITY = {"strong": 0.85, "middling": 0.60, "weak": 0.55}


def recorded_run(n: int = 400, seed: int = 7) -> list[RecordedProblem]:
    """Each provider right with its reliability; a wrong answer is the problem's shared
    wrong answer half the time (weak models make the same mistake), else its own."""
    rng = random.Random(seed)
    problems = []
    for i in range(n):
        candidates = []
        for provider, p in RELIABILITY.items():
            if rng.random() < p:
                answer = str(i)
            else:
                answer = f"{i}.5" if rng.random() < 0.5 else f"{i}.{provider}"
            candidates.append(Candidate(provider, f"{provider}-1", answer, answer))
        problems.append(RecordedProblem(f"p{i}", f"problem {i}", candidates, str(i), "math"))
    return problems


def accuracy(decisions: list[str | None], problems: list[RecordedProblem]) -> float:
    right = [
        d == normalize_answer(p.answer or "") for d, p in zip(decisions, problems, strict=True)
    ]
    return sum(right) / len(right)


def test_learned_weights_beat_plain_majority_on_held_out_problems(tmp_path) -> None:
    save_recorded(recorded_run(), tmp_path / "run.jsonl")
    problems = load_recorded(tmp_path / "run.jsonl")  # replayed from the recorded format
    learn, rest = problems[:200], problems[200:]
    weights = OnlineWeights()
    for problem in learn:  # online, from agreed outcomes only: no ground truth is read
        answers = {c.provider: c.final_answer or "" for c in problem.candidates}
        agreed = majority_vote(answers)
        if agreed is None:
            continue
        for provider, answer in answers.items():
            weights.observe(provider, normalize_answer(answer) == agreed)
    assert weights.weight("strong") > weights.weight("middling") + weights.weight("weak")

    runs = [{c.provider: c.final_answer or "" for c in p.candidates} for p in rest]
    weighted = accuracy([weighted_vote(a, weights) for a in runs], rest)
    majority = accuracy([majority_vote(a) for a in runs], rest)
    print(f"weighted {weighted:.3f} vs majority {majority:.3f} on {len(rest)}")
    assert weighted > majority + 0.05
