"""Every error is JSON {"error": {"code", "message"}}; caller mistakes are 4xx."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from starlette.exceptions import HTTPException

log = logging.getLogger(__name__)


class ApiError(Exception):
    def __init__(
        self, status: int, code: str, message: str, *, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers = headers


def error_body(code: str, message: str, **extra: object) -> dict:
    return {"error": {"code": code, "message": message, **extra}}


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(
            error_body(exc.code, exc.message), status_code=exc.status, headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = [
            {"field": ".".join(str(p) for p in e["loc"][1:]) or "body", "problem": e["msg"]}
            for e in exc.errors()
        ]
        message = "; ".join(f"{d['field']}: {d['problem']}" for d in details)
        return JSONResponse(
            error_body("invalid_request", message, details=details), status_code=422
        )

    @app.exception_handler(DBAPIError)
    @app.exception_handler(ConnectionError)
    async def database_unavailable(_: Request, exc: Exception) -> JSONResponse:
        if isinstance(exc, DBAPIError) and not _lost_connection(exc):
            log.exception("database error")
            return JSONResponse(error_body("internal_error", "internal error"), status_code=500)
        # The database is restarting or unreachable: nothing was stored, the caller may retry.
        log.warning("database unavailable: %s", exc)
        return JSONResponse(
            error_body("service_unavailable", "the database is unavailable; retry shortly"),
            status_code=503,
            headers={"Retry-After": "1"},
        )

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(
            error_body(code, str(exc.detail)),
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )


def _lost_connection(exc: DBAPIError) -> bool:
    """The database went away (restart, shutdown, network), as opposed to a bad query."""
    if exc.connection_invalidated or isinstance(exc, OperationalError | InterfaceError):
        return True
    # SQLSTATE class 08 (connection exception) and 57P0x (shutting down, starting up).
    state = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None) or ""
    return str(state).startswith(("08", "57P"))
