"""The bank's own answer to a problem found in it word for word (`same_text`).

Homework apps built on question banks answer this case first: the bank holds the worked
solution and the answer, and the word-for-word match is the ground truth QUICK_VERIFY already
checks against. Anything looser than that match is never answered from the bank.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.llm.outputs import SolveOutput, SolveStep
from app.pipeline.state import Example

BANK_PROVIDER = "problem_bank"
BANK_MODEL = "bank"


def bank_solution(examples: Sequence[Example], ground_truth: str | None) -> SolveOutput | None:
    """The worked solution of the example that is this very problem, or None."""
    same = next((e for e in examples if e.same_problem), None)
    if same is None or not same.final_answer.strip() or same.final_answer != ground_truth:
        return None
    steps = [SolveStep(description=line.strip()) for line in same.solution.splitlines()]
    return SolveOutput(steps=[s for s in steps if s.description], final_answer=same.final_answer)
