"""Labelled outcomes for the precision promise: which stored answers are known right or wrong.

A label comes from credible evidence only, strongest first (validator priority,
design-notes DELLM): a proof (a programmatic check or a ground-truth match on the returned
answer, at response time or in tier 2), then an agreement of independent providers in tier 2
(never one arbiter's opinion), then a credible tier-3 spot-check panel. The features are the
quick-verify signals of the attempt that was returned, exactly as the pipeline computes them
(`calibration.verdict_signals`).

Answers whose own evidence was a proof never reach the threshold (a proof verifies by
itself, app/pipeline/badge.py), so the threshold is chosen on the others only: otherwise
easy proven answers would vouch for model-only evidence. Answers only a proof may verify
(`combiner.only_a_proof`: a figure given as drawing code, a wording that is not one plain
value, a computation left undone) are flagged unless proven: model evidence never verifies
them, so they do not test it; they set only the confidence shown for such answers.
"""

from __future__ import annotations

import random
import re
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from app.verification.calibration import Calibrator, fit_evidence_model, verdict_signals
from app.verification.combiner import only_a_proof

Source = Literal["proof", "consensus", "spot"]
PROOF_METHODS = ("programmatic", "ground_truth")
# Tier-2 methods that are credible (design-notes DELLM; app/verification/evidence_status.py).
AGREEMENT_METHODS = ("exact_match", "semantic_aggregation", "weighted_majority")
# A spot-check panel is credible with this many decisive verdicts and this lopsided a split.
SPOT_MIN_VERDICTS = 3
SPOT_MIN_SHARE = 0.75


@dataclass(frozen=True, slots=True)
class VerdictRow:
    """One stored verdict (a `verifications` row) with its solution's returned answer."""

    solution_id: uuid.UUID
    final_answer: str | None
    tier: str
    attempt: int
    answer: str | None
    method: str
    verifier_id: str
    verdict: str
    score: float | None
    problem_text: str | None = None


@dataclass(frozen=True, slots=True)
class LabelledOutcome:
    features: dict[str, float]
    correct: bool
    source: Source
    proven_at_response: bool  # the returned attempt's own evidence was a proof
    # The problem it answers (`problem_key`); None: unknown, an outcome of its own.
    problem: str | None = None
    # Only a proof may verify the answer and none did (combiner.only_a_proof).
    proof_only: bool = False


_NOT_A_WORD = re.compile(r"\W+")


def problem_key(text: str | None) -> str | None:
    """One key for every copy of a problem (case, spacing and punctuation aside): a class's
    thirty scans of one homework problem are one problem's outcomes, dependent trials, not
    thirty independent ones. Merging near copies only makes the bound more cautious."""
    if text is None:
        return None
    return _NOT_A_WORD.sub(" ", text.casefold()).strip() or None


def spot_outcome(verdicts: Sequence[str]) -> bool | None:
    """A panel's credible verdict: enough decisive votes, lopsided enough; else None."""
    approve = sum(v == "approve" for v in verdicts)
    reject = sum(v == "reject" for v in verdicts)
    decisive = approve + reject
    if decisive < SPOT_MIN_VERDICTS:
        return None
    if approve / decisive >= SPOT_MIN_SHARE:
        return True
    if reject / decisive >= SPOT_MIN_SHARE:
        return False
    return None


class AttemptVerdict(Protocol):
    """A stored verdict with the attempt and answer it judged (a `verifications` row)."""

    @property
    def tier(self) -> str: ...
    @property
    def attempt(self) -> int: ...
    @property
    def answer(self) -> str | None: ...


Row = TypeVar("Row", bound=AttemptVerdict)


def returned_attempt(rows: Iterable[Row], final_answer: str | None) -> list[Row]:
    """Quick verdicts of the attempt whose answer was returned (the best, not the last): the
    evidence the badge was given on at response time."""
    quick = [r for r in rows if r.tier == "quick" and r.answer == final_answer]
    last = max((r.attempt for r in quick), default=None)
    return [r for r in quick if r.attempt == last]


