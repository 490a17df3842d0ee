"""The services a graph run uses, injected through LangGraph's runtime context."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from app.llm.registry import ProviderRegistry
from app.pipeline.state import Example
from app.settings import VerifySettings
from app.symbolic.sandbox import SymbolicSandbox
from app.verification.calibration import Calibrator
from app.verification.validator import Thresholds


class Retriever(Protocol):
    async def similar(self, text: str, k: int) -> list[Example]: ...


@dataclass(frozen=True, slots=True)
class OcrText:
    text: str
    confidence: float


class OcrReader(Protocol):
    async def read(self, image: bytes) -> OcrText: ...


@dataclass(frozen=True, slots=True)
class PipelineContext:
    registry: ProviderRegistry
    sandbox: SymbolicSandbox
    verify: VerifySettings
    retriever: Retriever | None = None
    ocr: OcrReader | None = None
    top_k: int = 3
    calibrator: Calibrator | None = None

    @property
    def thresholds(self) -> Thresholds:
        return Thresholds(
            programmatic=self.verify.programmatic_threshold,
            ground_truth=self.verify.ground_truth_threshold,
            llm=self.verify.llm_threshold,
        )
