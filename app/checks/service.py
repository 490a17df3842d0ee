"""Check my answer: a student's answer to a problem, judged by the checks a scan uses.

No solving: the programmatic check, then the problem bank's ground truth, then (only when
an admitted model verifier is configured) an independent model, through the same validator
as QUICK_VERIFY. The verdict is `correct` / `incorrect` only when the deciding check is sure;
anything else is `unknown`. Used by POST /v1/checks and `solveverify check`.

With the student's worked steps, each step is checked too (app.checks.steps): the
response adds the first wrong step and a verdict per step. The API stores such a check with
every verdict behind it (`store_check`, tenant-scoped; `erase_check` deletes it); a check
without steps, and the CLI's checks, are not stored.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from app.analysis.classifier import detect_language
from app.checks.repository import CheckRepository
from app.checks.schemas import MAX_STEP_CHARS, MAX_STEPS, CheckResponse, StepCheck
from app.checks.steps import WorkCheck, check_work
from app.db.models import Check, CheckVerdict
from app.llm.hedges import hedges
from app.pipeline.context import PipelineContext
from app.pipeline.nodes.retrieve import similar_problems
from app.pipeline.verification_stages import validation_stages
from app.retrieval.bank_answer import known_answer
from app.scans.service import UnreadableInput
from app.settings import Settings
from app.verification.admission import admitted_verifiers
from app.verification.combiner import only_a_proof
from app.verification.validator import ValidationOutcome, validate
from app.verification.verdict import Verdict

# Shown with the model verifier's prompt, where a scan shows the solver's steps.
NO_STEPS = "(the student gave only the final answer)"


class CheckServices(Protocol):
    """What a check uses: the process's pipeline context (OCR, the bank, the verifiers and
    their thresholds) and the settings (the input limits). The server's Resources has both."""

    @property
    def pipeline(self) -> PipelineContext: ...

    @property
    def settings(self) -> Settings: ...


@dataclass(slots=True)
class CheckedAnswer:
    """A check's response with what it was about and every verdict behind it."""

    response: CheckResponse
    problem: str
    answer: str
    steps: list[str] | None
    answer_verdicts: list[Verdict]
    work: WorkCheck | None


async def check_answer(
    services: CheckServices,
    *,
    answer: str,
    problem: str | None = None,
    image: bytes | None = None,
    steps: list[str] | None = None,
) -> CheckResponse:
    """Raises UnreadableInput (as a scan does) when there is no problem to check against."""
    checked = await checked_answer(
        services, answer=answer, problem=problem, image=image, steps=steps
    )
    return checked.response


async def checked_answer(
    services: CheckServices,
    *,
    answer: str,
    problem: str | None = None,
    image: bytes | None = None,
    steps: list[str] | None = None,
) -> CheckedAnswer:
    """`check_answer` with its evidence (what the API stores)."""
    text, unread = await _problem_text(services, problem, image)
    ctx = services.pipeline
    if unread is not None:
        return _incomplete_reading(text, answer, steps, unread)
    verifier = admitted_verifier(ctx)
    stages = validation_stages(
        ctx,
        text,
        answer,
        ground_truth=await _bank_answer(ctx, text),
        verifier=verifier,
        steps="\n".join(steps) if steps else NO_STEPS,
        language=detect_language(text),
    )
    if not steps:
        outcome = await validate(stages, ctx.thresholds)
        response = no_guess(check_response(outcome, ctx), answer, text)
        return CheckedAnswer(response, text, answer, None, outcome.verdicts, None)
    outcome, work = await asyncio.gather(
        validate(stages, ctx.thresholds), check_work(ctx, text, steps, verifier)
    )
    response = withheld(no_guess(check_response(outcome, ctx), answer, text))
    response.first_error_step = work.first_error_step
    response.first_flagged_step = work.first_flagged_step
    response.steps = work.steps
    return CheckedAnswer(response, text, answer, list(steps), outcome.verdicts, work)


