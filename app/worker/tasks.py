"""The task registry: every background task by the name it is queued under. Tasks are
arq-style (`async def task(ctx, ...)`, `job_context(ctx)` carries the clients: app.worker.context)
and live in their domains; whichever queue runs them (app.worker.queue) finds them here."""

from __future__ import annotations

from app.calibration.tasks import recalibrate
from app.scans.tasks import run_scan
from app.solutions.followups.consensus import consensus_check
from app.solutions.followups.deep_evaluation import deep_evaluate
from app.solutions.followups.mars import mars_second_chance
from app.solutions.followups.spot_check import spot_check
from app.worker.queue import Task

TASKS: dict[str, Task] = {
    "run_scan": run_scan,
    "deep_evaluate": deep_evaluate,
    "consensus_check": consensus_check,
    "spot_check": spot_check,
    "recalibrate": recalibrate,
    "mars_second_chance": mars_second_chance,
}
