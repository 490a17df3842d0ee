"""The structured outputs the pipeline asks any model for (the JSON schemas of its prompts)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class SolveStep(BaseModel):
    description: str
    latex: str | None = None


class SolveOutput(BaseModel):
    """What SOLVE expects back from a model."""

    steps: list[SolveStep] = Field(default_factory=list)
    final_answer: str


class QuickVerifyOutput(BaseModel):
    """The seed's quick_verify JSON (multi-model-evaluation-design.md §3)."""

    independent_answer: str | None = None
    is_correct: bool | None = None
    error_description: str | None = None
    confidence: float | None = None


def schema_of(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema()
