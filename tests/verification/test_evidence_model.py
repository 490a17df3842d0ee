"""The one evidence model (issue 25): a fitted logistic model over the ledger, recalibrated,
with the Learn-then-Test promise; adaptive evidence stops buying verdicts once no answer of
the rest could change the badge it gives."""

from __future__ import annotations

import asyncio
import itertools
import random
from dataclasses import replace
from functools import partial

import pytest

from app.verification.calibration import (
    Calibrator,
    _shrunk,
    ece,
    evidence_features,
    fit_evidence_model,
    verdict_signals,
)
from app.verification.combiner import (
    calibrated_badge,
    evidence_against,
    settled_badge,
    settled_for_each,
    unchanged_between,
)
from app.verification.panel import run_panel
from app.verification.verdict import Verdict, VerdictKind

PANEL = [f"p{i}:aspect" for i in range(4)]
RELIABLE = {"p0:aspect": 0.9, "p1:aspect": 0.85, "p2:aspect": 0.6, "p3:aspect": 0.55}


def vote(verifier: str, kind: VerdictKind) -> Verdict:
    return Verdict(kind, "llm", verifier, None if kind == "abstain" else float(kind == "approve"))


def scan(rng: random.Random) -> tuple[list[Verdict], bool]:
    """A simulated ledger: 60 % right; sample agreement higher when right; each verifier right
    with its own reliability, abstaining one time in ten."""
    right = rng.random() < 0.6
    agreeing = sum(rng.random() < (0.85 if right else 0.3) for _ in range(3))
    verdicts = [
        Verdict("approve" if agreeing >= 2 else "reject", "llm", "m:self_consistency", agreeing / 3)
    ]
    for verifier, reliability in RELIABLE.items():
        if rng.random() < 0.1:
            verdicts.append(vote(verifier, "abstain"))
            continue
        says_right = right if rng.random() < reliability else not right
        verdicts.append(vote(verifier, "approve" if says_right else "reject"))
    return verdicts, right


def outcomes(n: int, seed: int) -> tuple[list[dict[str, float]], list[bool]]:
    rng = random.Random(seed)
    rows, labels = [], []
    for _ in range(n):
        verdicts, right = scan(rng)
        rows.append(verdict_signals(verdicts))
        labels.append(right)
    return rows, labels


def test_features_count_abstentions_as_no_evidence() -> None:
    row = verdict_signals(
        [
            Verdict("approve", "llm", "m:self_consistency", 2 / 3),
            vote("a:x", "approve"),
            vote("b:x", "abstain"),
            vote("c:x", "reject"),
        ]
    )
    features = evidence_features(row)
    assert features["agreement"] == 2 / 3
    assert features["approval_share"] == 0.5  # 1 of 2 decisive: the abstention is not a no
    assert features["vote:b:x"] == 0.0 and features["vote:c:x"] == -1.0
    assert "vote:m:self_consistency" not in features  # agreement is its own feature


def test_the_fitted_model_learns_reliability_is_calibrated_and_keeps_the_promise() -> None:
    rows, labels = outcomes(1500, 0)
    model = fit_evidence_model(rows, labels, target=0.95, delta=0.05)
    weight = dict(zip(model.features, model.weights, strict=True))
    # Learned reliability: the 90 % verifier outweighs the 55 % one.
    assert weight["vote:p0:aspect"] > 2 * weight["vote:p3:aspect"] > 0
    fresh, truth = outcomes(3000, 1)
    predicted = [model.predict(r) for r in fresh]
    assert ece(predicted, truth) < 0.03
    assert model.threshold is not None and model.precision_lower_bound >= 0.95
    verified = [t for p, t in zip(predicted, truth, strict=True) if p >= model.threshold]
    assert len(verified) > 0.2 * len(truth) and sum(verified) / len(verified) >= 0.95
    # A proof decides by itself, either way.
    assert model.predict({"programmatic": 1.0}) == 1.0
    assert model.predict({"programmatic": -1.0}) == 0.0


def test_the_model_round_trips_through_its_file(tmp_path) -> None:
    rows, labels = outcomes(400, 2)
    model = fit_evidence_model(rows, labels, target=0.9, delta=0.05)
    model.save(tmp_path / "calibration.json")
    loaded = Calibrator.load(tmp_path / "calibration.json")
    assert loaded == model and loaded.predict(rows[3]) == model.predict(rows[3])


def full_badge(model: Calibrator, verdicts: list[Verdict]) -> str:
    return calibrated_badge(model, model.predict(verdict_signals(verdicts)))


