"""Process-wide logging setup for the CLI, the server and the worker."""

from __future__ import annotations

import logging
import sys

# The model SDKs log every request's options at DEBUG, the prompt with the student's problem
# among them: those loggers stay at INFO or above whatever the level, so no log holds a
# problem's text (erasing a scan could not reach it there).
QUOTING_LOGGERS = ("anthropic", "openai", "google_genai")


def configure_logging(level: str) -> None:
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    numeric = logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
    for name in QUOTING_LOGGERS:
        logging.getLogger(name).setLevel(max(numeric, logging.INFO))
