"""Which stored answers are labelled right or wrong, and the fitted precision promise."""

from __future__ import annotations

import random
import uuid

from app.verification.outcomes import (
    VerdictRow,
    fit_with_promise,
    label,
    labelled_outcomes,
    problem_key,
    split_for_promise,
    spot_outcome,
)


def row(sid: uuid.UUID, tier: str, verifier: str, verdict: str, **kw: object) -> VerdictRow:
    fields: dict = {
        "solution_id": sid,
        "final_answer": "5",
        "tier": tier,
        "attempt": 1,
        "answer": "5",
        "method": "llm",
        "verifier_id": verifier,
        "verdict": verdict,
        "score": None,
    }
    return VerdictRow(**(fields | kw))


def test_a_proof_outranks_consensus_and_spot_checks() -> None:
    sid = uuid.uuid4()
    rows = [
        row(sid, "quick", "symbolic:substitution", "approve", method="programmatic", score=1.0),
        row(sid, "consensus", "consensus:exact_match", "reject"),
        *[row(sid, "spot", f"aspect:{i}", "reject") for i in range(4)],
    ]
    assert label(rows) == (True, "proof")
    assert label(rows[1:]) == (False, "consensus")
    assert label(rows[2:]) == (False, "spot")


def test_arbitration_and_split_panels_label_nothing() -> None:
    sid = uuid.uuid4()
    assert label([row(sid, "consensus", "consensus:llm_arbitration", "reject")]) is None
    assert spot_outcome(["approve", "reject", "approve", "reject"]) is None
    assert spot_outcome(["approve", "approve"]) is None  # too few decisive verdicts
    assert spot_outcome(["approve", "approve", "approve", "abstain"]) is True


def test_a_proof_on_a_rejected_attempt_does_not_label_the_returned_answer() -> None:
    sid = uuid.uuid4()
    rows = [
        row(sid, "quick", "symbolic:substitution", "reject", method="programmatic", answer="4"),
        row(sid, "quick", "g:quick_verify", "approve", attempt=2, score=0.9),
        row(sid, "consensus", "consensus:semantic_aggregation", "approve"),
    ]
    (outcome,) = labelled_outcomes(rows)
    assert (outcome.correct, outcome.source, outcome.proven_at_response) == (
        True,
        "consensus",
        False,
    )
    assert outcome.features["quick_confidence"] == 0.9


def model_only_outcomes(n: int, seed: int = 0, problems: int | None = None) -> list[VerdictRow]:
    """Quick-verify approvals with a score; right above 0.8, a coin flip below. `problems`:
    the outcomes are copies of that many problems (each copy its own scan and evidence)."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        sid, score = uuid.uuid4(), rng.uniform(0.6, 1.0)
        right = score > 0.8 or rng.random() < 0.5
        text = None if problems is None else f"Problem {i % problems}: what is {i % problems} + 1?"
        rows += [
            row(sid, "quick", "g:quick_verify", "approve", score=score, problem_text=text),
            row(sid, "consensus", "consensus:exact_match", "approve" if right else "reject"),
        ]
    return rows


def test_the_threshold_is_chosen_on_held_out_model_only_outcomes() -> None:
    proofs = []
    for i in range(60):
        sid = uuid.uuid4()
        verdict = "approve" if i % 2 else "reject"
        proofs.append(row(sid, "quick", "symbolic:s", verdict, method="programmatic"))
    outcomes = labelled_outcomes([*model_only_outcomes(400), *proofs])
    fit, holdout = split_for_promise(outcomes, 0.5)
    assert len(holdout) == 200 and not any(o.proven_at_response for o in holdout)
    assert len(fit) == 260
    model = fit_with_promise(
        outcomes, target=0.95, delta=0.05, holdout_fraction=0.5, fitted_at="2026-11-21T00:00Z"
    )
    assert model.threshold is not None and model.evidence == 400  # every one, cross-fitted
    assert model.precision_lower_bound is not None and model.precision_lower_bound >= 0.95
    assert model.sources == {"consensus": 400, "proof": 60}
    assert model.ece is not None and model.brier is not None
    # The promise holds on fresh outcomes from the same process.
    fresh = labelled_outcomes(model_only_outcomes(2000, seed=1))
    chosen = [o.correct for o in fresh if model.predict(o.features) >= model.threshold]
    assert chosen and sum(chosen) / len(chosen) >= 0.95


def test_without_held_out_outcomes_nothing_verifies_by_calibration() -> None:
    proofs = [
        row(uuid.uuid4(), "quick", "symbolic:s", v, method="programmatic")
        for v in ["approve", "reject"] * 30
    ]
    model = fit_with_promise(
        labelled_outcomes(proofs), target=0.95, delta=0.05, holdout_fraction=0.5, fitted_at="t"
    )
    assert model.threshold is None and model.target_precision == 0.95 and model.evidence == 0


def test_copies_of_one_problem_count_as_one_problems_outcomes() -> None:
    """Thirty students scanning one homework problem are not thirty independent trials: the
    promise's bound counts problems (precision.clustered_lower), so 400 outcomes of 8 problems
    certify nothing, where 400 outcomes of 400 problems do."""
    many = fit_with_promise(
        labelled_outcomes(model_only_outcomes(400)),
        target=0.95, delta=0.05, holdout_fraction=0.5, fitted_at="t",
    )  # fmt: skip
    few = labelled_outcomes(model_only_outcomes(400, problems=8))
    assert len({o.problem for o in few}) == 8
    copies = fit_with_promise(few, target=0.95, delta=0.05, holdout_fraction=0.5, fitted_at="t")
    assert many.threshold is not None and copies.threshold is None


def test_a_problems_copies_share_a_key_whatever_their_spacing_and_case() -> None:
    assert problem_key("What is  3 + 4?") == problem_key("what is 3 + 4") == "what is 3 4"
    assert problem_key("What is 3.5 + 4?") != problem_key("What is 35 + 4?")
    assert problem_key(None) is None and problem_key(" ?! ") is None