async def store_check(
    session: AsyncSession, tenant: str | None, checked: CheckedAnswer, user_id: str | None = None
) -> uuid.UUID:
    """Store a check of worked steps with every verdict behind it; returns its id. Only a
    check with steps is stored (`checked.work`); `user_id`: the student token's user."""
    work = checked.work
    assert work is not None and checked.steps is not None
    response = checked.response
    check = Check(
        id=uuid.uuid4(),
        tenant=tenant,
        user_id=user_id,
        problem_text=checked.problem,
        answer=checked.answer,
        steps=list(checked.steps),
        language=work.language,
        verdict=response.verdict,
        method=response.method,
        confidence=response.confidence,
        first_error_step=work.first_error_step,
        first_flagged_step=work.first_flagged_step,
        step_checks=[s.model_dump(mode="json") for s in work.steps],
    )
    rows = [_verdict_row(check.id, "answer", None, v) for v in checked.answer_verdicts]
    rows += [_verdict_row(check.id, "work", e.step, e.verdict) for e in work.evidence]
    await CheckRepository(session).add(check, rows)
    return check.id


def _verdict_row(check_id: uuid.UUID, judged: str, step: int | None, v: Verdict) -> CheckVerdict:
    return CheckVerdict(
        id=uuid.uuid4(),
        check_id=check_id,
        judged=judged,
        step=step,
        method=v.method,
        verifier_id=v.verifier_id[:128],
        verdict=v.verdict,
        score=v.score,
        rationale=v.rationale,
        latency_ms=v.latency_ms,
        tokens=v.tokens,
    )


async def erase_check(
    session: AsyncSession, check_id: uuid.UUID, tenant: str | None, user_id: str | None = None
) -> bool:
    """Delete the tenant's check (`user_id`'s only, when given) with its verdicts; False when
    there is no such check."""
    return await CheckRepository(session).erase(check_id, tenant, user_id=user_id)


async def read_work(services: CheckServices, image: bytes) -> list[str]:
    """A photo of the student's work as steps, one per line in reading order. A reading that
    does not explain all the ink is refused: a lost line would shift every step's index."""
    if services.pipeline.ocr is None:
        raise UnreadableInput("ocr_unavailable", "this server cannot read images")
    read = await services.pipeline.ocr.read(image)
    if read.unread:
        raise UnreadableInput(
            "incomplete_reading", f"the photo of the work could not be read whole: {read.unread}"
        )
    steps = [line.strip() for line in read.text.splitlines() if line.strip()]
    if not steps:
        raise UnreadableInput("no_text_found", "no text was found in the image")
    if len(steps) > MAX_STEPS or any(len(step) > MAX_STEP_CHARS for step in steps):
        raise UnreadableInput(
            "too_many_steps", f"the photo shows more than {MAX_STEPS} steps or a step too long"
        )
    return steps


async def _problem_text(
    services: CheckServices, problem: str | None, image: bytes | None
) -> tuple[str, str | None]:
    """The problem's text, and why the photo of it was read only in part (None: it was read
    whole, or there is no photo)."""
    text = (problem or "").strip()
    unread: str | None = None
    if image is not None:
        if services.pipeline.ocr is None:
            raise UnreadableInput("ocr_unavailable", "this server cannot read images")
        read = await services.pipeline.ocr.read(image)
        text = f"{text}\n{read.text}".strip()
        unread = read.unread
    if not text:
        raise UnreadableInput("no_text_found", "no text was found in the image")
    limit = services.settings.input.max_text_chars
    if len(text) > limit:
        raise UnreadableInput("text_too_long", f"the problem is longer than {limit} characters")
    return text, unread


def _incomplete_reading(
    text: str, answer: str, steps: list[str] | None, unread: str
) -> CheckedAnswer:
    """A photo of the problem read only in part: what was read is another problem (x_1^2 = 4
    read as x = 4), so nothing is judged against it: `unknown`, each step `unchecked`."""
    response = CheckResponse(
        verdict="unknown",
        method=None,
        detail=f"incomplete_reading: the photo of the problem could not be read whole: {unread}",
        confidence=None,
    )
    if not steps:
        return CheckedAnswer(response, text, answer, None, [], None)
    checks = [
        StepCheck(index=i, text=step, verdict="unchecked", method=None, explanation=None)
        for i, step in enumerate(steps)
    ]
    work = WorkCheck(None, None, checks, detect_language(text + "\n" + "\n".join(steps)))
    response.first_error_step = None
    response.first_flagged_step = None
    response.steps = work.steps
    return CheckedAnswer(response, text, answer, list(steps), [], work)


