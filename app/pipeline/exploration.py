"""Exploration for adaptive evidence: some scans buy all their evidence.

Adaptive evidence (app/pipeline/evidence.py) asks a verifier, or draws a sample, only where
it can still change the badge. The fitted model then learns a verifier's reliability only
from the answers it was asked about, and those are the uncertain ones: the daily refit would
stop seeing how each verifier does on the rest. Every `every`-th scan of a process buys the
full plan, so its outcomes show every verifier on every kind of answer. The badge is the
same either way (adaptive evidence stops only once the rest cannot change it); only the cost
and P read from more votes differ. A counter, not a coin: the same runs explore every time.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field


@dataclass(slots=True)
class Exploration:
    every: int  # every k-th run buys all its evidence; 0: none does
    _runs: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def next_run(self) -> bool:
        """Whether the run starting now explores."""
        if self.every <= 0:
            return False
        with self._lock:
            self._runs += 1
            return self._runs % self.every == 0
