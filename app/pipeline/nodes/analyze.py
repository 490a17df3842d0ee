"""ANALYZE: subject, grade band, difficulty, language and topics.

Each label comes from the first source that is sure of it: the caller's hint, then a model's
label that validates against the API's values (when a model is configured), then the
rule-based classifier. Language and topic ids are always the rules' (deterministic: routing
and analytics group by them). Without a model, no call is made at all.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from app.analysis.classifier import Analysis, band_from_hint
from app.analysis.classifier import analyze as classify
from app.llm.outputs import AnalysisOutput, schema_of
from app.pipeline.context import PipelineContext
from app.pipeline.labels import ModelAnalysis, ask_for_labels, labelling_client, read_analysis
from app.pipeline.nodes.enrich import ask_model
from app.pipeline.prompts import analyze as prompts
from app.pipeline.state import SolveState


def merge(state: SolveState, model: ModelAnalysis, rules: Analysis) -> dict[str, Any]:
    """Hints win, then the model's valid labels, then the rules'."""
    return {
        "subject": state.subject_hint or model.subject or rules.subject,
        "grade_band": band_from_hint(state.grade_hint) or model.grade_band or rules.grade_band,
        "difficulty": model.difficulty or rules.difficulty,
        "language": rules.language,
        "topics": rules.topics,
    }


async def analyze(state: SolveState, runtime: Runtime[PipelineContext]) -> dict[str, Any]:
    ctx = runtime.context
    rules = classify(state.problem_text, state.subject_hint, state.grade_hint)
    client = labelling_client(ctx)
    if client is None:
        return merge(state, ModelAnalysis(), rules)
    data = await ask_for_labels(
        client,
        prompts.build(state.problem_text, rules.language),
        schema_of(AnalysisOutput),
        ctx.verify.label_timeout_s,
    )
    model = read_analysis(data, rules.language)
    update = merge(state, model, rules)
    update["model_calls"] = 1
    if ctx.calls is not None:  # ENRICH's labels need only these: ask now, read them at ENRICH
        ctx.calls.enrichment = ask_model(
            ctx, state.problem_text, update["language"], update["subject"], update["grade_band"]
        )
    if model.knowledge_points:  # ENRICH's own call may replace them
        update["knowledge_points"] = model.knowledge_points
    return update
