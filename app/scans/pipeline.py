"""Run the graph node by node (LangGraph streaming) so progress can be reported as it happens,
and a photo too blurry to trust is refused right after OCR, before anything is solved."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from app.errors import DomainError
from app.pipeline.context import PipelineContext
from app.pipeline.graph import SolveGraph
from app.pipeline.prompts.localized import RETAKE_PHOTO
from app.pipeline.state import SolveState
from app.schemas.common import ErrorCode

NodeListener = Callable[[str, dict[str, Any]], Awaitable[None]]
# Operator sequences no printed problem contains ("2x + 3 : = 11", "= =", "+ ="): OCR noise.
_GARBLED = re.compile(r"[:;]\s*=|=\s*[:;=]|[+*/×÷]\s*[+*/×÷=]")


class RetakePhoto(DomainError):
    """OCR read the photo with too little confidence (or garbled it): ask for a new photo, in
    the language of what was read (else of the text typed with it). `text`, the reading, is
    never in the message."""

    status = 422
    code: ErrorCode = "retake_photo"

    def __init__(self, confidence: float | None, text: str, typed: str | None = None) -> None:
        super().__init__(RETAKE_PHOTO["zh" if _has_cjk(text or typed or "") else "en"])
        self.confidence = confidence
        self.text = text


def _has_cjk(text: str) -> bool:
    return any("\u3400" <= c <= "\u9fff" for c in text)


def needs_retake(text: str, confidence: float | None, min_confidence: float) -> bool:
    if confidence is not None and confidence < min_confidence:
        return True
    return bool(_GARBLED.search(text))


def public_progress(node: str, update: dict[str, Any]) -> dict[str, Any]:
    """What a client may see of a node's update: never providers, models or raw errors."""
    data: dict[str, Any] = {"node": node}
    if node == "ocr":
        data["ocr_confidence"] = update.get("ocr_confidence")
    elif node == "analyze":
        data.update({k: update.get(k) for k in ("subject", "language", "grade_band")})
    elif node == "retrieve":
        data["similar_problems"] = len(update.get("examples") or [])
    elif node == "solve":
        solution = update.get("solution")
        data["answered"] = bool(solution is not None and solution.final_answer)
    elif node == "quick_verify":
        data["passed"] = update.get("verify_passed")
    elif node == "enrich":
        data["verification_status"] = update.get("verification_status")
    return data


async def stream_pipeline(
    graph: SolveGraph,
    context: PipelineContext,
    state: SolveState,
    *,
    on_node: NodeListener | None = None,
    min_ocr_confidence: float = 0.0,
) -> SolveState:
    """The final state, as `graph.ainvoke` would return it; `on_node` hears each node finish."""
    final: dict[str, Any] | None = None
    with context.for_run() as run:
        stream: Any = graph.astream(state, context=run, stream_mode=["updates", "values"])
        async for mode, chunk in stream:
            if mode == "values":
                final = chunk
                continue
            for node, update in chunk.items():
                update = update or {}
                if node == "ocr" and state.image is not None and not update.get("error"):
                    text = update.get("problem_text", "")
                    if needs_retake(text, update.get("ocr_confidence"), min_ocr_confidence):
                        raise RetakePhoto(update.get("ocr_confidence"), text, state.problem_text)
                if on_node is not None:
                    await on_node(node, public_progress(node, update))
    assert final is not None
    return SolveState(**final)