def _returned(rows: list[VerdictRow]) -> list[VerdictRow]:
    return returned_attempt(rows, rows[0].final_answer) if rows else []


def _is_proof(row: VerdictRow) -> bool:
    return row.method in PROOF_METHODS and row.verdict != "abstain"


def label(rows: list[VerdictRow]) -> tuple[bool, Source] | None:
    """The strongest credible label of one solution's returned answer, or None."""
    proof = next((r for r in _returned(rows) if _is_proof(r)), None)
    if proof is not None:
        return proof.verdict == "approve", "proof"
    consensus = [r for r in rows if r.tier == "consensus" and r.verdict != "abstain"]
    for row in consensus:
        if row.verifier_id == "consensus:proof":
            return row.verdict == "approve", "proof"
    for row in consensus:
        if row.verifier_id.removeprefix("consensus:") in AGREEMENT_METHODS:
            return row.verdict == "approve", "consensus"
    spot = spot_outcome([r.verdict for r in rows if r.tier == "spot"])
    return None if spot is None else (spot, "spot")


def labelled_outcomes(rows: Iterable[VerdictRow]) -> list[LabelledOutcome]:
    """One outcome per solution with a credible label and quick-verify features."""
    by_solution: dict[uuid.UUID, list[VerdictRow]] = defaultdict(list)
    for row in rows:
        by_solution[row.solution_id].append(row)
    outcomes = []
    for solution_rows in by_solution.values():
        found = label(solution_rows)
        returned = _returned(solution_rows)
        if found is None or not returned:
            continue
        proven = any(_is_proof(r) for r in returned)
        outcomes.append(
            LabelledOutcome(
                verdict_signals(returned),
                found[0],
                found[1],
                proven,
                problem_key(returned[0].problem_text),
                # the threshold is certified on answers model evidence may verify only
                proof_only=not proven and _model_cannot_verify(returned[0]),
            )
        )
    return outcomes


def _model_cannot_verify(row: VerdictRow) -> bool:
    """Only a proof may verify the returned answer (combiner.only_a_proof)."""
    if row.problem_text is None or row.final_answer is None:
        return False
    return only_a_proof(row.final_answer, row.problem_text) is not None


def split_for_promise(
    outcomes: Sequence[LabelledOutcome], holdout_fraction: float, seed: int = 0
) -> tuple[list[LabelledOutcome], list[LabelledOutcome]]:
    """(fit, holdout): the calibrator is fitted on `fit`; the threshold is chosen on
    `holdout`, a seeded share of the outcomes whose evidence was not a proof."""
    model_only = [o for o in outcomes if not o.proven_at_response]
    random.Random(seed).shuffle(model_only)
    cut = round(len(model_only) * holdout_fraction)
    holdout = model_only[:cut]
    held = {id(o) for o in holdout}
    return [o for o in outcomes if id(o) not in held], holdout


def fit_with_promise(
    outcomes: Sequence[LabelledOutcome],
    *,
    target: float,
    delta: float,
    holdout_fraction: float,
    fitted_at: str,
) -> Calibrator:
    """THE combiner on the labelled outcomes (`calibration.fit_evidence_model`, the one `bench
    service` fits on recorded runs): every model-only outcome is held out from the model
    that scores it (cross-fitting), so all of them test the threshold. Proofs verify by
    themselves and are not modelled. Too few model-only outcomes: no threshold, so nothing
    verifies by calibration. (`holdout_fraction` is kept for callers; cross-fitting holds
    every outcome out.)"""
    del holdout_fraction
    model = fit_evidence_model(
        [o.features for o in outcomes],
        [o.correct for o in outcomes],
        target=target,
        delta=delta,
        # Copies of one problem are its dependent outcomes (precision.clustered_lower).
        clusters=[o.problem or i for i, o in enumerate(outcomes)],
        proof_only=[o.proof_only for o in outcomes],
    )
    model.fitted_at = fitted_at
    model.sources = dict(Counter(o.source for o in outcomes))
    return model
