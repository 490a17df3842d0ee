"""The services a graph run uses, injected through LangGraph's runtime context."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Protocol

from app.llm.registry import ProviderRegistry
from app.pipeline.exploration import Exploration
from app.pipeline.state import Example
from app.settings import VerifySettings
from app.symbolic.sandbox import SymbolicSandbox
from app.verification.calibration import Calibrator
from app.verification.calibration_files import CalibrationFiles
from app.verification.validator import Thresholds


class Retriever(Protocol):
    async def similar(self, text: str, k: int) -> list[Example]: ...


@dataclass(frozen=True, slots=True)
class OcrText:
    text: str
    confidence: float
    latex: str | None = None  # the structured reading, for showing the student
    unread: str | None = None  # why the reading does not explain the whole picture


class OcrReader(Protocol):
    async def read(self, image: bytes) -> OcrText: ...


@dataclass(slots=True)
class RunCalls:
    """Model calls one node of a run starts for a later node. ANALYZE starts ENRICH's label
    call: it needs only ANALYZE's labels, so it runs while SOLVE and QUICK_VERIFY wait on
    their models, and the critical path is three model calls, not four."""

    enrichment: asyncio.Task[dict[str, Any] | None] | None = None

    def cancel(self) -> None:
        """At the end of a run: a call nobody took (the run failed or was abandoned) stops."""
        if self.enrichment is not None:
            self.enrichment.cancel()


@dataclass(frozen=True, slots=True)
class PipelineContext:
    registry: ProviderRegistry
    sandbox: SymbolicSandbox
    verify: VerifySettings
    retriever: Retriever | None = None
    ocr: OcrReader | None = None
    top_k: int = 3
    calibrator: Calibrator | None = None
    # The step critique's own calibrator (check my steps, app/verification/step_critique.py),
    # fitted by `bench steps --fit-calibration`; None: its stated confidence stands in.
    step_calibrator: Calibrator | None = None
    calls: RunCalls | None = None  # per run (`for_run`); None: each node makes its own calls
    # Where the two calibrators come from when they are fitted files: `current()` and every
    # run read them as of now (a refit reaches a queued scan); None: the fields above stand.
    calibration: CalibrationFiles | None = None
    # Which runs buy all their evidence (app/pipeline/exploration.py); None: none.
    exploration: Exploration | None = None
    explore: bool = False  # this run does (set by `for_run`)

    @contextmanager
    def for_run(self) -> Iterator[PipelineContext]:
        """This context for one run, with the current calibrators; calls nobody took are
        stopped when the run ends."""
        calls = RunCalls()
        explore = self.exploration is not None and self.exploration.next_run()
        try:
            yield replace(self.current(), calls=calls, explore=explore)
        finally:
            calls.cancel()

    def current(self) -> PipelineContext:
        """This context with the calibrators as their files are now."""
        if self.calibration is None:
            return self
        answers, steps = self.calibration.current()
        # A file not fitted yet leaves the field as it is (a refit replaces, never deletes).
        calibrator = self.calibrator if answers is None else answers
        step_calibrator = self.step_calibrator if steps is None else steps
        if calibrator is self.calibrator and step_calibrator is self.step_calibrator:
            return self
        return replace(self, calibrator=calibrator, step_calibrator=step_calibrator)

    @property
    def thresholds(self) -> Thresholds:
        return Thresholds(
            programmatic=self.verify.programmatic_threshold,
            ground_truth=self.verify.ground_truth_threshold,
            llm=self.verify.llm_threshold,
        )