def test_settled_badge_is_the_badge_every_completion_gives() -> None:
    rows, labels = outcomes(1500, 3)
    model = fit_evidence_model(rows, labels, target=0.9, delta=0.05)
    assert model.threshold is not None
    kinds: tuple[VerdictKind, ...] = ("approve", "reject", "abstain")
    agreement = [Verdict("approve", "llm", "m:self_consistency", 1.0)]
    for heard_count in range(len(PANEL) + 1):
        heard_ids, pending = PANEL[:heard_count], PANEL[heard_count:]
        for heard_kinds in itertools.product(kinds, repeat=heard_count):
            heard = agreement + [vote(v, k) for v, k in zip(heard_ids, heard_kinds, strict=True)]
            found = settled_badge(model, heard, pending)
            every = {
                full_badge(model, heard + [vote(v, k) for v, k in zip(pending, rest, strict=True)])
                for rest in itertools.product(kinds, repeat=len(pending))
            }
            assert (found is not None) == (len(every) == 1)
            if found is not None:
                assert {found} == every


def test_samples_not_drawn_change_no_badge_when_unchanged_between_says_so() -> None:
    """Samples adaptive (app/pipeline/evidence.py `samples_evidence`): 2 of 3 drawn, `a` of
    them agreeing. The third is not bought when, for every answer of the panel still to come,
    the fewest (a/3) and the most ((a + 1)/3) agreeing completions give one badge: then so does
    the share over the samples drawn (a/2) that is reported instead."""
    rows, labels = outcomes(1500, 5)
    model = fit_evidence_model(rows, labels, target=0.9, delta=0.05)
    kinds: tuple[VerdictKind, ...] = ("approve", "reject", "abstain")

    def sampled(share: float) -> Verdict:
        return Verdict("approve", "llm", "m:self_consistency", share)

    said_so = set()
    for heard_count in range(len(PANEL) + 1):
        heard_ids, pending = PANEL[:heard_count], PANEL[heard_count:]
        for heard_kinds, agreeing in itertools.product(
            itertools.product(kinds, repeat=heard_count), range(3)
        ):
            heard = [vote(v, k) for v, k in zip(heard_ids, heard_kinds, strict=True)]
            ends = (sampled(agreeing / 3), sampled((agreeing + 1) / 3))
            said = unchanged_between(model, heard, ends, pending)
            shares = (agreeing / 3, agreeing / 2, (agreeing + 1) / 3)
            truth = all(
                len(
                    {
                        full_badge(model, [*heard, sampled(share), *zip_votes(pending, rest)])
                        for share in shares
                    }
                )
                == 1
                for rest in itertools.product(kinds, repeat=len(pending))
            )
            assert said == truth
            said_so.add(said)
    assert said_so == {True, False}  # both happen: the test is not vacuous


def zip_votes(verifiers: list[str], kinds: tuple[VerdictKind, ...]) -> list[Verdict]:
    return [vote(v, k) for v, k in zip(verifiers, kinds, strict=True)]


async def test_an_adaptive_panel_stops_once_the_badge_is_settled() -> None:
    rows, labels = outcomes(1500, 4)
    model = fit_evidence_model(rows, labels, target=0.9, delta=0.05)
    asked: list[str] = []

    def check(verifier: str, kind: VerdictKind):
        async def run() -> Verdict:
            asked.append(verifier)
            await asyncio.sleep(0)
            return vote(verifier, kind)

        return run

    prior = [Verdict("reject", "llm", "m:self_consistency", 0.0)]
    # No sample agreed and the two most reliable verifiers reject: nothing the other two say
    # can make it verified or lift it out of caution, so they are never asked.
    result = await run_panel(
        [check("p0:aspect", "reject"), check("p1:aspect", "reject")]
        + [check(v, "approve") for v in PANEL[2:]],
        max_concurrency=2,
        ids=PANEL,
        stop_when=lambda heard, pending: (
            settled_badge(model, [*prior, *heard], pending) is not None
        ),
    )
    assert asked == ["p0:aspect", "p1:aspect"] and result.started == 2
    assert full_badge(model, [*prior, *result.verdicts]) == "caution"


