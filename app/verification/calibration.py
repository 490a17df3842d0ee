"""From raw verification signals to a calibrated P(correct).

Signals: the approval fraction (over decisive verdicts), which verifiers approved (+1/-1/0
each), the programmatic result (+1 approve, -1 reject, 0 none) and the quick-verify
confidence. `Calibrator` fits a
logistic model (L2-regularised, Newton/IRLS) on all of them, or isotonic regression (pool
adjacent violators) on one scalar signal. It is saved as JSON and loaded by the service; once
fitted, its output is what `verification_confidence` means. ECE and Brier measure it.

The one evidence model (issue 25) is `fit_evidence_model`: a logistic model over the ledger's
features as `evidence_features` reads them (the share of samples agreeing with the answer, the
approval share over decisive verdicts, their product, and each verifier's vote: its weight is
that verifier's learned reliability), recalibrated by isotonic regression on cross-fitted
scores (each outcome scored by a model fitted without it), with the promise threshold chosen
by Learn-then-Test on those cross-fitted probabilities. Proofs are not modelled: a proof
decides by itself.
"""

from __future__ import annotations

import bisect
import json
import math
import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

from app.verification.precision import effective_size

Signals = Mapping[str, float]


class VerdictLike(Protocol):
    """A verdict (app/verification/verdict.py) or a stored verdict row."""

    @property
    def verdict(self) -> str: ...
    @property
    def method(self) -> str: ...
    @property
    def verifier_id(self) -> str: ...
    @property
    def score(self) -> float | None: ...


def signals(
    *,
    approvals: Mapping[str, bool | None] | None = None,
    programmatic: str | None = None,
    quick_confidence: float | None = None,
) -> dict[str, float]:
    """The feature row for one verified answer."""
    row: dict[str, float] = {}
    decisive = [v for v in (approvals or {}).values() if v is not None]
    if decisive:
        # Over decisive verdicts: an abstention is no evidence, never a rejection.
        row["approval_fraction"] = sum(decisive) / len(decisive)
    if approvals:
        for vid, vote in approvals.items():
            row[f"verifier:{vid}"] = 0.0 if vote is None else (1.0 if vote else -1.0)
    if programmatic is not None:
        row["programmatic"] = {"approve": 1.0, "reject": -1.0}.get(programmatic, 0.0)
    if quick_confidence is not None:
        row["quick_confidence"] = quick_confidence
    return row


# Ledger rows that are not a verifier's vote on the answer: proofs (their own feature),
# sample agreement (its share is the feature; its ±1 verdict repeats it).
_NOT_VOTES = ("symbolic:", ":self_consistency", "ground_truth", "problem_bank")


def _is_vote(key: str) -> bool:
    return key.startswith("verifier:") and not any(m in key for m in _NOT_VOTES)


def proof_in(row: Signals) -> float | None:
    """+1 or −1 when a proof decided the answer when it was returned — a programmatic check,
    else a match or mismatch with the problem bank's known answer (validator priority) —
    else None. A proof is the evidence: P is 1 or 0, and the model learns nothing from it."""
    if row.get("programmatic") in (1.0, -1.0):
        return row["programmatic"]
    return next(
        (
            value
            for key, value in row.items()
            if key.startswith("verifier:ground_truth:") and value in (1.0, -1.0)
        ),
        None,
    )


def is_proof_row(row: Signals) -> bool:
    return proof_in(row) is not None


def _share(value: float | None) -> float | None:
    """A share or a confidence as a feature: a value outside [0, 1] is clipped to it, and one
    that is no number at all (NaN from a verifier's JSON) is no evidence."""
    if value is None or math.isnan(value):
        return None
    return min(max(value, 0.0), 1.0)


