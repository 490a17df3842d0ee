"""Request-path self-consistency ("samples:N"): N more solves, clustered by equivalence."""

from __future__ import annotations

from app.pipeline.evidence import EvidencePlan, evidence_plan
from app.pipeline.graph import run_pipeline
from app.pipeline.state import SolveState
from app.settings import VerifySettings
from tests.fixtures.providers import solution_json, verdict_json, verifier
from tests.fixtures.scripted import ScriptedClient

WORD_PROBLEM = "Tom has 12 apples and buys 3 bags of 4 apples. How many apples does he have now?"


def sampler(*answers: str) -> ScriptedClient:
    """The solver: its first reply is the answer, the rest are the samples."""
    return ScriptedClient(
        "tom", [solution_json(a) for a in answers], capabilities=frozenset({"solve", "verify"})
    )


def settings(spec: str, **more: str) -> VerifySettings:
    return VerifySettings(evidence={"*": spec, **more}, calibration_path=None)


def test_the_plan_reads_samples_from_the_most_specific_key() -> None:
    verify = settings("quick", math="samples:4", **{"math:easy": "quick"})
    assert evidence_plan(verify, "math", "hard") == EvidencePlan(samples=4)
    assert evidence_plan(verify, "math", "easy") == EvidencePlan()
    assert evidence_plan(verify, "physics", "hard") == EvidencePlan()
    assert evidence_plan(settings("samples"), "math", "hard").samples == 5


async def test_agreeing_samples_verify_and_every_call_is_counted(graph, make_context) -> None:
    # 24.0 is clustered with 24 by the sandbox's equivalence: 3 of 4 samples agree.
    solver = sampler("24", "24", "24.0", "24", "25")
    judge = verifier("judge", verdict_json(True, 0.9, "24"))
    ctx = make_context(solver, judge, symbolic=False, verify=settings("samples:4"))
    state = await run_pipeline(graph, ctx, SolveState(problem_text=WORD_PROBLEM))
    (sampled,) = [v for v in state.attempts[0].verdicts if v.verifier_id == "tom:self_consistency"]
    assert (sampled.verdict, sampled.score) == ("approve", 0.75)
    assert state.verify_confidence == (0.9 + 0.75) / 2
    assert state.verification_status == "verified"
    assert len(solver.calls) == 5 and state.model_calls == 1 + 1 + 4  # solve, verify, samples


async def test_disagreeing_samples_outvote_a_confident_verifier(graph, make_context) -> None:
    solver = sampler("24", "25", "25", "24", "25")
    judge = verifier("judge", verdict_json(True, 0.95, "24"))
    ctx = make_context(solver, judge, symbolic=False, verify=settings("samples:4"))
    state = await run_pipeline(graph, ctx, SolveState(problem_text=WORD_PROBLEM))
    (sampled,) = [v for v in state.attempts[0].verdicts if v.verifier_id == "tom:self_consistency"]
    # 25 holds 3 of the 5 candidates: it is the best-supported answer, returned instead of
    # attempt 1's 24 (selection), with 2 of the other 4 candidates agreeing with it.
    assert state.solution is not None and state.solution.final_answer == "25"
    assert state.attempts[0].final_answer == "25"
    assert sampled.verdict == "reject" and sampled.score == 0.5
    assert state.verification_status != "verified"


async def test_an_answer_not_worked_out_stays_unverified(graph, make_context) -> None:
    """The problem copied back is held by the symbolic check (`conclusive`): neither agreeing
    samples nor a confident verifier make it verified."""
    solver = sampler(*["3/4 + 5/6"] * 5)
    judge = verifier("judge", verdict_json(True, 0.99, "3/4 + 5/6"))
    ctx = make_context(solver, judge, symbolic=False, verify=settings("samples:4"))
    state = await run_pipeline(graph, ctx, SolveState(problem_text="3/4 + 5/6 = ?"))
    assert state.solution is not None and state.solution.final_answer == "3/4 + 5/6"
    assert state.verification_status != "verified"
    assert any(v.conclusive for a in state.attempts for v in a.verdicts)
