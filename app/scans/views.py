"""Rows → the public contract: localized caution reasons, never a vendor in a student's view."""

from __future__ import annotations

from typing import Any

from app.db.models import Scan, Solution
from app.ocr.latex import to_latex
from app.pipeline.prompts.localized import Language, caution_message
from app.scans.schemas import ScanOut, SolutionResponse, Step
from app.schemas.common import CautionReason
from app.solutions.evaluation_schemas import DeepEvaluation
from app.solutions.schemas import SolutionDetail, StatusChange, VerificationOut


def _language(scan: Scan) -> Language:
    return "zh" if scan.language == "zh" else "en"


def caution_reason(scan: Scan, solution: Solution) -> CautionReason | None:
    if solution.verification_status == "verified":
        return None
    code = solution.caution_code or ("no_answer" if not solution.final_answer else "not_verified")
    return CautionReason(code=code, message=caution_message(code, _language(scan)))


def solution_response(scan: Scan, solution: Solution) -> SolutionResponse:
    return SolutionResponse(**_solution_fields(scan, solution))


def solution_detail(solution: Solution) -> SolutionDetail:
    history = [StatusChange.model_validate(entry) for entry in solution.status_history or []]
    return SolutionDetail(
        **_solution_fields(solution.scan, solution),
        verifications=[VerificationOut.model_validate(v) for v in solution.verifications],
        # The stored document and the public schema are separate types: convert by value.
        deep_evaluation=DeepEvaluation.model_validate(solution.deep_evaluation.model_dump())
        if solution.deep_evaluation is not None
        else None,
        status_history=history,
    )


def scan_out(scan: Scan) -> ScanOut:
    latest = scan.solutions[-1] if scan.solutions else None
    return ScanOut(
        id=scan.id,
        created_at=scan.created_at,
        state=scan.state,
        failure_code=scan.failure_code,
        user_id=scan.user_id,
        source=scan.source,
        problem_text=scan.problem_text,
        ocr_confidence=scan.ocr_confidence,
        corrects_scan_id=scan.corrects_scan_id,
        subject=scan.subject,
        grade_band=scan.grade_band,
        difficulty=scan.difficulty,
        language=_language(scan),
        solution=solution_response(scan, latest) if latest else None,
    )


def _solution_fields(scan: Scan, solution: Solution) -> dict[str, Any]:
    return {
        "scan_id": scan.id,
        "solution_id": solution.id,
        "created_at": solution.created_at,
        "problem_text": scan.problem_text,
        "ocr_text": scan.problem_text if scan.source == "image" else None,
        "ocr_confidence": scan.ocr_confidence,
        "ocr_latex": to_latex(scan.problem_text) if scan.source == "image" else None,
        "second_reading": scan.second_reading,
        "corrects_scan_id": scan.corrects_scan_id,
        "subject": scan.subject,
        "grade_band": scan.grade_band,
        "difficulty": scan.difficulty,
        "language": _language(scan),
        "final_answer": solution.final_answer,
        "steps": [
            Step(index=i, description=s.description, latex=s.latex)
            for i, s in enumerate(solution.steps, 1)
        ],
        "verification_status": solution.verification_status,
        "verification_confidence": solution.verification_confidence,
        "verification_confidence_calibrated": solution.confidence_calibrated,
        "caution_reason": caution_reason(scan, solution),
        "attempts": solution.attempts,
        "model_calls": solution.model_calls or 0,
        "provider": solution.provider,
        "model": solution.model,
        "knowledge_points": solution.knowledge_points,
        "hint": solution.hint,
    }
