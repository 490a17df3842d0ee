"""No credential from a URL reaches the access log.

The event stream takes a per-student token as `?access_token=` (EventSource sends no
headers), and a client may put a token or an API key in some other query parameter (refused,
but uvicorn logs the request line all the same). uvicorn's access log writes the path with
its query string: this filter rewrites the record's arguments before any handler or
formatter (text or JSON) sees them, so `access_token=[redacted]`, `svt_[redacted]` and
`sv_[redacted]` are all a log ever holds.
"""

from __future__ import annotations

import logging
import re

# `_` may come percent-encoded (%5F); names case-insensitively.
_URL_CREDENTIALS = (
    (re.compile(r"(?i)(access(?:_|%5f)token=)[^&#\s\"]*"), r"\1[redacted]"),
    (re.compile(r"(?i)svt(?:_|%5f)[A-Za-z0-9_%.-]+"), "svt_[redacted]"),
    (re.compile(r"(?i)sv(?:_|%5f)[0-9a-f]{12}(?:_|%5f)[^&#\s\"]*"), "sv_[redacted]"),
)
ACCESS_LOGGERS = ("uvicorn.access",)


def redact_url_credentials(text: str) -> str:
    for pattern, replacement in _URL_CREDENTIALS:
        text = pattern.sub(replacement, text)
    return text


class RedactUrlCredentials(logging.Filter):
    """Rewrites a record's message arguments (uvicorn's access line: client, method, path
    with query string, HTTP version, status), or its message when it has none."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                redact_url_credentials(a) if isinstance(a, str) else a for a in record.args
            )
        elif isinstance(record.msg, str) and not record.args:
            record.msg = redact_url_credentials(record.msg)
        return True


def redact_access_logs() -> None:
    """Install the filter on the access loggers, once per process. A logger's filters survive
    uvicorn's logging configuration (dictConfig replaces handlers, not filters)."""
    for name in ACCESS_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactUrlCredentials) for f in logger.filters):
            logger.addFilter(RedactUrlCredentials())
