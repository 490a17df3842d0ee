"""The structured outputs the pipeline asks any model for (the JSON schemas of its prompts).

The schema sent to a model bounds every string and list (`schema_of`): providers with
constrained decoding (llama.cpp grammars, strict JSON schemas) then always close the object
within the token budget instead of looping through steps until the reply is cut off mid-JSON.
The pydantic models themselves stay unbounded, so a stored solution always loads back.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.schemas.common import Subject

MAX_ITEMS = 8
MAX_STRING = 400


class SolveStep(BaseModel):
    description: str
    latex: str | None = None


class SolveOutput(BaseModel):
    """What SOLVE expects back from a model ("final_answer": 12, a JSON number, is "12")."""

    model_config = ConfigDict(coerce_numbers_to_str=True)

    steps: list[SolveStep] = []
    final_answer: str


class QuickVerifyOutput(BaseModel):
    """the design's quick_verify JSON (design-notes §3)."""

    independent_answer: str | None = None
    is_correct: bool | None = None
    error_description: str | None = None
    confidence: float | None = None


GradeBand = Literal["primary", "middle", "high"]
Difficulty = Literal["easy", "medium", "hard"]


class AnalysisOutput(BaseModel):
    """ANALYZE's labels from a model (the schema sent; replies are read field by field, so one
    invalid label drops only itself). Every field may be left out: no label beats a wrong one."""

    subject: Subject | None = None
    grade_band: GradeBand | None = None
    difficulty: Difficulty | None = None
    knowledge_points: list[str] = Field(
        default=[], description="short labels (2-6 words), in the problem's language"
    )


class EnrichmentOutput(BaseModel):
    """ENRICH's knowledge points and hint from a model, in the scan's language."""

    knowledge_points: list[str] = Field(
        default=[], description="short labels (2-6 words), in the problem's language"
    )
    hint: str | None = Field(
        default=None, description="one nudge towards the first step; never the answer"
    )


class ReadingOutput(BaseModel):
    """A photo's problem as a vision model read it (the second reader, app/pipeline/reading.py)."""

    problem: str = Field(
        description="the problem exactly as printed: words as text, mathematics in LaTeX",
        json_schema_extra={"maxLength": 2000},
    )
    legible: bool = Field(
        default=True, description="false when any part of the problem cannot be read for sure"
    )


def _bound(node: Any) -> Any:
    if isinstance(node, dict):
        bounded = {key: _bound(value) for key, value in node.items()}
        if bounded.get("type") == "string":
            bounded.setdefault("maxLength", MAX_STRING)
        if bounded.get("type") == "array":
            bounded.setdefault("maxItems", MAX_ITEMS)
        return bounded
    if isinstance(node, list):
        return [_bound(item) for item in node]
    return node


@cache
def schema_of(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema with bounded strings and lists, to send to a provider.

    Built once per model (pydantic's schema generation cost more than a whole SDK call per
    request); shared, so callers treat it as read-only."""
    schema: dict[str, Any] = _bound(model.model_json_schema())
    return schema
