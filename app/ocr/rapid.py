"""RapidOCR (PP-OCR models in ONNX, shipped inside the wheel; Chinese and English).

Inference is CPU-bound, so it runs in a worker thread; onnxruntime releases the GIL while it
computes. The engine loads lazily and once per process.
"""

from __future__ import annotations

import asyncio
import io
import threading
from typing import Any

import numpy as np
from PIL import Image

from app.pipeline.context import OcrText

ROW_TOLERANCE = 0.5  # boxes whose vertical centres differ by < half a line height share a row


class RapidOcrReader:
    def __init__(self) -> None:
        self._engine: Any = None
        self._lock = threading.Lock()
        # One inference at a time per process: parallel runs only fight over the same cores.
        self._semaphore = asyncio.Semaphore(1)

    def _get_engine(self) -> Any:
        with self._lock:
            if self._engine is None:
                from rapidocr import RapidOCR

                self._engine = RapidOCR(params={"Global.log_level": "warning"})
            return self._engine

    def read_sync(self, image: bytes) -> OcrText:
        picture = Image.open(io.BytesIO(image)).convert("RGB")
        result = self._get_engine()(np.asarray(picture))
        if result.txts is None or len(result.txts) == 0:
            return OcrText("", 0.0)
        lines = _reading_order(result.boxes, result.txts)
        confidence = float(np.mean(result.scores)) if len(result.scores) else 0.0
        return OcrText("\n".join(lines), round(confidence, 4))

    async def read(self, image: bytes) -> OcrText:
        async with self._semaphore:
            return await asyncio.to_thread(self.read_sync, image)

    async def warm_up(self) -> None:
        await asyncio.to_thread(self._get_engine)


def _reading_order(boxes: Any, texts: Any) -> list[str]:
    """Group text boxes into rows (top to bottom), each row read left to right."""
    items = []
    for box, text in zip(boxes, texts, strict=True):
        ys, xs = box[:, 1], box[:, 0]
        items.append(((ys.min() + ys.max()) / 2, ys.max() - ys.min(), xs.min(), text))
    items.sort(key=lambda item: item[0])
    rows: list[list[tuple[float, float, float, str]]] = []
    for item in items:
        if rows and abs(item[0] - rows[-1][0][0]) < ROW_TOLERANCE * max(item[1], rows[-1][0][1]):
            rows[-1].append(item)
        else:
            rows.append([item])
    return [" ".join(text for *_, text in sorted(row, key=lambda i: i[2])) for row in rows]