def evidence_features(row: Signals) -> dict[str, float]:
    """The evidence model's features from one ledger row (`verdict_signals`): sample agreement,
    the approval share over decisive votes (an abstention is no evidence), their product, each
    verifier's vote (+1/−1, 0 abstained: its sign, whatever a stored value says) and the quick
    verifier's confidence."""
    votes = {
        key.removeprefix("verifier:"): math.copysign(1.0, value) if value else 0.0
        for key, value in row.items()
        if _is_vote(key) and not math.isnan(value)
    }
    decisive = [v for v in votes.values() if v != 0.0]
    features: dict[str, float] = {}
    agreement = _share(row.get("self_consistency"))
    if agreement is not None:
        features["agreement"] = agreement
    if decisive:
        share = sum(v > 0 for v in decisive) / len(decisive)
        features["approval_share"] = share
        if agreement is not None:
            features["agreement_x_approval"] = agreement * share
    for verifier, vote in votes.items():
        features[f"vote:{verifier}"] = vote
    confidence = _share(row.get("quick_confidence"))
    if confidence is not None:  # the quick verifier's own P(correct), when it gave one
        features["quick_confidence"] = confidence
    return features


def verdict_signals(verdicts: Iterable[VerdictLike]) -> dict[str, float]:
    """Every verdict of one attempt (quick verify and any panel) as calibration features:
    the same row at response time and when recalibrating from stored verdicts."""
    listed = list(verdicts)
    programmatic = next((v for v in listed if v.method == "programmatic"), None)
    model = next((v for v in listed if v.verifier_id.endswith(":quick_verify")), None)
    sampled = next((v for v in listed if v.verifier_id.endswith(":self_consistency")), None)
    row = signals(
        approvals={
            v.verifier_id: None if v.verdict == "abstain" else v.verdict == "approve"
            for v in listed
        },
        programmatic=programmatic.verdict if programmatic else None,
        quick_confidence=model.score if model and model.score is not None else None,
    )
    if sampled is not None and sampled.score is not None:
        row["self_consistency"] = sampled.score  # the agreement fraction, not just ±1
    return row


