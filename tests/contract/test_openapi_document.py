"""The OpenAPI document apps are generated from: valid OpenAPI 3.1, every field described with
an example, and what the server really sends matches it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from app.main import create_app

DOCUMENT_URI = "urn:solveverify:openapi"


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return create_app().openapi()


def test_document_is_valid_openapi_3_1(document: dict[str, Any]) -> None:
    assert document["openapi"].startswith("3.1")
    validate(document)  # raises OpenAPIValidationError with the path of the first problem


def _request_body_schemas(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for media, content in operation.get("requestBody", {}).get("content", {}).items():
                yield f"{method.upper()} {path} {media}", content["schema"]


def _has_example(schema: dict[str, Any]) -> bool:
    return bool(schema.get("examples")) or "example" in schema


def test_every_field_has_a_description_and_an_example(document: dict[str, Any]) -> None:
    missing: list[str] = []
    schemas = document["components"]["schemas"]
    for name, schema in schemas.items():
        if not schema.get("description"):
            missing.append(f"{name}: description")
        for prop, definition in schema.get("properties", {}).items():
            if not definition.get("description"):
                missing.append(f"{name}.{prop}: description")
            if not _has_example(definition):
                missing.append(f"{name}.{prop}: example")
    # Inline request bodies (multipart) are documented field by field too.
    for where, schema in _request_body_schemas(document):
        for prop, definition in schema.get("properties", {}).items():
            if not definition.get("description") or not _has_example(definition):
                missing.append(f"{where} {prop}: description and example")
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for parameter in operation.get("parameters", []):
                where = f"{method.upper()} {path} {parameter['in']} {parameter['name']}"
                if not parameter.get("description"):
                    missing.append(f"{where}: description")
                if not (_has_example(parameter) or _has_example(parameter.get("schema", {}))):
                    missing.append(f"{where}: example")
    assert not missing, "\n".join(missing)


def test_request_bodies_reference_documented_schemas(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for name in ("ScanCreate", "CheckCreate"):
        required = set(schemas[name].get("required", []))
        for prop, definition in schemas[name]["properties"].items():
            # A default would make generated clients treat the field as always present.
            if prop not in required:
                assert "default" not in definition, f"{name}.{prop}"


class ResponseChecker:
    """Validates a real response against its operation's response schema in the document,
    resolving `$ref`s against the document's components (JSON Schema 2020-12, as 3.1)."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        resource: Resource[Any] = DRAFT202012.create_resource(document)
        self.registry: Registry[Any] = Registry().with_resource(DOCUMENT_URI, resource)

    def check(self, path: str, method: str, response: httpx.Response) -> None:
        status = str(response.status_code)
        responses = self.document["paths"][path][method]["responses"]
        assert status in responses, f"{method.upper()} {path}: {status} is not documented"
        pointer = "/".join(
            part.replace("~", "~0").replace("/", "~1")
            for part in ("paths", path, method, "responses", status, "content")
        )
        assert "application/json" in responses[status]["content"]
        schema = {"$ref": f"{DOCUMENT_URI}#/{pointer}/application~1json/schema"}
        validator = Draft202012Validator(schema, registry=self.registry)
        problems = [
            f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator.iter_errors(response.json())
        ]
        assert not problems, f"{method.upper()} {path} {status}: " + "; ".join(problems)


async def test_real_responses_match_the_document(
    client: httpx.AsyncClient, document: dict[str, Any]
) -> None:
    checker = ResponseChecker(document)

    created = await client.post(
        "/v1/scans", json={"text": "Solve 2x + 3 = 11", "user_id": "contract-user"}
    )
    assert created.status_code == 201, created.text
    checker.check("/v1/scans", "post", created)

    scan_id = created.json()["scan_id"]
    fetched = await client.get(f"/v1/scans/{scan_id}")
    assert fetched.status_code == 200 and fetched.json()["state"] == "done"
    checker.check("/v1/scans/{scan_id}", "get", fetched)

    page = await client.get("/v1/scans", params={"user_id": "contract-user", "limit": 1})
    assert page.status_code == 200 and len(page.json()["items"]) == 1
    checker.check("/v1/scans", "get", page)

    solution = await client.get(f"/v1/solutions/{created.json()['solution_id']}")
    assert solution.status_code == 200
    checker.check("/v1/solutions/{solution_id}", "get", solution)

    invalid = await client.post("/v1/scans", json={"text": "", "extra": 1})
    assert invalid.status_code == 422
    checker.check("/v1/scans", "post", invalid)

    missing = await client.get(f"/v1/scans/{uuid.uuid4()}")
    assert missing.status_code == 404
    checker.check("/v1/scans/{scan_id}", "get", missing)

    for answer, verdict in (("-14", "correct"), ("14", "incorrect")):
        check = await client.post(
            "/v1/checks", json={"problem": "If 7 - 4x = 15, what is 8x + 2?", "answer": answer}
        )
        assert check.status_code == 200 and check.json()["verdict"] == verdict, check.text
        checker.check("/v1/checks", "post", check)

    bad_check = await client.post("/v1/checks", json={"problem": "1 + 1", "answer": " "})
    assert bad_check.status_code == 422
    checker.check("/v1/checks", "post", bad_check)


def test_the_checker_catches_a_mismatch(document: dict[str, Any]) -> None:
    """The validation above is real: a response missing a required field fails it."""
    wrong = httpx.Response(404, json={"error": {"message": "no code"}})
    with pytest.raises(AssertionError, match="code"):
        ResponseChecker(document).check("/v1/scans/{scan_id}", "get", wrong)
