"""OCR: read the problem text off the uploaded image (the engine runs off the event loop).

A reading that does not explain the whole picture (a fraction the line reader dropped, ink
outside every box) ends the run here: solving what was read would prove a different problem.
The scan is then `unverified` with the reason, and shows what was read so the student can
correct it; with nothing read at all it is `no_text_found`."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from app.pipeline.context import PipelineContext
from app.pipeline.state import SolveState

_CJK = re.compile(r"[\u3400-\u9fff]")


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
    update: dict[str, Any] = {
        "problem_text": text,
        "ocr_confidence": result.confidence,
        "ocr_latex": result.latex,
    }
    if result.unread:
        # ANALYZE does not run: the reason is written in the language of what was read.
        update |= {"ocr_unread": result.unread, "language": "zh" if _CJK.search(text) else "en"}
    return update