@dataclass(slots=True)
class Calibrator:
    kind: Literal["logistic", "isotonic"] = "logistic"
    features: list[str] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)
    bias: float = 0.0
    # isotonic: a step function over one signal
    signal: str = "approval_fraction"
    knots_x: list[float] = field(default_factory=list)
    knots_y: list[float] = field(default_factory=list)
    n_samples: int = 0
    # "raw": the model reads `verdict_signals` rows as they are (older files); "evidence": it
    # reads `evidence_features` of them and a proof row is P = 1 (`fit_evidence_model`).
    feature_set: Literal["raw", "evidence"] = "raw"
    # Isotonic recalibration of the logistic output (PAV knots; empty: none).
    post_x: list[float] = field(default_factory=list)
    post_y: list[float] = field(default_factory=list)
    # The confidence shown for an answer only a proof may verify (combiner.only_a_proof): the
    # rate at which such answers were right at each P (PAV knots; empty: P as it is).
    proof_only_x: list[float] = field(default_factory=list)
    proof_only_y: list[float] = field(default_factory=list)
    # The precision promise (app/verification/precision.py), fitted with the calibrator:
    # verified ⇔ P(correct) ≥ threshold. target_precision None: an older file without one.
    threshold: float | None = None
    target_precision: float | None = None
    delta: float = 0.05
    evidence: int = 0
    precision_lower_bound: float | None = None
    # P(correct) below this is evidence against the answer (caution), chosen with the
    # threshold (precision.choose_evidence_against); None: 0.5 (a raw or older calibrator).
    caution_below: float | None = None
    # How good the fit is, measured on the threshold's held-out outcomes (else the fit set),
    # when it was fitted (ISO 8601, UTC), and the labelled outcomes by source.
    ece: float | None = None
    brier: float | None = None
    fitted_at: str | None = None
    sources: dict[str, int] = field(default_factory=dict)
    # A step critique's calibrator: how well its claims' P ranks right above wrong ones on the
    # held-out claims, and the "provider:model" it was measured on (app/verification/admission.py).
    auroc: float | None = None
    measured_on: str | None = None

    # ------------------------------------------------------------------ fitting
    @classmethod
    def fit_logistic(
        cls, rows: Sequence[Signals], labels: Sequence[bool], l2: float = 1.0, iterations: int = 50
    ) -> Calibrator:
        features = sorted({k for row in rows for k in row})
        x = np.array([[row.get(f, 0.0) for f in features] for row in rows], dtype=float)
        x = np.hstack([x, np.ones((len(rows), 1))])
        y = np.array(labels, dtype=float)
        w = np.zeros(x.shape[1])
        penalty = np.full(x.shape[1], l2)
        penalty[-1] = 0.0  # the bias is not regularised
        for _ in range(iterations):
            p = 1 / (1 + np.exp(-np.clip(x @ w, -50, 50)))
            gradient = x.T @ (p - y) + penalty * w
            hessian = (x.T * (p * (1 - p))) @ x + np.diag(penalty) + 1e-9 * np.eye(len(w))
            step = np.linalg.solve(hessian, gradient)
            w -= step
            if np.max(np.abs(step)) < 1e-8:
                break
        return cls("logistic", features, w[:-1].tolist(), float(w[-1]), n_samples=len(rows))

    @classmethod
    def fit_isotonic(
        cls, rows: Sequence[Signals], labels: Sequence[bool], signal: str = "approval_fraction"
    ) -> Calibrator:
        knots_x, knots_y = _pav([row.get(signal, 0.0) for row in rows], labels)
        return cls(
            "isotonic",
            signal=signal,
            knots_x=knots_x,
            knots_y=knots_y,
            n_samples=len(rows),
        )

    # ------------------------------------------------------------------ use
    @property
    def fitted_evidence(self) -> bool:
        """THE combiner fitted on outcomes: it can say what a verdict would change (an empty
        evidence model, or a raw-signal calibrator, knows nothing of that)."""
        return self.feature_set == "evidence" and bool(self.features)

    def predict(self, row: Signals, *, proof_only: bool = False) -> float:
        """P(correct | row). `proof_only`: the answer is one only a proof may verify; its P
        is the rate such answers were right at that P in the fit (a figure read as text:
        every verifier approving, right one time in five)."""
        if self.feature_set == "evidence":
            proof = proof_in(row)
            if proof is not None:
                return 1.0 if proof > 0 else 0.0
            p = self._recalibrated(self._score(evidence_features(row)))
            return _step(self.proof_only_x, self.proof_only_y, p) if proof_only else p
        return self._score(row)

    def _recalibrated(self, p: float) -> float:
        return _step(self.post_x, self.post_y, p)

    def _score(self, row: Signals) -> float:
        if self.kind == "isotonic":
            if not self.knots_y:
                return 0.5
            return _step(self.knots_x, self.knots_y, row.get(self.signal, 0.0))
        z = self.bias + sum(
            w * row.get(f, 0.0) for f, w in zip(self.features, self.weights, strict=True)
        )
        return 1 / (1 + math.exp(-max(min(z, 50), -50)))

    def with_promise(
        self, rows: Sequence[Signals], labels: Sequence[bool], target: float, delta: float = 0.05
    ) -> Calibrator:
        """This calibrator with the threshold that keeps `target` precision on (rows, labels)
        (labelled outcomes the calibrator was not fitted on, where there are enough)."""
        from app.verification.precision import choose_threshold

        chosen = choose_threshold(
            [self.predict(r) for r in rows], labels, target=target, delta=delta
        )
        return replace(
            self,
            threshold=chosen.threshold,
            target_precision=target,
            delta=delta,
            evidence=chosen.evidence,
            precision_lower_bound=chosen.precision_lower_bound,
        )

    def save(self, path: Path) -> None:
        from dataclasses import asdict

        path.write_text(json.dumps(asdict(self), indent=2))

    @classmethod
    def load(cls, path: Path) -> Calibrator:
        return cls(**json.loads(path.read_text()))


