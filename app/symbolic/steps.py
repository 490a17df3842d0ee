"""Check a student's worked steps symbolically: which step is the first wrong one?

Two sound checks, run in the sandbox (app.symbolic.sandbox) because sympy may hang:
- every arithmetic claim in a step, evaluated exactly (app.symbolic.step_arithmetic);
- the lines of an algebraic derivation, which must keep the equation's solutions
  (app.symbolic.step_equations).
A step is `wrong` when a claim in it is false, `ok` when every calculation in it checks (it
does not say the calculation was the right one to make), otherwise `unchecked`. A check that
cannot read something abstains; it never guesses.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from app.symbolic.normalize import squeeze_space
from app.symbolic.step_arithmetic import StepReading, read_step
from app.symbolic.step_equations import derivation_verdicts
from app.symbolic.step_inequalities import inequality_verdicts

log = logging.getLogger(__name__)

MAX_STEP_CHARS = 4000
_FAILURES = (ArithmeticError, ValueError, TypeError, RecursionError, AttributeError, IndexError)
# Numerals in another base (4 + 3 = 12 in base 5) or residues (7 × 9 = 3 mod 10): a true
# calculation there looks false in ordinary arithmetic, so none is flagged.
# Another number system: "in base 5", "base-8", "(base 2)", a numeral's radix (1011_2), mod,
# ≡, 进制. Not a triangle's base, "base price", nor a sequence's a_5.
_OTHER_NUMBER_SYSTEM = re.compile(
    r"\bin\s+base\b|\bbase[-‐]\w+|\(\s*base\s+\d+\s*\)|\bbase\s+\d+\s+"
    r"(?:numbers?|numerals?|system|representation|notation|digits?)\b|(?<![A-Za-z_\d])\d+_\{?\d"
    r"|进制|\bmod(?:ulo|ular)?\b|\\pmod|\\bmod|\\equiv|≡|congruen|余数",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class StepFinding:
    verdict: str  # ok | wrong | unchecked
    method: str | None  # arithmetic | equation; None when nothing could check the step
    claim: str | None  # what was checked, as the student wrote it (plain notation)
    detail: str  # why (English, for developers)
    # Everything the step says was checked: a derivation line, or a line of nothing but
    # calculations. `ok` with prose around right calculations is only "the calculations are
    # right": the reasoning in the prose was not read, and may hold the mistake.
    whole: bool = False

    @property
    def shown_right(self) -> bool:
        """Is the step right, as far as anything can tell without reading its reasoning?"""
        return self.verdict == "ok" and (self.method == "equation" or self.whole)


UNCHECKED = StepFinding("unchecked", None, None, "no calculation the symbolic checks can read")


# "(12)(12) = 144", "(3) x = 12", "(2)x = 8", "（2）（3）=6": a step's number or a factor? A
# bracketed number in order ("(2) x = 4" as the second step), then a space or a word (or, in
# full-width brackets, anything but a bracket) is the step's number; any other is read both
# ways, and where the two readings disagree the step is not judged.
_LEADING_NUMBER = re.compile(r"^([ \t]*)(?:\((\d{1,2})\)|（(\d{1,2})）)")
_TWO_READINGS = "the step reads two ways (a step's number or a factor, a note or a division)"


def _as_factor(step: str, position: int) -> str:
    match = _LEADING_NUMBER.match(step)
    if match is None:
        return step
    number, rest = match.group(2) or match.group(3), step[match.end() :]
    full_width = match.group(3) is not None
    spaced = rest[:1].isspace() or (full_width and rest.lstrip()[:1] not in "(（")
    if int(number) == position and spaced and not rest.lstrip().startswith("("):
        return step
    return f"{match.group(1)}{number} × {rest.lstrip()}"


# "2x + 3 = 11 /-3", "4x = 8 / -4": the operation applied next, noted after the line (as the
# "| -3" of many school books), or a division by a negative number? Read both ways.
_OPERATION_NOTE = re.compile(r"(?<=\S)\s+/\s*[-+−]\s*\w+\s*$")


def _without_note(step: str, position: int) -> str:
    note = _OPERATION_NOTE.search(step)
    return step[: note.start()] if note is not None and "=" in step[: note.start()] else step


# A line of digits alone after a line that ends in a digit: "= 1\n2" is 12 wrapped, or 1 and
# a 2 below? As a space it is two numbers side by side, which no check reads. A line with a
# calculation of its own ("= 12\n12 + 3 = 15") is a line.
_BROKEN_NUMBER = re.compile(r"(?<=\d)\n(?=\d+[ .,;。]*(?:\n|$))")


def _unbroken(step: str) -> str:
    return _BROKEN_NUMBER.sub(" ", step)


def check_step_list(problem: str, steps: list[str]) -> list[StepFinding]:
    """One finding per step, in order; a step written so that it reads two ways is judged
    only where both readings agree."""
    problem, steps = squeeze_space(problem), [_unbroken(squeeze_space(step)) for step in steps]
    findings = _check_step_list(problem, steps)
    for other_reading in (_as_factor, _without_note):
        rewritten = [other_reading(step, index + 1) for index, step in enumerate(steps)]
        if rewritten == steps:
            continue
        other = _check_step_list(problem, rewritten)
        findings = [
            _one_of(mine, theirs, new != step)
            for mine, theirs, step, new in zip(findings, other, steps, rewritten, strict=True)
        ]
    return findings


def _one_of(mine: StepFinding, theirs: StepFinding, ambiguous: bool) -> StepFinding:
    """The finding both readings give (in the factor's words where the step was rewritten:
    "(12)(12) = 145" is 144 ≠ 145, not 12 ≠ 145), else not judged."""
    if mine.verdict != theirs.verdict:
        return StepFinding("unchecked", None, None, _TWO_READINGS)
    return theirs if ambiguous else mine


def _check_step_list(problem: str, steps: list[str]) -> list[StepFinding]:
    try:
        derivation = {**inequality_verdicts(problem, steps), **derivation_verdicts(problem, steps)}
    except _FAILURES:  # the derivation check abstains; the arithmetic still runs
        log.exception("derivation check failed")
        derivation = {}
    other_system = bool(_OTHER_NUMBER_SYSTEM.search(problem))
    findings: list[StepFinding] = []
    for index, step in enumerate(steps):
        try:
            reading = read_step(step[:MAX_STEP_CHARS], problem)
        except _FAILURES:  # a reader's bug must cost an abstention, never the request
            log.exception("arithmetic check failed on step %d", index)
            reading = StepReading([], False)
        claims = reading.claims
        if other_system or _OTHER_NUMBER_SYSTEM.search(step):
            claims = [c for c in claims if c.verdict == "ok"]  # a "false" one may be in base 5
        wrong = next((c for c in claims if c.verdict == "wrong"), None)
        line = derivation.get(index)
        if wrong is not None:
            findings.append(StepFinding("wrong", "arithmetic", wrong.text, wrong.why))
        elif line is not None and line.verdict == "wrong":
            findings.append(StepFinding("wrong", "equation", line.equation, line.why))
        elif line is not None and line.verdict == "ok":
            findings.append(StepFinding("ok", "equation", line.equation, line.why, whole=True))
        elif claims and all(c.verdict == "ok" for c in claims):
            shown = "; ".join(c.text for c in claims)
            findings.append(
                StepFinding(
                    "ok",
                    "arithmetic",
                    shown,
                    "every calculation checks",
                    whole=reading.calculations_only,
                )
            )
        elif claims:
            doubt = next(c for c in claims if c.verdict != "ok")
            findings.append(StepFinding("unchecked", None, doubt.text, doubt.why))
        else:
            findings.append(UNCHECKED)
    return findings
