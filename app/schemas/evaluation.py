"""The deep evaluation stored in solutions.deep_evaluation (design-notes §4: five scored
dimensions and their weighted overall)."""

from __future__ import annotations

from pydantic import BaseModel, Field

Score = Field(ge=0.0, le=1.0)


class DeepEvaluation(BaseModel):
    correctness: float = Score
    completeness: float = Score
    clarity: float = Score
    pedagogy: float = Score
    format: float = Score
    overall: float = Score
    improvement_suggestions: str | None = None
    better_approach: str | None = None
    provider: str | None = None
    model: str | None = None