def _step(knots_x: Sequence[float], knots_y: Sequence[float], p: float) -> float:
    """An isotonic map's value at p (PAV knots; none: p itself)."""
    for x, y in zip(knots_x, knots_y, strict=True):
        if p <= x:
            return y
    return knots_y[-1] if knots_y else p


# ---------------------------------------------------------------------- metrics


def brier(probabilities: Sequence[float], labels: Sequence[bool]) -> float:
    p, y = np.asarray(probabilities, float), np.asarray(labels, float)
    return float(np.mean((p - y) ** 2)) if len(p) else 0.0


def reliability_bins(
    probabilities: Sequence[float], labels: Sequence[bool], bins: int = 10
) -> list[tuple[float, float, int]]:
    """(mean predicted, observed accuracy, count) per equal-width bin with data."""
    p, y = np.asarray(probabilities, float), np.asarray(labels, float)
    index = np.minimum((p * bins).astype(int), bins - 1)
    out = []
    for b in range(bins):
        mask = index == b
        if mask.any():
            out.append((float(p[mask].mean()), float(y[mask].mean()), int(mask.sum())))
    return out


def ece(probabilities: Sequence[float], labels: Sequence[bool], bins: int = 10) -> float:
    """Expected calibration error: Σ_bins |accuracy − confidence| × share of samples."""
    total = len(probabilities)
    if not total:
        return 0.0
    return sum(
        abs(acc - conf) * n / total
        for conf, acc, n in reliability_bins(probabilities, labels, bins)
    )


# ---------------------------------------------------------------------- the evidence model

# The calibration map's prior, in problems: what one block of the isotonic map trusts the
# model's own cross-fitted score for. On the MAV replay (six 75/75 directions) 1, 3, 6, 12
# and unbounded gave mean ECE 0.031, 0.030, 0.029, 0.028, 0.028 (unshrunk 0.032) with every
# badge unchanged; ten sits in the flat part, not at any one split's best.
PRIOR_PROBLEMS = 10.0


def _pav(
    scores: Sequence[float],
    labels: Sequence[float],
    weights: Sequence[float] | None = None,
) -> tuple[list[float], list[float]]:
    """Isotonic regression (pool adjacent violators): knots (x_max of each block, its mean).
    Equal scores are one point first: a map must give one value at a score."""
    tied: dict[float, list[float]] = {}
    for x, c, w in zip(scores, labels, weights or [1.0] * len(scores), strict=True):
        tied.setdefault(x, [0.0, 0.0])
        tied[x][0] += float(c) * w
        tied[x][1] += w
    blocks: list[list[float]] = []  # [sum_y, count, x_max]
    for x in sorted(tied):
        blocks.append([tied[x][0], tied[x][1], x])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            y2, n2, x2 = blocks.pop()
            blocks[-1][0] += y2
            blocks[-1][1] += n2
            blocks[-1][2] = x2
    return [b[2] for b in blocks], [b[0] / b[1] for b in blocks]


def _shrunk(
    knots_x: Sequence[float],
    knots_y: Sequence[float],
    scores: Sequence[float],
    problems: Sequence[Hashable],
    prior_problems: float,
) -> tuple[list[float], list[float]]:
    """Each isotonic block's rate as a posterior mean: a Beta prior centred on the model's
    mean cross-fitted score in the block, worth `prior_problems` problems, updated by the
    block's outcomes counted as the problems they are (Kish's effective size: a problem's
    sixteen copies are not sixteen witnesses). A block of a few problems keeps part of the
    model's own estimate; with many problems the observed rate decides. Pooled again where
    the shrinking broke monotonicity."""
    members: list[list[tuple[float, Hashable]]] = [[] for _ in knots_x]
    for score, problem in zip(scores, problems, strict=True):
        block = min(bisect.bisect_left(knots_x, score), len(knots_x) - 1)
        members[block].append((score, problem))
    levels: list[float] = []
    for rate, block_members in zip(knots_y, members, strict=True):
        effective = effective_size([problem for _, problem in block_members])
        prior = sum(score for score, _ in block_members) / len(block_members)
        levels.append((effective * rate + prior_problems * prior) / (effective + prior_problems))
    return _pav(knots_x, levels, [float(len(m)) for m in members])


