"""The fitted calibrators a process uses, read from their files and re-read when a refit
replaces them: every pipeline run (a request's, an in-process job's, a worker's) asks for the
current ones, so a refit reaches queued scans too, not only the scans a server starts."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from app.settings import VerifySettings
from app.verification.calibration import Calibrator

STEP_CALIBRATION_FILE = "step_critique_calibration.json"


def load_calibrator(path: Path | None) -> Calibrator | None:
    return Calibrator.load(path) if path is not None and path.is_file() else None


def step_calibration_path(verify: VerifySettings) -> Path | None:
    """Where `bench steps --fit-calibration` is expected to put the step critique's
    calibrator: beside the answer calibrator (None when there is none)."""
    path = verify.calibration_path
    return None if path is None else path.with_name(STEP_CALIBRATION_FILE)


@dataclass(slots=True)
class _File:
    path: Path | None
    stamp: tuple[int, int] | None = None  # (mtime_ns, size) of what `model` was read from
    model: Calibrator | None = None

    def refresh(self) -> bool:
        """Re-read the file if it changed since the last read (one stat when it did not).
        A file removed keeps the model read last: a refit replaces, it never deletes."""
        try:
            stat = None if self.path is None else self.path.stat()
        except OSError:
            stat = None
        stamp = None if stat is None else (stat.st_mtime_ns, stat.st_size)
        if stamp is None or stamp == self.stamp:
            return False
        try:
            model = load_calibrator(self.path)
        except (OSError, ValueError):  # half written: read again at the next change
            return False
        self.stamp = stamp
        if model is None or model == self.model:
            return False
        self.model = model
        return True


class CalibrationFiles:
    """The answer calibrator and the step critique's, as of their files' last change."""

    def __init__(self, verify: VerifySettings) -> None:
        self._answers = _File(verify.calibration_path)
        self._steps = _File(step_calibration_path(verify))
        self._lock = threading.Lock()  # runs on the event loop and in worker threads
        self.refresh()

    def refresh(self) -> bool:
        """Pick up a refit of either file; True when a calibrator changed."""
        with self._lock:
            answers = self._answers.refresh()
            steps = self._steps.refresh()
            return answers or steps

    def current(self) -> tuple[Calibrator | None, Calibrator | None]:
        """(answers, steps), re-read first if a file changed."""
        self.refresh()
        return self._answers.model, self._steps.model