async def _bank_answer(ctx: PipelineContext, text: str) -> str | None:
    """The known answer of this very problem in the bank (as RETRIEVE finds ground truth)."""
    return known_answer(await similar_problems(ctx, text) or [])


def admitted_verifier(ctx: PipelineContext) -> str | None:
    """The first verify-capable provider whose model is admitted to grant approval (the
    panels' admission rule, app/verification/admission.py; the student wrote the steps, so no
    provider is excluded). It answers the check and critiques the steps."""
    verify = ctx.verify
    admitted = admitted_verifiers(
        ctx.registry,
        exclude=None,
        measured_auroc=verify.verifier_auroc,
        min_auroc=verify.min_verifier_auroc,
    )
    return admitted[0] if admitted else None


def no_guess(response: CheckResponse, answer: str, problem: str) -> CheckResponse:
    """A hedge ("12 or 13", "maybe 12", "不是56") is never `correct`: a verifier that echoes it
    agrees with both halves at once, and the sandbox may read the value in it and not the
    words around it. It may still be `incorrect` (both halves wrong). The sandbox's `correct`
    on an approximation stands ("≈ 333.33" for 1000/3 is read as rounded)."""
    if response.verdict != "correct":
        return response
    if hedges(answer, problem, approximations=response.method == "llm"):
        why = "the answer hedges between values; a guess is not checked as right"
    elif response.method == "llm" and (proof_only := only_a_proof(answer, problem)):
        why = proof_only  # "circa 12", "12 at minimum", a figure as code: an echo agrees
    else:
        return response
    return CheckResponse(verdict="unknown", method=response.method, detail=why, confidence=None)


def withheld(response: CheckResponse) -> CheckResponse:
    """With the student's steps the check points at the mistake and must not give the answer
    away: unless the answer is right, its right value (`expected`, and the detail that may
    state it: "the exact value is 15", a verifier's "independent answer '36'") is withheld."""
    if response.verdict == "correct":
        return response
    if response.verdict == "incorrect":
        detail = f"{response.method} check: the answer is not right"
    elif response.method is not None:
        detail = f"{response.method} check: not decided"
    else:
        detail = "no check could decide"
    return response.model_copy(update={"expected": None, "detail": f"{detail} ({WITHHELD})"})


WITHHELD = "the reasons, which may state the right value, are withheld while the steps are checked"


def check_response(outcome: ValidationOutcome, ctx: PipelineContext) -> CheckResponse:
    """approve → correct, reject → incorrect, both only at the method's threshold; else unknown."""
    if outcome.passed is None or outcome.primary_method is None:
        return CheckResponse(
            verdict="unknown",
            method=None,
            detail=outcome.error or "no check could decide",
            confidence=None,
        )
    decisive = outcome.verdicts[-1]
    assert decisive.score is not None
    threshold = ctx.thresholds.for_method(decisive.method)
    # A model's own answer is not a known answer; the sandbox's and the bank's are.
    expected = decisive.independent_answer if decisive.method != "llm" else None
    if decisive.verdict == "approve" and outcome.passed:
        verdict, confidence = "correct", decisive.score
    elif decisive.verdict == "reject" and 1.0 - decisive.score >= threshold:
        verdict, confidence = "incorrect", 1.0 - decisive.score
    else:
        return CheckResponse(
            verdict="unknown",
            method=decisive.method,
            detail=f"not sure enough ({decisive.verdict}, score {decisive.score:.2f}): "
            + decisive.rationale,
            confidence=None,
        )
    return CheckResponse(
        verdict=verdict,
        method=decisive.method,
        expected=expected,
        detail=decisive.rationale,
        confidence=round(confidence, 4),
    )