def cross_fitted_scores(
    rows: Sequence[Signals],
    labels: Sequence[bool],
    *,
    folds: int,
    seed: int,
    l2: float,
    groups: Sequence[int] | None = None,
) -> list[float]:
    """Each row's logistic score from a model fitted on the other folds (never on itself, nor
    on a row of its group: the partial copies of one outcome share its fold)."""
    order = list(range(len(rows)))
    group_of = list(groups) if groups is not None else order
    names = sorted(set(group_of))
    random.Random(seed).shuffle(names)
    fold_of_group = {g: k % folds for k, g in enumerate(names)}
    fold_of = {i: fold_of_group[group_of[i]] for i in order}
    scores = [0.0] * len(rows)
    for k in range(folds):
        train = [i for i in order if fold_of[i] != k]
        if len({labels[i] for i in train}) < 2:
            base = sum(labels[i] for i in train) / len(train) if train else 0.5
            for i in order:
                if fold_of[i] == k:
                    scores[i] = base
            continue
        model = Calibrator.fit_logistic([rows[i] for i in train], [labels[i] for i in train], l2=l2)
        for i in order:
            if fold_of[i] == k:
                scores[i] = model.predict(rows[i])
    return scores


def fit_evidence_model(
    rows: Sequence[Signals],
    labels: Sequence[bool],
    *,
    target: float,
    delta: float,
    folds: int = 10,
    seed: int = 0,
    l2: float = 1.0,
    min_outcomes: int = 10,
    partial_copies: int = 0,
    prior_problems: float = PRIOR_PROBLEMS,
    clusters: Sequence[Hashable] | None = None,
    problems: Sequence[Hashable] | None = None,
    proof_only: Sequence[bool] | None = None,
) -> Calibrator:
    """THE combiner, fitted on labelled outcomes (raw ledger rows, `verdict_signals`).

    1. Proof rows are set aside: a proof decides by itself (P = 1 for, 0 against); it teaches
       nothing about how far model evidence can be trusted. So are the outcomes of answers
       only a proof may verify (`proof_only`): model evidence never verifies them, so they
       test nothing of it; they only set the confidence shown for such answers (6.).
    2. A logistic model over `evidence_features` (L2), scored cross-fitted: every outcome by a
       model fitted on the other folds, folded by problem (`problems`, else `clusters`):
       copies of one problem share their evidence, and a model that had seen a problem's other
       copies would score it by memory (labels that are noise per problem certified a
       threshold when folded by outcome).
    3. Isotonic regression of the outcomes on those scores: the calibration map (monotone, so
       it keeps the model's order; it turns a score into the observed rate of right answers),
       each block's rate shrunk toward the model's own score in it by a prior worth
       `prior_problems` problems (`_shrunk`): seventy-five problems' blocks are noisy rates.
    4. The promise: Learn-then-Test (fixed-sequence, Clopper–Pearson) on the cross-fitted,
       recalibrated probabilities of the model-only outcomes. `verified` by the model then
       holds `target` precision with confidence 1 − delta on answers like these. With
       `clusters` (each outcome's problem) the bound counts a problem's outcomes as the
       dependent trials they are (precision.clustered_lower).
    5. The caution level (precision.choose_evidence_against) always counts one problem's
       outcomes (`problems`, else `clusters`) as dependent: calling a right answer suspect
       needs evidence from many problems, not one problem's repeats.
    6. The confidence shown for an answer only a proof may verify: isotonic regression of
       those outcomes on the kept model's P (which never saw them), when there are enough.
    The model kept is fitted on all model-only outcomes, followed by the same map. Too few
    outcomes (or one class only): no threshold, so only proofs verify.
    """
    if not prior_problems >= 0:
        raise ValueError(f"prior_problems must be a count of problems, not {prior_problems}")
    keys: Sequence[Hashable] = list(range(len(rows))) if clusters is None else clusters
    folds_by: Sequence[Hashable] = keys if problems is None else problems
    flagged = [False] * len(rows) if proof_only is None else proof_only
    kept = [
        (r, bool(c), k, f)
        for r, c, k, f, only in zip(rows, labels, keys, folds_by, flagged, strict=True)
        if not is_proof_row(r) and not only
    ]
    set_aside = [
        (r, bool(c))
        for r, c, only in zip(rows, labels, flagged, strict=True)
        if only and not is_proof_row(r)
    ]
    model_rows = [(r, c) for r, c, _, _ in kept]
    fold_keys = {f: i for i, f in enumerate(dict.fromkeys(f for *_, f in kept))}
    empty = Calibrator(
        feature_set="evidence", target_precision=target, delta=delta, n_samples=len(model_rows)
    )
    if len(model_rows) < min_outcomes or len({c for _, c in model_rows}) < 2:
        return empty
    # Partial copies: each outcome again with some of its votes unheard (as when adaptive
    # evidence stops a panel early), so P(correct) is calibrated on the evidence a scan bought,
    # not only on full panels. They teach the model and its map; the promise and the fit's
    # ECE are measured on the outcomes as they were.
    rng = random.Random(seed)
    x: list[dict[str, float]] = []
    y: list[bool] = []
    group: list[int] = []
    outcome: list[int] = []
    for g, (row, correct) in enumerate(model_rows):
        heard = [k for k in row if _is_vote(k) and row[k] != 0.0]
        copies = [row]
        for _ in range(partial_copies if len(heard) > 1 else 0):
            hidden = rng.sample(heard, rng.randint(1, len(heard) - 1))
            copies.append({**row, **dict.fromkeys(hidden, 0.0)})
        for copy in copies:
            x.append(evidence_features(copy))
            y.append(correct)
            group.append(fold_keys[kept[g][3]])
            outcome.append(g)
    original = [i == 0 or outcome[i] != outcome[i - 1] for i in range(len(x))]
    scores = cross_fitted_scores(
        x, y, folds=min(folds, len(fold_keys)), seed=seed, l2=l2, groups=group
    )
    knots_x, knots_y = _shrunk(*_pav(scores, y), scores, group, prior_problems)
    model = Calibrator.fit_logistic(x, y, l2=l2)
    from app.verification.precision import choose_evidence_against, choose_threshold

    fitted = replace(
        model, feature_set="evidence", post_x=knots_x, post_y=knots_y, n_samples=len(model_rows)
    )
    calibrated = [fitted._recalibrated(s) for s, o in zip(scores, original, strict=True) if o]
    y = [c for c, o in zip(y, original, strict=True) if o]
    problems = None if clusters is None else [k for _, _, k, _ in kept]
    chosen = choose_threshold(calibrated, y, target=target, delta=delta, clusters=problems)
    # Evidence against is always weighed per problem: a shared error's sixteen wrong copies
    # are one problem's evidence that its level is wrong, not sixteen.
    by_problem = [f for *_, f in kept]
    shown_x: list[float] = []
    shown_y: list[float] = []
    if len(set_aside) >= min_outcomes:
        # Not shrunk toward the model's P: these answers' rate is far from it (that is why
        # they are set aside), so the model's P is no prior for it.
        shown_x, shown_y = _pav(
            [fitted.predict(r) for r, _ in set_aside], [c for _, c in set_aside]
        )
    return replace(
        fitted,
        proof_only_x=shown_x,
        proof_only_y=shown_y,
        threshold=chosen.threshold,
        caution_below=choose_evidence_against(calibrated, y, delta=delta, clusters=by_problem),
        target_precision=target,
        delta=delta,
        evidence=chosen.evidence,
        precision_lower_bound=chosen.precision_lower_bound,
        ece=ece(calibrated, y),
        brier=brier(calibrated, y),
    )
