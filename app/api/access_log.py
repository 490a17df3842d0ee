"""No credential from a URL reaches the access log.

The event stream takes a per-student token as `?access_token=` (EventSource sends no
headers), and a client may put a token or an API key in some other query parameter (refused,
but uvicorn logs the request line all the same). uvicorn's access log writes the path with
its query string: this filter rewrites the record's arguments before any handler or
formatter (text or JSON) sees them, so a credential's parameter is logged as
`name=[redacted]`, judged on the decoded query as the server reads it.
"""

from __future__ import annotations

import logging
import re

from app.auth.keys import as_read, key_ids_within

# Judged on the decoded text, as the server reads it (`%61ccess_token`, `%73v_…`, `%2573v_…`,
# a zero-width space inside included).
_CREDENTIAL = re.compile(r"(?i)svt?_")
_CREDENTIAL_NAMES = frozenset({"access_token"})
ACCESS_LOGGERS = ("uvicorn.access",)


def _redact_query(query: str) -> str:
    parts = []
    for part in query.split("&"):
        name = part.partition("=")[0]
        decoded_name = as_read(name).strip().lower()
        if _CREDENTIAL.search(decoded_name):
            part = "[redacted]"  # the credential is the parameter's name
        elif decoded_name in _CREDENTIAL_NAMES or _CREDENTIAL.search(as_read(part)):
            part = f"{name}=[redacted]"
        parts.append(part)
    return "&".join(parts)


def redact_url_credentials(text: str) -> str:
    """A path with its query string, credentials out: every parameter whose decoded name is
    `access_token` or whose decoded text holds a token or key prefix keeps only its name (or
    nothing of it, when its name holds one); a URL with an API key's id anywhere is all gone."""
    if key_ids_within(text):
        return "[redacted]"  # refused; its secret may sit in any part ("?a=sv_<id>&b=<secret>")
    path, mark, query = text.partition("?")
    if _CREDENTIAL.search(as_read(path)):
        path = "[redacted]"
    return path + mark + _redact_query(query) if mark else path


class RedactUrlCredentials(logging.Filter):
    """Rewrites a record's message arguments (uvicorn's access line: client, method, path
    with query string, HTTP version, status), or its message when it has none."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                redact_url_credentials(a) if isinstance(a, str) else a for a in record.args
            )
        elif isinstance(record.msg, str) and not record.args:
            record.msg = " ".join(
                redact_url_credentials(word) if "?" in word or _CREDENTIAL.search(word) else word
                for word in record.msg.split(" ")
            )
        return True


def redact_access_logs() -> None:
    """Install the filter on the access loggers, once per process. A logger's filters survive
    uvicorn's logging configuration (dictConfig replaces handlers, not filters)."""
    for name in ACCESS_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactUrlCredentials) for f in logger.filters):
            logger.addFilter(RedactUrlCredentials())
