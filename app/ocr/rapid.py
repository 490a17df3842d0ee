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
from app.ocr.latex import to_latex
from app.ocr.layout import Box, reading_order
from app.ocr.memory import release_free_memory
from app.ocr.page import TextBox, read_page
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
            return self._read(pixels, result)
        finally:
            release_free_memory()

    def _read(self, pixels: np.ndarray[Any, Any], result: Any) -> OcrText:
        found = result.txts is not None and len(result.txts) > 0
        corners = list(result.boxes) if found else []
        texts = list(result.txts) if found else []
        boxes = [
            Box(
                text,
                float(b[:, 0].min()),
                float(b[:, 0].max()),
                float(b[:, 1].min()),
                float(b[:, 1].max()),
            )
            for b, text in zip(corners, texts, strict=True)
        ]
        plain = "\n".join(line for line in reading_order(boxes) if line)
        page = read_page(
            pixels,
            plain,
            [
                TextBox(np.asarray(b, dtype=np.float32), t)
                for b, t in zip(corners, texts, strict=True)
            ],
            self._recognize,
        )
        if not page.text:
            return OcrText("", 0.0, unread=page.unread)
        confidence = float(np.mean(result.scores)) if found and len(result.scores) else 0.0
        if page.structured and page.confidence is not None:
            confidence = page.confidence  # the layout step's own crops, not the line reader's
        return OcrText(
            page.text,
            round(confidence, 4),
            latex=to_latex(page.text) if page.structured else None,
            unread=page.unread,
        )

    def _recognize(self, crop: np.ndarray[Any, Any]) -> tuple[str, float]:
        """One crop through the recognizer alone: the layout step chose the region, and the
        orientation classifier would turn lone symbols upside down. (Passing use_det=False
        to the engine's call would change its settings for every later call.)"""
        from rapidocr.ch_ppocr_rec.typings import TextRecInput

        recognizer = self._get_engine()._load_rec_model()  # loaded once, under its own lock
        result = recognizer(TextRecInput(img=crop))
        if not result.txts:
            return "", 0.0
        return str(result.txts[0]), float(result.scores[0])

    async def read(self, image: bytes) -> OcrText:
        """Raises OcrBusy when no slot frees up in time."""
        return await self.slots.run_in_thread(self.read_sync, image)

    async def warm_up(self) -> None:
        await asyncio.to_thread(self._get_engine)
