"""The one error model: a failure the API answers as `status` + {"error": {"code", "message"}}.

Each failure is a `DomainError` subclass defined where the failure is found (an unreadable
image in app/ocr, an idempotency conflict in app/idempotency, a missing row here), stating its
own status and code there; one handler (app/api/errors.py) renders them all, so a route only
catches one to do something other than answer it (queue the scan, fail it, retry it later).

A message is for developers and never carries the caller's text, SQL or an object's repr: it
is built from fixed words and numbers (limits, sizes, ids the caller already holds).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import ClassVar

from app.schemas.common import ErrorCode


class DomainError(Exception):
    """Answered with `status`, `code` and `message` (plus `headers`, e.g. Retry-After, and a 422's
    per-field `details`). A subclass states `status` and either one `code` or, when it carries
    one of several, `codes` (what docs/api.md's table is checked against)."""

    status: int
    code: ErrorCode
    codes: ClassVar[tuple[ErrorCode, ...]] = ()

    def __init__(
        self,
        message: str,
        *,
        code: ErrorCode | None = None,
        headers: Mapping[str, str] | None = None,
        details: list[dict[str, str]] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.headers = dict(headers) if headers is not None else None
        self.details = details


class NotFound(DomainError):
    """No such resource for this caller: another tenant's (or another student's) is one too,
    so its existence is never revealed."""

    status = 404
    code: ErrorCode = "not_found"

    def __init__(self, kind: str, ident: uuid.UUID) -> None:
        super().__init__(f"{kind} {ident} does not exist")


class Forbidden(DomainError):
    """The caller is known but may not do this (another tenant's analytics, another user's
    scans with a student token)."""

    status = 403
    code: ErrorCode = "forbidden"
