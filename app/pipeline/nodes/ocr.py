"""OCR: read the problem text off the uploaded image (the engine runs off the event loop)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from app.pipeline.context import PipelineContext
from app.pipeline.state import SolveState


async def ocr(state: SolveState, runtime: Runtime[PipelineContext]) -> dict[str, Any]:
    if state.image is None:
        return {}
    reader = runtime.context.ocr
    if reader is None:
        return {"error": "ocr_unavailable"}
    result = await reader.read(state.image)
    if not result.text.strip():
        return {"error": "no_text_found", "ocr_confidence": result.confidence}
    text = f"{state.problem_text}\n{result.text}".strip() if state.problem_text else result.text
    return {"problem_text": text, "ocr_confidence": result.confidence}
