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

from app.ocr.layout import Box, reading_order
from app.pipeline.context import OcrText


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

                self._engine = RapidOCR(
                    # Lone operators ("=") score low; keep them and let layout fix them.
                    params={"Global.log_level": "warning", "Global.text_score": 0.3}
                )
            return self._engine

    def read_sync(self, image: bytes) -> OcrText:
        picture = Image.open(io.BytesIO(image)).convert("RGB")
        result = self._get_engine()(np.asarray(picture))
        if result.txts is None or len(result.txts) == 0:
            return OcrText("", 0.0)
        boxes = [
            Box(
                text,
                float(b[:, 0].min()),
                float(b[:, 0].max()),
                float(b[:, 1].min()),
                float(b[:, 1].max()),
            )
            for b, text in zip(result.boxes, result.txts, strict=True)
        ]
        lines = [line for line in reading_order(boxes) if line]
        confidence = float(np.mean(result.scores)) if len(result.scores) else 0.0
        return OcrText("\n".join(lines), round(confidence, 4))

    async def read(self, image: bytes) -> OcrText:
        async with self._semaphore:
            return await asyncio.to_thread(self.read_sync, image)

    async def warm_up(self) -> None:
        await asyncio.to_thread(self._get_engine)
