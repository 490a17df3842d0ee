"""Submit a scan: run the pipeline, add its rows and stage its follow-up jobs. The caller owns
the transaction (`app.resources.unit_of_work`): it commits and wakes the outbox relay."""

from __future__ import annotations

import hashlib
import random
import uuid

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.documents import StoredStep
from app.db.models import Scan, Solution, VerificationRecord
from app.db.repositories.outbox import OutboxRepository
from app.db.repositories.scans import ScanRepository
from app.pipeline.graph import run_pipeline
from app.pipeline.state import SolveState
from app.resources import Resources
from app.schemas.scans import ScanOut, SolutionDetail, SolutionResponse, Step, VerificationOut
from app.verification.spot_check_sampling import draw_spot_check

_rng = random.Random()


class UnreadableInput(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


_UNREADABLE = {
    "no_text_found": "no text was found in the image",
    "ocr_unavailable": "this server cannot read images",
}


async def submit_scan(
    services: Resources,
    session: AsyncSession,
    *,
    text: str | None = None,
    image: bytes | None = None,
    subject: str | None = None,
    grade: str | None = None,
    tenant: str | None = None,
) -> tuple[Scan, Solution]:
    state = SolveState(problem_text=text or "", image=image, subject_hint=subject, grade_hint=grade)
    result = await run_pipeline(services.graph, services.pipeline, state)
    if result.error or not result.problem_text.strip():
        code = result.error or "no_text_found"
        raise UnreadableInput(code, _UNREADABLE.get(code, code))
    scan, solution, verifications = _rows(result, image)
    scan.tenant = tenant
    ScanRepository(session).add_all(scan, solution, verifications)
    # The follow-up jobs are written in the scan's own transaction (the outbox): once it is
    # committed the evaluation cannot be lost, even if Redis is down right now.
    await stage_followups(services, session, solution)
    # Flushed here, not at the caller's commit: column defaults (created_at) fill in for the
    # response, and a database error surfaces inside the use case.
    await session.flush()
    return scan, solution


def _rows(
    result: SolveState, image: bytes | None
) -> tuple[Scan, Solution, list[VerificationRecord]]:
    # Ids are chosen here, not at flush, so the outbox can name the solution before the commit.
    scan = Scan(
        id=uuid.uuid4(),
        source="image" if image is not None else "text",
        problem_text=result.problem_text,
        image_sha256=hashlib.sha256(image).hexdigest() if image is not None else None,
        image_bytes=len(image) if image is not None else None,
        ocr_confidence=result.ocr_confidence,
        subject=result.subject,
        grade_band=result.grade_band,
        difficulty=result.difficulty,
        language=result.language,
        topics=result.topics,
    )
    solution = Solution(
        id=uuid.uuid4(),
        scan=scan,
        provider=result.provider,
        model=result.model,
        final_answer=result.solution.final_answer if result.solution else None,
        steps=[StoredStep(**s.model_dump()) for s in result.solution.steps]
        if result.solution
        else [],
        verification_status=result.verification_status,
        verification_confidence=result.verify_confidence,
        confidence_calibrated=result.verify_calibrated,
        caution_reason=result.caution_reason,
        independent_answer=result.independent_answer,
        ground_truth=result.ground_truth,
        attempts=result.attempt_count,
        providers_tried=result.provider_history,
        knowledge_points=result.knowledge_points,
        hint=result.hint,
        latency_ms=sum(a.latency_ms for a in result.attempts),
    )
    verifications = [
        VerificationRecord.from_verdict(
            solution,
            v,
            tier="quick",
            attempt=attempt.number,
            answer_provider=attempt.provider,
            answer=attempt.final_answer,
        )
        for attempt in result.attempts
        for v in attempt.verdicts
    ]
    return scan, solution, verifications


async def stage_followups(services: Resources, session: AsyncSession, solution: Solution) -> None:
    """Write the background jobs into the outbox, in the caller's transaction: deep
    evaluation, the tier-2 consensus check, and a tier-3 spot check when the sampler draws
    it. The outbox relay hands them to the queue once committed (at once, or when Redis
    is back)."""
    verify = services.settings.verify
    jobs: list[tuple[str, tuple[str, ...]]] = [
        ("deep_evaluate", (str(solution.id),)),
        ("consensus_check", (str(solution.id),)),
    ]
    uncertain = solution.verification_status != "verified"
    draw, reason = draw_spot_check(
        _rng,
        subject=solution.scan.subject,
        confidence=solution.verification_confidence,
        provider_results=0
        if uncertain
        else await services.provider_counts.get(session, solution.provider),
        uncertain=uncertain,
        high_stakes=verify.high_stakes_subjects,
    )
    if draw:
        jobs.append(("spot_check", (str(solution.id), reason)))
    outbox = OutboxRepository(session)
    for task, args in jobs:
        outbox.stage(task, args, job_id=f"{task}:{solution.id}")


def solution_response(scan: Scan, solution: Solution) -> SolutionResponse:
    return SolutionResponse(**_solution_fields(scan, solution))


def solution_detail(solution: Solution) -> SolutionDetail:
    return SolutionDetail(
        **_solution_fields(solution.scan, solution),
        verifications=[VerificationOut.model_validate(v) for v in solution.verifications],
        deep_evaluation=solution.deep_evaluation,
    )


def scan_out(scan: Scan) -> ScanOut:
    latest = scan.solutions[-1] if scan.solutions else None
    return ScanOut(
        id=scan.id,
        created_at=scan.created_at,
        source=scan.source,  # type: ignore[arg-type]
        problem_text=scan.problem_text,
        ocr_confidence=scan.ocr_confidence,
        subject=scan.subject,
        grade_band=scan.grade_band,
        difficulty=scan.difficulty,
        language=scan.language,
        solution=solution_response(scan, latest) if latest else None,
    )


def _solution_fields(scan: Scan, solution: Solution) -> dict:
    return {
        "scan_id": scan.id,
        "solution_id": solution.id,
        "created_at": solution.created_at,
        "problem_text": scan.problem_text,
        "subject": scan.subject,
        "grade_band": scan.grade_band,
        "difficulty": scan.difficulty,
        "language": scan.language,
        "final_answer": solution.final_answer,
        "steps": [
            Step(index=i, description=s.description, latex=s.latex)
            for i, s in enumerate(solution.steps, 1)
        ],
        "verification_status": solution.verification_status,
        "verification_confidence": solution.verification_confidence,
        "verification_confidence_calibrated": solution.confidence_calibrated,
        "caution_reason": solution.caution_reason,
        "attempts": solution.attempts,
        "provider": solution.provider,
        "model": solution.model,
        "knowledge_points": solution.knowledge_points,
        "hint": solution.hint,
    }
