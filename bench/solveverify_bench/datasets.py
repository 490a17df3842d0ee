"""Benchmark datasets: grounded QA with cited evidence (the design's schema) and math candidates.

Grounded QA: id, question, gold_answer, evidence[] {evidence_id, title?, text, source?},
gold_citations[] {evidence_id, span?}, and optionally candidates[] {answer, label, source?}:
answers with their error label (supported / unsupported / wrong_citation / omission).
Math: id, problem, gold_answer, candidates[] {source, solution, correct?}. A malformed record
is reported with its file and line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError


class Evidence(BaseModel):
    evidence_id: str
    title: str | None = None
    text: str
    source: str | None = None


class GoldCitation(BaseModel):
    evidence_id: str
    span: str | None = None


ErrorLabel = Literal["supported", "unsupported", "wrong_citation", "omission"]


class GroundedCandidate(BaseModel):
    answer: str
    label: ErrorLabel
    source: str | None = None


class GroundedExample(BaseModel):
    kind: Literal["grounded"] = "grounded"
    id: str
    question: str
    gold_answer: str
    evidence: list[Evidence] = Field(min_length=1)
    gold_citations: list[GoldCitation] = []
    candidates: list[GroundedCandidate] = []


class Candidate(BaseModel):
    source: str
    solution: str
    correct: bool | None = None  # optional label; otherwise compared with gold_answer


class MathExample(BaseModel):
    kind: Literal["math"] = "math"
    id: str
    problem: str
    gold_answer: str
    candidates: list[Candidate] = Field(min_length=1)


Example = GroundedExample | MathExample


class DatasetError(ValueError):
    pass


def load_dataset(path: Path, max_examples: int | None = None) -> list[Example]:
    examples: list[Example] = []
    seen: set[str] = set()
    with path.open(encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, 1):
            if not line.strip():
                continue
            where = f"{path}:{line_no}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{where}: not JSON ({exc.msg})") from exc
            if not isinstance(record, dict):
                raise DatasetError(f"{where}: a record must be a JSON object")
            model = MathExample if "problem" in record else GroundedExample
            try:
                example = model.model_validate(record)
            except ValidationError as exc:
                problems = "; ".join(
                    f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()
                )
                raise DatasetError(f"{where}: {problems}") from exc
            if example.id in seen:
                raise DatasetError(f"{where}: duplicate id {example.id!r}")
            seen.add(example.id)
            examples.append(example)
            if max_examples is not None and len(examples) >= max_examples:
                break
    if not examples:
        raise DatasetError(f"{path}: no records")
    return examples