async def test_samples_put_off_until_after_the_panel_give_the_badge_all_would() -> None:
    """A panel planned after 3 samples, 2 drawn (app/pipeline/evidence.py): the third waits,
    the panel stops once settled for each share the samples can end at (`settled_for_each`),
    and the third is drawn only if it can still change the badge (`unchanged_between`). For
    every first wave, third sample and panel, the badge is the one drawing all 3 before the
    panel gives."""
    rows, labels = outcomes(1500, 6)
    model = fit_evidence_model(rows, labels, target=0.9, delta=0.05)
    kinds: tuple[VerdictKind, ...] = ("approve", "reject", "abstain")
    panel = PANEL[:3]

    def sampled(share: float) -> Verdict:
        return Verdict("approve", "llm", "m:self_consistency", share)

    async def heard(full: tuple[VerdictKind, ...], stop_when) -> list[Verdict]:
        async def ask(verifier: str, kind: VerdictKind) -> Verdict:
            return vote(verifier, kind)

        checks = [partial(ask, v, k) for v, k in zip(panel, full, strict=True)]
        result = await run_panel(checks, max_concurrency=2, ids=panel, stop_when=stop_when)
        return result.verdicts

    saved = 0
    for agreeing, third, full in itertools.product(
        range(3), (0, 1), itertools.product(kinds, repeat=len(panel))
    ):
        every = sampled((agreeing + third) / 3)
        first = await heard(
            full, lambda h, p, every=every: settled_badge(model, [every, *h], p) is not None
        )
        badge_all = full_badge(model, [every, *first])
        assert badge_all == full_badge(model, [every, *zip_votes(panel, full)])

        fewest, most = sampled(agreeing / 3), sampled((agreeing + 1) / 3)
        shares = [[fewest], [most]]
        later = await heard(full, lambda h, p, shares=shares: settled_for_each(model, h, p, shares))
        if unchanged_between(model, later, (fewest, most), []):
            shown, saved = sampled(agreeing / 2), saved + 1  # the share over the 2 drawn
        else:
            shown = every
        assert full_badge(model, [shown, *later]) == badge_all, (agreeing, third, full)
    assert saved > 0


def test_a_ground_truth_match_is_a_proof_not_a_vote() -> None:
    """The problem bank's known answer decided the badge when the answer was returned (the
    validator's proofs: programmatic, then ground truth): the model neither learns from such
    outcomes nor lets them vouch for model-only evidence, and P is 1 or 0 by the match."""
    rows, labels = outcomes(600, 0)
    matched = [
        verdict_signals(
            [
                Verdict(kind, "ground_truth", "ground_truth:problem_bank", float(right)),
                vote("p3:aspect", "approve"),
            ]
        )
        for kind, right in (("approve", True), ("reject", False))
        for _ in range(200)
    ]
    model = fit_evidence_model(
        [*rows, *matched], [*labels, *[True] * 200, *[False] * 200], target=0.95, delta=0.05
    )
    assert model.n_samples == 600 and model.evidence == 600
    assert model.predict(matched[0]) == 1.0 and model.predict(matched[-1]) == 0.0
    # An abstaining comparison proves nothing: the model reads the rest of the row.
    unsure = verdict_signals(
        [
            Verdict("abstain", "ground_truth", "ground_truth:problem_bank", None),
            vote("p0:aspect", "approve"),
        ]
    )
    assert 0.0 < model.predict(unsure) < 1.0


def test_a_coin_flip_p_is_not_evidence_against() -> None:
    """Caution below the level the fit found credibly wrong; a fitted model's coin flip
    (right about half the time) is unverified, not caution. No fitted level: 0.5."""
    rows, labels = outcomes(1500, 0)
    model = fit_evidence_model(rows, labels, target=0.95, delta=0.05)
    assert model.caution_below is not None
    rng = random.Random(1)
    shown = [
        (full_badge(model, verdicts), right) for verdicts, right in (scan(rng) for _ in range(3000))
    ]
    below = [right for badge, right in shown if badge == "caution"]
    assert below and sum(below) / len(below) < 0.5  # caution: more often wrong than right
    coin_flip = replace(model, caution_below=0.45)
    assert calibrated_badge(coin_flip, 0.47) == "unverified"
    assert calibrated_badge(coin_flip, 0.4) == "caution"
    assert calibrated_badge(replace(model, caution_below=None), 0.47) == "caution"


def test_one_problems_wrong_copies_are_not_evidence_against_a_level() -> None:
    """A level is caution when many problems' answers there are wrong, not one problem's
    repeats: forty copies of one shared error are one problem's evidence."""
    approving = verdict_signals([vote(v, "approve") for v in PANEL])
    rejecting = verdict_signals([vote(v, "reject") for v in PANEL])

    def rejected_is_caution(problems_rejected: list[str], wrong: list[bool]) -> bool:
        rows = [approving] * 300 + [rejecting] * len(wrong)
        labels = [i % 20 != 0 for i in range(300)] + [not w for w in wrong]
        problems = [f"a{i}" for i in range(300)] + problems_rejected
        model = fit_evidence_model(rows, labels, target=0.95, delta=0.05, problems=problems)
        return model.predict(rejecting) < evidence_against(model)

    # 45 of 50 rejected answers wrong: 40 are copies of one problem, or 45 problems
    one_shared = ["shared"] * 40 + [f"r{i}" for i in range(10)]
    assert not rejected_is_caution(one_shared, [True] * 40 + [i % 2 == 0 for i in range(10)])
    many = [f"r{i}" for i in range(200)]  # 180 of 200 problems wrong: caution
    assert rejected_is_caution(many, [i % 10 != 0 for i in range(200)])


