"""OCR: read the problem text off the uploaded image (the engine runs off the event loop).

A reading that does not explain the whole picture (a fraction the line reader dropped, ink
outside every box) ends the run here: solving what was read would prove a different problem.
The scan is then `unverified` with the reason, and shows what was read so the student can
correct it; with nothing read at all it is `no_text_found`.

Where a model that reads images is configured, it reads the photo at the same time (the
second reader, app/pipeline/reading.py). Both readings must be the same problem before
anything is solved; when they are not, the run ends here too (`readings_disagree`). The
model's reading alone is never solved: beside an incomplete OCR reading it is only shown."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from langgraph.runtime import Runtime

from app.pipeline.context import PipelineContext
from app.pipeline.reading import reading_client, readings_agree, second_reading
from app.pipeline.state import SolveState

_CJK = re.compile(r"[\u3400-\u9fff]")


async def ocr(state: SolveState, runtime: Runtime[PipelineContext]) -> dict[str, Any]:
    if state.image is None:
        return {}
    ctx = runtime.context
    reader = ctx.ocr
    if reader is None:
        return {"error": "ocr_unavailable"}
    client = reading_client(ctx)
    second = (
        asyncio.create_task(second_reading(client, state.image, ctx.verify.read_image_timeout_s))
        if client is not None
        else None
    )
    try:
        result = await reader.read(state.image)
        if not result.text.strip():
            # With ink seen but nothing read (`unread`), the photo is to be taken again.
            return {
                "error": "no_text_found",
                "ocr_confidence": result.confidence,
                "ocr_unread": result.unread,
            }
        model_reading = await second if second is not None else None
    finally:
        if second is not None and not second.done():
            second.cancel()  # the OCR failed or read nothing: the model's reading is not needed
    text = f"{state.problem_text}\n{result.text}".strip() if state.problem_text else result.text
    update: dict[str, Any] = {
        "problem_text": text,
        "ocr_confidence": result.confidence,
        "ocr_latex": result.latex,
    }
    if second is not None:
        update |= {"model_calls": 1, "second_reading": model_reading}
    disagree = (
        model_reading is not None
        and not result.unread
        and not await readings_agree(ctx.sandbox, result.text, model_reading)
    )
    if result.unread or disagree:
        # ANALYZE does not run: the reason is written in the language of what was read.
        update |= {"language": "zh" if _CJK.search(text) else "en"}
        update |= {"ocr_unread": result.unread} if result.unread else {"readings_disagree": True}
    return update
