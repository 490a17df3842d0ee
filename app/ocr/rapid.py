"""RapidOCR (PP-OCR models in ONNX, shipped inside the wheel; Chinese and English).

Inference is CPU-bound, so it runs in a worker thread; onnxruntime releases the GIL while it
computes. The engine loads lazily and once per process. Images are decoded already shrunk to
what OCR needs (app/ocr/images.py), a bounded number at a time (app/ocr/slots.py), and the
freed decode buffers are handed back to the OS after each image.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import numpy as np

from app.ocr.images import decode_for_ocr
from app.ocr.layout import Box, reading_order
from app.ocr.memory import release_free_memory
from app.ocr.slots import OcrSlots
from app.pipeline.context import OcrText
from app.settings import OcrSettings


class RapidOcrReader:
    def __init__(self, settings: OcrSettings | None = None) -> None:
        self.settings = settings or OcrSettings()
        self._engine: Any = None
        self._lock = threading.Lock()
        # Few inferences at a time per process: parallel runs only fight over the same cores,
        # and each holds a decoded image.
        self.slots = OcrSlots(
            self.settings.max_concurrency, self.settings.max_wait_s, self.settings.max_waiting
        )

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
        """Raises ImageUnreadable for truncated or corrupt images."""
        try:
            pixels = np.asarray(decode_for_ocr(image, max_side=self.settings.max_side_px))
            result = self._get_engine()(pixels)
            del pixels
        finally:
            release_free_memory()
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
        """Raises OcrBusy when no slot frees up in time."""
        return await self.slots.run_in_thread(self.read_sync, image)

    async def warm_up(self) -> None:
        await asyncio.to_thread(self._get_engine)
