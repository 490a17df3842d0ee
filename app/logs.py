"""Process-wide logging setup for the CLI, the server and the worker.

Two formats (SOLVEVERIFY_LOG_FORMAT): "text", and "json", one object a line with the request
id of the request the line was logged in ("-" outside one), uvicorn's access lines included.
The id lives in a context variable set by the server's outermost middleware
(app/api/request_context.py); a line logged while a request runs, in its task or in tasks it
started, carries it.
"""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, Literal

LogFormat = Literal["text", "json"]

# The model SDKs log every request's options at DEBUG, the prompt with the student's problem
# among them: those loggers stay at INFO or above whatever the level, so no log holds a
# problem's text (erasing a scan could not reach it there).
QUOTING_LOGGERS = ("anthropic", "openai", "google_genai")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

REQUEST_ID: ContextVar[str] = ContextVar("request_id", default="-")


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, request_id, and
    the exception's class and stack when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or REQUEST_ID.get(),
            "pid": record.process,
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False)


def configure_logging(level: str, log_format: LogFormat = "text") -> None:
    """A no-op where the process set a handler up already (uvicorn's workers call it again)."""
    root = logging.getLogger()
    if log_format == "json" and not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        logging.basicConfig(level=level, handlers=[handler])
    else:
        logging.basicConfig(level=level, stream=sys.stderr, format=TEXT_FORMAT)
    numeric = logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
    for name in QUOTING_LOGGERS:
        logging.getLogger(name).setLevel(max(numeric, logging.INFO))


def uvicorn_log_config(level: str, log_format: LogFormat) -> dict[str, Any] | None:
    """uvicorn's `log_config`: None (uvicorn's own, plain) for text; for json, uvicorn's
    loggers, the access lines among them, written by the JSON formatter (each access line is
    logged while its request runs, so it carries the request id)."""
    if log_format != "json":
        return None
    handler = {
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
        "formatter": "json",
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "app.logs.JsonFormatter"}},
        "handlers": {"json": handler},
        "loggers": {
            "uvicorn": {"handlers": ["json"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper()},
            "uvicorn.access": {"handlers": ["json"], "level": level.upper(), "propagate": False},
        },
    }
