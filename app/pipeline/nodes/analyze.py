"""ANALYZE: subject, grade band, difficulty, language."""

from __future__ import annotations

from typing import Any

from app.analysis.classifier import analyze as classify
from app.pipeline.state import SolveState


async def analyze(state: SolveState) -> dict[str, Any]:
    result = classify(state.problem_text, state.subject_hint, state.grade_hint)
    return {
        "subject": result.subject,
        "grade_band": result.grade_band,
        "difficulty": result.difficulty,
        "language": result.language,
        "topics": result.topics,
    }