def test_a_problems_copies_never_score_it_so_memorised_noise_certifies_nothing() -> None:
    # 60 problems, each answered 12 times alike: its own verifier's vote and a label that is a
    # coin flip per problem. Scored by folds of outcomes, the model would learn each problem's
    # label from its other copies and certify that noise; by folds of problems it cannot.
    rng = random.Random(3)
    rows, labels, problems = [], [], []
    for k in range(60):
        right = rng.random() < 0.5
        for _ in range(12):
            rows.append(verdict_signals([vote(f"v{k}:aspect", "approve")]))
            labels.append(right)
            problems.append(f"problem {k}")
    by_outcome = fit_evidence_model(rows, labels, target=0.9, delta=0.05)
    assert by_outcome.threshold is not None  # what leakage would certify
    model = fit_evidence_model(rows, labels, target=0.9, delta=0.05, problems=problems)
    assert model.threshold is None
    # The problem bound (`clusters`) folds by problem too.
    bounded = fit_evidence_model(rows, labels, target=0.9, delta=0.05, clusters=problems)
    assert bounded.threshold is None


def test_a_block_of_few_problems_keeps_part_of_the_models_score() -> None:
    # Block 1: sixteen copies of one problem, all wrong, scored 0.3 by the model; block 2:
    # sixteen problems, all right, scored 0.9. One problem is one witness, sixteen are sixteen.
    scores = [0.3] * 16 + [0.9] * 16
    problems = ["same"] * 16 + [f"p{i}" for i in range(16)]
    knots_x, knots_y = _shrunk([0.5, 1.0], [0.0, 1.0], scores, problems, prior_problems=10)
    assert knots_x == [0.5, 1.0]
    assert knots_y == pytest.approx([10 * 0.3 / 11, (16 + 10 * 0.9) / 26])
    # No prior: the observed rates.
    assert _shrunk([0.5, 1.0], [0.0, 1.0], scores, problems, prior_problems=0)[1] == [0.0, 1.0]


def test_shrinking_that_breaks_the_order_is_pooled_again() -> None:
    # The top block is one problem the model scored 0.55: shrunk to 0.59, below the 0.9 of
    # the forty problems under it. The map stays monotone: the two blocks are pooled.
    scores = [0.45] * 40 + [0.55] * 8
    problems = [f"p{i}" for i in range(40)] + ["one"] * 8
    knots_x, knots_y = _shrunk([0.5, 1.0], [0.9, 1.0], scores, problems, prior_problems=10)
    assert len(knots_x) == len(knots_y) == 1 and knots_x == [1.0]
    assert 0.59 < knots_y[0] < 0.9


def test_the_prior_moves_the_confidence_shown_not_what_is_verified() -> None:
    rows, labels = outcomes(1500, 0)
    shrunk = fit_evidence_model(rows, labels, target=0.95, delta=0.05)
    observed = fit_evidence_model(rows, labels, target=0.95, delta=0.05, prior_problems=0)
    assert shrunk.threshold is not None and observed.threshold is not None
    assert shrunk.post_y != observed.post_y
    fresh, _ = outcomes(1000, 2)
    assert [shrunk.predict(r) >= shrunk.threshold for r in fresh] == [
        observed.predict(r) >= observed.threshold for r in fresh
    ]


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), 1e300, -5.0])
def test_a_share_that_is_no_share_is_clipped_or_no_evidence(bad: float) -> None:
    # A verifier's JSON can say NaN or 1e300 for its confidence: the fit neither raises nor
    # gives a P outside [0, 1].
    rows, labels = outcomes(200, 1)
    for row in rows[::7]:
        row["self_consistency"] = row["quick_confidence"] = bad
    model = fit_evidence_model(rows, labels, target=0.9, delta=0.05)
    assert all(0.0 <= model.predict(row) <= 1.0 for row in rows)
    features = evidence_features({"self_consistency": bad, "quick_confidence": bad})
    assert all(0.0 <= v <= 1.0 for v in features.values())


def test_a_prior_of_fewer_than_no_problems_is_refused() -> None:
    rows, labels = outcomes(100, 1)
    with pytest.raises(ValueError, match="prior_problems"):
        fit_evidence_model(rows, labels, target=0.9, delta=0.05, prior_problems=-1)
