"""BoN-MAV, self-consistency, clustering, verifier engineering, reliability weights."""

from __future__ import annotations

import pytest

from app.verification.answers import cluster_answers, normalize_math_answer
from app.verification.aspects import ASPECTS, AspectVerifier
from app.verification.bon_mav import (
    LabelledProblem,
    bon_mav,
    bon_mav_select,
    engineer_verifiers,
    selection_accuracy,
    self_consistency,
)
from app.verification.reliability import VerifierWeights, select_by_clusters
from tests.fixtures.scripted import ScriptedClient


def test_bon_mav_scores_and_ties_to_the_earliest() -> None:
    approvals = [
        {"a": True, "b": False, "c": None},  # 1/3: an abstention is not an approval
        {"a": True, "b": True, "c": False},  # 2/3
        {"a": True, "b": None, "c": True},  # 2/3, later: loses the tie
    ]
    index, scores = bon_mav_select(approvals)
    assert index == 1 and scores == pytest.approx([1 / 3, 2 / 3, 2 / 3])
    all_reject = [{"a": False}, {"a": False}]
    assert bon_mav_select(all_reject) == (0, [0.0, 0.0])


def test_self_consistency_is_exact_strings_unless_normalized() -> None:
    answers = ["1/2", "0.5", "\\frac{1}{2}", "2", "2"]
    assert self_consistency(answers) == 3  # "2" twice beats three spellings of one half
    assert self_consistency(answers, normalize=True) == 0
    assert self_consistency([None, None]) is None


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("\\boxed{\\dfrac12}", "\\frac{1}{2}"),
        ("0.5", "\\frac{1}{2}"),
        ("x = 5", "5"),
        ("5 \\text{ cm}", "5"),
        ("\\left( 3, 4 \\right)", "(3,4)"),
        ("1,000", "1000"),
    ],
)
def test_math_answer_normalizer(raw: str, normal: str) -> None:
    assert normalize_math_answer(raw) == normal


async def test_clustering_uses_equivalence_after_normalization(sandbox) -> None:
    answers = ["1/2", "0.5", "\\frac{1}{2}", "0.50", "2", None, "答案是 2"]
    clusters = await cluster_answers(answers, sandbox.equivalent)
    assert clusters == [[0, 1, 2, 3], [4, 6], [5]]
    # clusters beat a single lucky outlier: three weak "1/2"s outweigh one strong "2"
    assert select_by_clusters(clusters, [0.5, 0.5, 0.5, 0.4, 0.9, 0.0, 0.0]) == 0


async def test_bon_mav_end_to_end_with_scripted_verifiers() -> None:
    def judge(name: str) -> ScriptedClient:
        # approves any solution that ends in 19/12
        return ScriptedClient(
            name,
            [
                lambda messages: (
                    "FINAL VERIFICATION ANSWER: "
                    + str("19/12" in messages[-1].content.split("INSTRUCTIONS")[0])
                )
            ],
        )

    verifiers = [
        AspectVerifier(judge(f"m{i}"), ASPECTS["general_correctness:direct_approval"])
        for i in range(3)
    ]
    result = await bon_mav("3/4 + 5/6", ["8/10", "19/12", "19/12 again"], verifiers)
    assert result.index == 1 and result.scores == [0.0, 1.0, 1.0]


def labelled(correct, *rows) -> LabelledProblem:
    return LabelledProblem(correct=correct, approvals=list(rows))


PROBLEMS = [
    # "sharp" approves exactly the correct candidates; "yes" approves all; "no" none;
    # "noisy" approves the wrong one.
    labelled(
        [False, True],
        {"sharp": False, "yes": True, "no": False, "noisy": True},
        {"sharp": True, "yes": True, "no": False, "noisy": False},
    ),
    labelled(
        [True, False],
        {"sharp": True, "yes": True, "no": False, "noisy": False},
        {"sharp": False, "yes": True, "no": False, "noisy": True},
    ),
    labelled(
        [False, False, True],
        {"sharp": False, "yes": True, "no": False, "noisy": True},
        {"sharp": False, "yes": True, "no": False, "noisy": True},
        {"sharp": True, "yes": True, "no": False, "noisy": False},
    ),
]


def test_verifier_engineering_picks_the_subset_that_selects_best() -> None:
    assert selection_accuracy(PROBLEMS, ["yes"]) == pytest.approx(1 / 3)
    subset, accuracy = engineer_verifiers(PROBLEMS, ["yes", "no", "noisy", "sharp"])
    assert (subset, accuracy) == (["sharp"], 1.0)
    greedy, greedy_accuracy = engineer_verifiers(
        PROBLEMS, ["yes", "no", "noisy", "sharp"], exhaustive_limit=2
    )
    assert greedy_accuracy == 1.0 and "sharp" in greedy


def test_learned_weights_trust_informative_verifiers() -> None:
    samples = [
        (row, problem.correct[i]) for problem in PROBLEMS for i, row in enumerate(problem.approvals)
    ]
    weights = VerifierWeights.fit(samples)
    assert weights.approve["sharp"] > 1 and weights.reject["sharp"] < -1
    assert abs(weights.approve["yes"]) < 0.3  # approving everything says nothing
    assert weights.approve["noisy"] < 0  # its approval is evidence against
    assert (
        weights.probability({"sharp": True}) > 0.75 > 0.25 > weights.probability({"sharp": False})
    )
    assert weights.probability({"unknown": True}) == pytest.approx(
        weights.probability({})
    )  # unknown verifiers carry no weight


def test_weights_round_trip(tmp_path) -> None:
    weights = VerifierWeights.fit([({"a": True}, True), ({"a": False}, False)])
    weights.save(tmp_path / "w.json")
    assert VerifierWeights.load(tmp_path / "w.json") == weights
