"""Every error is JSON {"error": {"code", "message"}}; caller mistakes are 4xx.

One handler renders every `DomainError` (app/errors.py: each states its status and code where
it is defined); the others here render what the framework and the database raise.
Messages never carry object reprs, SQL, or the caller's text; logs name the exception class
and the request id, not its message (a database error's message holds the statement).
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException

from app.api.request_context import current_request_id
from app.db.errors import is_invalid_value, is_out_of_resources, is_try_later, sqlstate
from app.errors import DomainError
from app.schemas.common import ErrorCode

log = logging.getLogger(__name__)
Model = TypeVar("Model", bound=BaseModel)


class ApiError(DomainError):
    """A request the HTTP layer refuses by itself (authentication, limits, a malformed body or
    header), its status stated where it is raised."""

    def __init__(
        self,
        status: int,
        code: ErrorCode,
        message: str,
        *,
        headers: Mapping[str, str] | None = None,
        details: list[dict[str, str]] | None = None,
    ) -> None:
        super().__init__(message, code=code, headers=headers, details=details)
        self.status = status


def error_body(code: ErrorCode, message: str, **extra: object) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


def invalid_request(problems: Iterable[Mapping[str, Any]], *, loc_prefix: int = 0) -> ApiError:
    """The one formatter of validation errors (pydantic's, from FastAPI or our own parsing):
    field and problem only, never the rejected input. `loc_prefix` drops FastAPI's "body"."""
    details = [
        {"field": _field(e["loc"][loc_prefix:], e["type"]), "problem": _problem(e)}
        for e in problems
    ]
    message = "; ".join(f"{d['field']}: {d['problem']}" for d in details)
    return ApiError(422, "invalid_request", message, details=details)


# Problems whose pydantic message quotes the rejected input: a fixed message instead.
_FIXED_PROBLEMS = {
    "extra_forbidden": "not a field of this request",
    "uuid_parsing": "Input should be a valid UUID",
    "uuid_type": "Input should be a valid UUID",
}


# An unknown field's name is the caller's text: named back only when it looks like a field
# name (`colour` for `color`), never when it is prose, markup or long.
_FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,39}")


def _field(loc: Sequence[int | str], kind: str) -> str:
    """The field's path, with an unknown field's name only when it looks like one."""
    names = [str(p) for p in loc]
    if kind == "extra_forbidden" and names and not _FIELD_NAME.fullmatch(names[-1]):
        names[-1] = "(unknown field)"
    return ".".join(names) or "body"


def _problem(error: Mapping[str, Any]) -> str:
    return _FIXED_PROBLEMS.get(error["type"], str(error["msg"]))


def sent_more_than_once(fields: Iterable[str]) -> ApiError:
    """A 422 for fields (JSON keys, form fields, query parameters, headers) sent twice: which
    `text` did the student mean? The last one never wins silently."""
    named = sorted({_field([f], "extra_forbidden") for f in fields})
    details = [{"field": f, "problem": "sent more than once"} for f in named]
    return ApiError(422, "invalid_request", "send each field once", details=details)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) < len(pairs):
        counts = Counter(key for key, _ in pairs)
        raise sent_more_than_once(key for key, n in counts.items() if n > 1)
    return obj


def refuse_repeated_keys(data: bytes | str) -> None:
    """422 for a JSON object that names a key twice (pydantic keeps the last one). JSON that
    does not parse is left to the model's validation, which says what is wrong."""
    try:
        json.loads(data, object_pairs_hook=_unique_keys)
    except (ValueError, RecursionError):
        return


def parse_or_422(model: type[Model], data: bytes | Mapping[str, Any], **context: Any) -> Model:
    """Validate a request body (JSON bytes) or form fields; a mistake is a 422."""
    try:
        if isinstance(data, bytes | str):
            refuse_repeated_keys(data)
            return model.model_validate_json(data, context=context)
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        raise invalid_request(exc.errors(include_input=False, include_url=False)) from None


def domain_error_response(exc: DomainError) -> JSONResponse:
    extra = {"details": exc.details} if exc.details is not None else {}
    return JSONResponse(
        error_body(exc.code, exc.message, **extra), status_code=exc.status, headers=exc.headers
    )


def internal_error_response() -> JSONResponse:
    request_id = current_request_id()
    return JSONResponse(
        error_body(
            "internal_error",
            f"internal error (request {request_id})",
            request_id=request_id,
        ),
        status_code=500,
    )


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def domain_error(_: Request, exc: DomainError) -> JSONResponse:
        return domain_error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        return domain_error_response(invalid_request(exc.errors(), loc_prefix=1))

    @app.exception_handler(DBAPIError)
    @app.exception_handler(ConnectionError)
    async def database_unavailable(_: Request, exc: Exception) -> JSONResponse:
        if is_invalid_value(exc):
            # A value the database cannot store or compare (NUL in text, a date beyond its
            # range): the caller's input, whichever check upstream missed it.
            log.warning(
                "database refused a value (SQLSTATE %s) [request %s]",
                sqlstate(exc),  # type: ignore[arg-type]  # is_invalid_value: a DBAPIError
                current_request_id(),
            )
            return JSONResponse(
                error_body("invalid_request", "a value in the request cannot be stored"),
                status_code=422,
            )
        if isinstance(exc, DBAPIError) and not is_try_later(exc):
            # The message holds the SQL (and, without hide_parameters, the student's text).
            log.error(
                "database error %s (SQLSTATE %s) [request %s]",
                type(exc.orig).__name__,
                sqlstate(exc) or "-",
                current_request_id(),
            )
            return internal_error_response()
        # The database is restarting or unreachable: nothing was stored, the caller may retry.
        log.warning(
            "database unavailable: %s [request %s]", _error_class(exc), current_request_id()
        )
        retry_after = RESOURCES_RETRY_AFTER_S if is_out_of_resources(exc) else 1
        return JSONResponse(
            error_body("service_unavailable", "the database is unavailable; retry shortly"),
            status_code=503,
            headers={"Retry-After": str(retry_after)},
        )

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        codes: dict[int, ErrorCode] = {404: "not_found", 405: "method_not_allowed"}
        code: ErrorCode = codes.get(exc.status_code, "http_error")
        return JSONResponse(
            error_body(code, str(exc.detail)),
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )


def _error_class(exc: Exception) -> str:
    inner = getattr(exc, "orig", None)
    return type(inner if inner is not None else exc).__name__


# Disk full or out of memory clears in minutes, not in a second.
RESOURCES_RETRY_AFTER_S = 30
