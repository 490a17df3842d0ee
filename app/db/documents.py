"""Typed JSON documents stored in columns (JSONB on Postgres, JSON on SQLite).

They belong to storage: the ORM models read and write them without depending on the model
layer's output schemas or on the public API's schemas (which re-export what they show).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

Score = Field(ge=0.0, le=1.0)


class StoredStep(BaseModel):
    """One step of a stored solution: a sentence and, optionally, bare LaTeX."""

    description: str
    latex: str | None = None


class DeepEvaluation(BaseModel):
    """The deep evaluation in solutions.deep_evaluation (design-notes §4: five scored
    dimensions and their weighted overall)."""

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
