"""The contract clients are generated from: every error status documented with the one
ErrorResponse schema, FastAPI's own validation schemas replaced by it, camelCase ids."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from app.schemas.common import ErrorResponse, Subject

_ERROR_DESCRIPTIONS = {
    401: "Missing or invalid credentials (`unauthorized`, `invalid_api_key`, `invalid_token`, "
    "`token_expired`), or an API key sent in a URL (`api_key_in_url`).",
    403: "The key's role, or a student token, may not do this (`forbidden`).",
    404: "No such resource, or another tenant's, or another user's for a student token "
    "(`not_found`).",
    409: "Idempotency-Key reused with another body, or still in use.",
    413: "Upload too large (`payload_too_large`, `image_too_large`).",
    415: "Not JSON, or not a PNG/JPEG image (`unsupported_media_type`).",
    422: "Invalid request (`invalid_request` with `details`), or an unreadable problem "
    "(`retake_photo`, `no_text_found`, `corrupt_image`).",
    429: "Rate limited (`rate_limited`); see `Retry-After`.",
    503: "A dependency is down (`service_unavailable`, `ocr_busy`); see `Retry-After`.",
}
_ERROR_REF = {"$ref": "#/components/schemas/ErrorResponse"}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` entries for these statuses, each the ErrorResponse envelope."""
    return {
        code: {"model": ErrorResponse, "description": _ERROR_DESCRIPTIONS[code]}
        for code in statuses
    }


def camel_case_id(route: APIRoute) -> str:
    head, *rest = route.name.split("_")
    return head + "".join(part.title() for part in rest)


def build_openapi(app: FastAPI) -> dict[str, Any]:
    if app.openapi_schema:
        return app.openapi_schema
    document = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        description=app.description,
        routes=app.routes,
    )
    components = document.setdefault("components", {}).setdefault("schemas", {})
    _add_models(components)
    for path_item in document.get("paths", {}).values():
        for operation in path_item.values():
            responses = operation.setdefault("responses", {})
            for status, response in responses.items():
                if status[0] in "45" and "content" not in response:
                    response["content"] = {"application/json": {"schema": _ERROR_REF}}
            # FastAPI's {detail: [...]} is not what the server sends: the envelope is.
            responses["422"] = {
                "description": _ERROR_DESCRIPTIONS[422],
                "content": {"application/json": {"schema": _ERROR_REF}},
            }
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    app.openapi_schema = document
    return document


def _add_models(components: dict[str, Any]) -> None:
    """Schemas referenced only from hand-written request bodies (JSON or multipart)."""
    from app.auth.schemas import TokenCreate
    from app.checks.schemas import CheckCreate
    from app.scans.schemas import ScanCreate

    template = "#/components/schemas/{model}"
    for model in (ScanCreate, CheckCreate, TokenCreate, ErrorResponse):
        schema = model.model_json_schema(ref_template=template)
        if model is not ErrorResponse:
            _drop_null_defaults(schema)
        for name, definition in schema.pop("$defs", {}).items():
            components.setdefault(name, definition)
        components.setdefault(model.__name__, schema)
    components.setdefault("Subject", _enum_schema())
    _add_event_models(components, template)


def _add_event_models(components: dict[str, Any], template: str) -> None:
    """The `data` of each Server-Sent Event (app/scans/event_schemas.py), as the server writes it;
    the stream's 200 response maps event names to them (`x-events`)."""
    from app.scans.event_schemas import EVENT_SCHEMAS

    for model in EVENT_SCHEMAS.values():
        schema = model.model_json_schema(ref_template=template, mode="serialization")
        for name, definition in schema.pop("$defs", {}).items():
            components.setdefault(name, definition)
        components.setdefault(model.__name__, schema)


def _drop_null_defaults(schema: dict[str, Any]) -> None:
    """A request field that may be left out needs no `default: null` (absent means the same),
    and generators read a default as "always present" (openapi-typescript would make every
    optional request field required)."""
    for prop in schema.get("properties", {}).values():
        if "default" in prop and prop["default"] is None:
            del prop["default"]


def _enum_schema() -> dict[str, Any]:
    return {
        "type": "string",
        "enum": [s.value for s in Subject],
        "title": "Subject",
        "description": "School subject.",
    }
