"""The deep evaluation stored in solutions.deep_evaluation (design-notes §4: five scored
dimensions and their weighted overall)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


def _score(what: str) -> Any:
    return Field(ge=0.0, le=1.0, description=f"{what}, in [0, 1].", examples=[0.9])


class DeepEvaluation(BaseModel):
    """The background deep evaluation of a stored solution (design-notes §4)."""

    correctness: float = _score("Is the answer right")
    completeness: float = _score("Are all steps there")
    clarity: float = _score("Is it clearly explained")
    pedagogy: float = _score("Does it teach")
    format: float = _score("Is it well formatted")
    overall: float = _score("Weighted average of the five")
    improvement_suggestions: str | None = Field(
        default=None, description="How the solution could be better.", examples=["Show the check."]
    )
    better_approach: str | None = Field(
        default=None, description="A better method, if any.", examples=[None]
    )
    provider: str | None = Field(
        default=None, description="Who evaluated (operators).", examples=["gemini"]
    )
    model: str | None = Field(
        default=None, description="Which model evaluated (operators).", examples=["flash"]
    )
