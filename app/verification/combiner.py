"""The one judge: from an answer's evidence to its badge.

Every source of evidence — a proof, the quick verifier, each panel verdict, sample agreement,
later consensus and spot checks — is a verdict in the answer's ledger. The calibrated
combiner (`Calibrator`, a logistic model over `verdict_signals`: approval share over decisive
verdicts, each verifier's vote, the quick verifier's confidence, sample agreement) turns the
ledger into P(correct); Learn-then-Test (app/verification/precision.py) chose the threshold
at which `verified` keeps the promised precision. The badge follows from those alone:

- `verified`: a proof for the answer, or P ≥ the promised threshold;
- `caution`: evidence against it — a proof against, a credible rejection, or P below the
  level the fit found answers more often wrong than right (`Calibrator.caution_below`; 0.5
  before a fit): a coin-flip P is not enough evidence either way;
- `unverified`: anything else. Missing evidence (abstentions, a thin panel, no threshold
  yet) is never shown as caution.

Before any calibrator is fitted, the raw signal stands in for P (flagged uncalibrated) and
must reach `raw_verified` to verify.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from app.llm.plain_answers import plainly_one_value
from app.symbolic.answers import work_left_undone
from app.verification.calibration import (
    Calibrator,
    VerdictLike,
    evidence_features,
    proof_in,
    verdict_signals,
)
from app.verification.verdict import Verdict, VerdictKind

Badge = Literal["verified", "unverified", "caution"]
Proof = Literal["for", "against"]
EVIDENCE_AGAINST = 0.5  # P(correct) below this: more likely wrong than right
NOT_PLAIN = "the answer does not plainly state one value: only a proof verifies it"
FIGURE_AS_CODE = (
    "the problem's figure is drawing code the models read as text: only a proof verifies it"
)
WORK_LEFT = "the answer leaves a computation to carry out: only a proof verifies it"
# A problem that asks for the form the work is left in: "as a power of 2", "in expanded form",
# "using an exponent", a prime factorization, 分解质因数; not "the first 10 powers of 2", "the
# units digit in the product 7 × 13", "evaluate the expression for x = 4", 最大质因数.
_FORM_ASKED = re.compile(
    r"\bas\s+(?:an?\s+)?(?:single\s+)?(?:power|product|sum|multiplication|expression)s?\b"
    r"|\busing\s+(?:an?\s+)?(?:exponents?|powers?)\b|\bwrite\s+(?:an?\s+)?expression\b"
    r"|\b(?:in|into)\s+(?:exponent(?:ial)?|expanded|index|factored)\s+(?:form|notation)\b"
    r"|\bprime\s+factori[sz]ation|\bfactori[sz]e\b|\bunsimplified\b"
    r"|\b(?:do\s+not|don't)\s+(?:simplify|evaluate|expand|multiply)\b"
    r"|分解质因数|写成幂的形式|指数形式",
    re.IGNORECASE,
)
_DRAWING_CODE = re.compile(
    r"\[asy\]|\\begin\s*\{\s*(?:asy|tikzpicture|pspicture|picture)\s*\}"  # a figure's block
    r"|\\(?:tikz|draw|filldraw|fill|shade|path|node|pspicture|psline|pspolygon|pscircle)"
    r"(?![A-Za-z])"  # TikZ or PSTricks commands alone
    r"|\b(?:draw|filldraw|fill|dot)\s*\(\s*\(\s*-?[\d.]+\s*,"  # Asymptote: draw((0,0)--…)
    r"|<svg\b",
    re.IGNORECASE,
)


def only_a_proof(answer: str, problem: str) -> str | None:
    """Why model evidence cannot verify `answer` to `problem` (only a proof may), else None:

    - the problem's figure is drawing code ([asy], TikZ): the models read a picture as text.
      On the MAV run's MATH problems, 20 % of the answers to such problems were right (68 %
      of the others), and every verifier approved sin X = 4/5 read off the wrong side;
    - the answer does not plainly state one value (app/llm/plain_answers.py): a verifier that
      echoes any wording agrees with it;
    - the answer leaves a computation to carry out ("2 + 2^{61}", "\\frac{14}{2}", "12^{10}")
      where the problem asks for no such form: a solution that stopped short. On the MAV run
      every such answer was wrong (24 solutions to 6 problems; no gold answer has that form)
      and the verifiers approved them as they approve finished ones: "2 + 2^{61}" for 2 by all
      six, sixteen times.
    """
    if _DRAWING_CODE.search(problem):
        return FIGURE_AS_CODE
    if not plainly_one_value(answer, problem):
        return NOT_PLAIN
    if work_left_undone(answer) and not _FORM_ASKED.search(problem):
        return WORK_LEFT
    return None


def evidence_against(calibrator: Calibrator | None) -> float:
    """The P below which the answer is shown as caution (the fitted level, else 0.5)."""
    if calibrator is None or calibrator.caution_below is None:
        return EVIDENCE_AGAINST
    return calibrator.caution_below


@dataclass(frozen=True, slots=True)
class Judgement:
    badge: Badge
    probability: float | None  # None: no evidence at all
    reason: str | None  # why it is not verified (None when verified)


def judge(
    *,
    proof: Proof | None,
    probability: float | None,
    calibrated: bool,
    calibrator: Calibrator | None,
    raw_verified: float,
    credible_rejection: str | None = None,
    proof_only: str | None = None,
) -> Judgement:
    """The badge for one answer. `credible_rejection`: why a credible witness rejected it
    (a quick verifier's independent recomputation, a credible panel) or None. `proof_only`:
    why model evidence cannot verify this answer (`only_a_proof`), or None."""
    if proof == "for":
        return Judgement("verified", 1.0 if probability is None else probability, None)
    if proof == "against":
        return Judgement("caution", probability, credible_rejection or "a proof contradicts it")
    if probability is None:
        return Judgement("unverified", None, "no verifier could judge it")
    if calibrated and calibrator is not None and calibrator.target_precision is not None:
        bar = calibrator.threshold  # None: no threshold kept the promise on the evidence yet
    else:
        bar = raw_verified
    if credible_rejection is None and bar is not None and probability >= bar:
        if proof_only is not None:
            return Judgement("unverified", probability, proof_only)
        return Judgement("verified", probability, None)
    if credible_rejection is not None:
        return Judgement("caution", probability, credible_rejection)
    if proof_only is not None and calibrated and calibrator and calibrator.proof_only_x:
        # P is the rate such answers were right (Calibrator.predict): the kind of answer, no
        # evidence against this one. Only a proof or a credible rejection calls it suspect.
        return Judgement("unverified", probability, proof_only)
    if probability < evidence_against(calibrator if calibrated else None):
        return Judgement(
            "caution", probability, f"the evidence is against it (confidence {probability:.2f})"
        )
    if bar is None:
        why = "no verified threshold has been fitted yet"
    else:
        why = f"not enough evidence to verify it (confidence {probability:.2f} < {bar:.2f})"
    return Judgement("unverified", probability, why)


def calibrated_badge(calibrator: Calibrator, probability: float) -> Badge:
    """The badge a fitted combiner gives a P(correct) (no proof either way)."""
    bar = calibrator.threshold
    if bar is not None and probability >= bar:
        return "verified"
    return "caution" if probability < evidence_against(calibrator) else "unverified"


MAX_ENUMERATED = 6  # pending verifiers whose every mix of answers is tried (3^6 = 729)


def _mixes(pending: Sequence[str]) -> Iterator[list[Verdict]]:
    """Every mix of approve, reject and abstain the `pending` verifiers could answer (an
    unasked verifier reads as an abstention: no vote, not in the approval share)."""
    kinds: tuple[VerdictKind, ...] = ("approve", "reject", "abstain")
    for answers in itertools.product(kinds, repeat=len(pending)):
        yield [
            Verdict(kind, "llm", vid, None if kind == "abstain" else float(kind == "approve"))
            for kind, vid in zip(answers, pending, strict=True)
        ]


def _badge(calibrator: Calibrator, verdicts: Sequence[Verdict]) -> Badge:
    return calibrated_badge(calibrator, calibrator.predict(verdict_signals(verdicts)))


def settled_badge(
    calibrator: Calibrator, heard: Sequence[Verdict], pending: Sequence[str]
) -> Badge | None:
    """Adaptive evidence (design-notes, MAV's early stopping): the badge the combiner gives
    whatever the `pending` verifiers say — every mix of approve, reject and abstain — or
    None while one of them could still change it (then it is worth the call). More than
    MAX_ENUMERATED pending: None (buy on)."""
    if len(pending) > MAX_ENUMERATED:
        return None
    badges: set[Badge] = set()
    for supposed in _mixes(pending):
        badges.add(_badge(calibrator, [*heard, *supposed]))
        if len(badges) > 1:
            return None
    return badges.pop() if badges else None


def settled_for_each(
    calibrator: Calibrator,
    heard: Sequence[Verdict],
    pending: Sequence[str],
    alternatives: Sequence[Sequence[Verdict]],
) -> bool:
    """`settled_badge` for each of the `alternatives`: evidence to be bought after the
    pending verifiers, whose verdicts are one of them (samples put off until after a panel:
    each share they can end at). The badge may differ between alternatives."""
    return all(
        settled_badge(calibrator, [*heard, *alternative], pending) is not None
        for alternative in alternatives
    )


def unchanged_between(
    calibrator: Calibrator,
    heard: Sequence[Verdict],
    ends: tuple[Verdict, Verdict],
    pending: Sequence[str],
) -> bool:
    """Whether evidence still to be bought can change the badge when its verdict is known to
    lie between two `ends` (samples not drawn: the fewest and the most agreeing), with the
    `pending` verifiers still to be heard after it: for every mix of their answers both ends
    give the same badge. The features read a verdict's score linearly and the badge is
    monotone in P, so every verdict between the ends gives that badge too; which badge it is
    may still rest on the pending verifiers (they are asked then). More than MAX_ENUMERATED
    pending: False (buy on)."""
    if len(pending) > MAX_ENUMERATED:
        return False
    low, high = ends
    return all(
        _badge(calibrator, [*heard, low, *supposed])
        == _badge(calibrator, [*heard, high, *supposed])
        for supposed in _mixes(pending)
    )


def judge_ledger(
    calibrator: Calibrator, verdicts: Sequence[VerdictLike], *, proof_only: str | None = None
) -> tuple[Badge, float, bool]:
    """The badge the fitted combiner gives an answer's whole ledger (the response's verdicts
    and any later panel's), its P(correct), and whether that P may verify: only when the model
    learned a weight for every verifier that voted (a verifier it never saw would be read at
    the approval share alone, evidence the promise was not certified on). `proof_only`: why
    only a proof may verify this answer (`only_a_proof`; the callers never verify it on P);
    its P is the rate such answers were right, which, where the fit mapped it, is no evidence
    against the answer either (as `judge` reads it)."""
    row = verdict_signals(verdicts)
    probability = calibrator.predict(row, proof_only=proof_only is not None)
    known = set(calibrator.features)
    votes = [f for f in evidence_features(row) if f.startswith("vote:")]
    badge = calibrated_badge(calibrator, probability)
    if proof_only is not None and proof_in(row) is None and calibrator.proof_only_x:
        badge = "unverified"
    return badge, probability, all(v in known for v in votes)
