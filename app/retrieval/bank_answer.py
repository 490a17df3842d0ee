"""The bank's own answer to a problem found in it word for word (`same_text`).

Homework apps built on question banks answer this case first: the bank holds the worked
solution and the answer, and the word-for-word match is the ground truth QUICK_VERIFY already
checks against. Anything looser than that match is never answered from the bank.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from app.llm.outputs import SolveOutput, SolveStep
from app.pipeline.state import Example

BANK_PROVIDER = "problem_bank"
BANK_MODEL = "bank"


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_SPACED_THOUSANDS = re.compile(r"(?<=\d) (?=\d{3}\b)")  # "100 000"


def _numbers(text: str) -> set[Decimal]:
    found = set()
    for token in _NUMBER.findall(_SPACED_THOUSANDS.sub("", text)):
        try:
            found.add(Decimal(token.replace(",", "").rstrip(".")).normalize())
        except InvalidOperation:
            continue
    return found


def stated_by_its_solution(solution: str, final_answer: str) -> bool:
    """Whether the worked solution's last line shows every number of the final answer. A bank
    is data somebody wrote: GSM8K's train set says 140 where its own solution ends "100+20 =
    120 trucks and tanks", and 4 for a riddle its solution solves as x = 10 (23 of 8 792
    problems). An answer its own work does not reach is no ground truth. A bank entry with no
    worked solution has nothing to contradict it."""
    lines = [line for line in solution.splitlines() if line.strip()]
    return not lines or _numbers(final_answer) <= _numbers(lines[-1])


def known_answer(examples: Sequence[Example]) -> str | None:
    """The bank's answer to this very problem (`same_problem`), the ground truth QUICK_VERIFY
    and the answer checks compare with, when its own worked solution states it; else None."""
    same = next((e for e in examples if e.same_problem), None)
    if same is None or not stated_by_its_solution(same.solution, same.final_answer):
        return None
    return same.final_answer


def bank_solution(examples: Sequence[Example], ground_truth: str | None) -> SolveOutput | None:
    """The worked solution of the example that is this very problem, or None."""
    same = next((e for e in examples if e.same_problem), None)
    if same is None or not same.final_answer.strip() or same.final_answer != ground_truth:
        return None
    steps = [SolveStep(description=line.strip()) for line in same.solution.splitlines()]
    return SolveOutput(steps=[s for s in steps if s.description], final_answer=same.final_answer)
