"""The one error model (app/errors.py): every DomainError subclass is answered by the one
handler with its own status, code and headers; no route translates one by hand; and the table
of codes in docs/api.md agrees with the classes and with every `ApiError(status, code)`."""

from __future__ import annotations

import ast
import re
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from app.api.errors import ApiError
from app.errors import DomainError, Forbidden, NotFound
from app.idempotency.service import IdempotencyConflict
from app.main import create_app
from app.ocr.errors import ImageTooLarge, ImageUnreadable, OcrBusy
from app.pipeline.prompts.localized import RETAKE_PHOTO
from app.scans.pipeline import RetakePhoto
from app.scans.service import UnreadableInput
from app.schemas.common import ERROR_CODES

ROOT = Path(__file__).resolve().parents[2]
SCAN = uuid.UUID("3f8a2c4e-9b1d-4c6e-8f2a-1b3c5d7e9f01")
BUSY = "too many images are being read right now; retry shortly"

# (the error, its status, its body, its headers): written out, so a class whose status, code or
# message drifts fails here; every subclass needs a row (test_every_subclass_has_an_example).
EXAMPLES: list[tuple[DomainError, int, dict[str, object], dict[str, str]]] = [
    (
        NotFound("scan", SCAN),
        404,
        {"code": "not_found", "message": f"scan {SCAN} does not exist"},
        {},
    ),
    (
        Forbidden("analytics need an API key with the analyst role"),
        403,
        {"code": "forbidden", "message": "analytics need an API key with the analyst role"},
        {},
    ),
    (
        ApiError(401, "invalid_api_key", "unknown key", headers={"WWW-Authenticate": "Bearer"}),
        401,
        {"code": "invalid_api_key", "message": "unknown key"},
        {"WWW-Authenticate": "Bearer"},
    ),
    (
        ApiError(
            422,
            "invalid_request",
            "text: Field required",
            details=[{"field": "text", "problem": "Field required"}],
        ),
        422,
        {
            "code": "invalid_request",
            "message": "text: Field required",
            "details": [{"field": "text", "problem": "Field required"}],
        },
        {},
    ),
    *[
        (IdempotencyConflict(code, "m"), 409, {"code": code, "message": "m"}, {})
        for code in ("idempotency_key_reused", "idempotency_key_in_use")
    ],
    *[
        (UnreadableInput(code, "m"), 422, {"code": code, "message": "m"}, {})
        for code in (
            "no_text_found",
            "ocr_unavailable",
            "text_too_long",
            "incomplete_reading",
            "too_many_steps",
        )
    ],
    *[
        (ImageUnreadable(code, "m"), 422, {"code": code, "message": "m"}, {})
        for code in ("corrupt_image", "image_aspect_ratio")
    ],
    (
        # The reading's language picks the message; the reading itself is never in it.
        RetakePhoto(0.2, "2x + 3 : = 11"),
        422,
        {"code": "retake_photo", "message": RETAKE_PHOTO["en"]},
        {},
    ),
    (
        # Nothing read: the language of the text typed with the photo.
        RetakePhoto(None, "", "解方程"),
        422,
        {"code": "retake_photo", "message": RETAKE_PHOTO["zh"]},
        {},
    ),
    (
        ImageTooLarge(40_000_001, 40_000_000),
        413,
        {"code": "image_too_large", "message": "image has 40000001 pixels; the limit is 40000000"},
        {},
    ),
    (OcrBusy(7), 503, {"code": "ocr_busy", "message": BUSY}, {"Retry-After": "7"}),
]


def domain_errors() -> set[type[DomainError]]:
    """Every subclass, however deep."""
    found: set[type[DomainError]] = set()
    pending = [DomainError]
    while pending:
        for sub in pending.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                pending.append(sub)
    return found


def codes_of(cls: type[DomainError]) -> tuple[str, ...]:
    """The codes a class may carry: its `codes`, or its one `code`."""
    return cls.codes or (cls.code,)


def test_every_subclass_has_an_example() -> None:
    assert {type(error) for error, *_ in EXAMPLES} == domain_errors()
    for cls in domain_errors() - {ApiError}:
        shown = {body["code"] for error, _, body, _ in EXAMPLES if type(error) is cls}
        assert shown == set(codes_of(cls)), cls.__name__


def test_every_subclass_defined_in_app_is_loaded_by_the_server() -> None:
    # A subclass in a module the server never imports would be missed above.
    known = {cls.__name__ for cls in domain_errors()}
    classes = [
        (node.name, {ast.unparse(base).rsplit(".", 1)[-1] for base in node.bases})
        for path in (ROOT / "app").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.ClassDef)
    ]
    defined: set[str] = set()
    while grown := {n for n, bases in classes if bases & (defined | {"DomainError"})} - defined:
        defined |= grown
    assert defined <= known, defined - known


@pytest.fixture(scope="module")
async def probe() -> AsyncIterator[httpx.AsyncClient]:
    """The real app (its handlers and middleware), with a route raising EXAMPLES[i]'s error."""
    app = create_app()

    async def raise_example(i: int) -> None:
        raise EXAMPLES[i][0]

    app.add_api_route("/probe/{i}", raise_example, methods=["GET"])
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        yield client


@pytest.mark.parametrize(
    "i", range(len(EXAMPLES)), ids=[f"{type(e).__name__}-{b['code']}" for e, _, b, _ in EXAMPLES]
)
async def test_the_one_handler_renders_it(probe: httpx.AsyncClient, i: int) -> None:
    error, status, body, headers = EXAMPLES[i]
    response = await probe.get(f"/probe/{i}")
    assert response.status_code == status
    assert response.json() == {"error": body}
    for name, value in headers.items():
        assert response.headers[name] == value
    if not isinstance(error, ApiError):
        assert type(error).status == status  # the class states it, not the instance


def web_modules() -> list[Path]:
    """The HTTP layer: app/api and each domain's endpoints (every module importing FastAPI)."""
    found = [
        path
        for path in sorted((ROOT / "app").rglob("*.py"))
        if path.is_relative_to(ROOT / "app" / "api")
        or re.search(r"^from fastapi\b|^import fastapi\b", path.read_text(), re.MULTILINE)
    ]
    assert ROOT / "app" / "scans" / "endpoints.py" in found
    return found


# Routes may catch one to do something else (DeadlineExceeded is no DomainError: it queues
# the scan); translating a DomainError into another answer is the handler's job alone.
def test_no_route_catches_a_domain_error() -> None:
    names = {cls.__name__ for cls in domain_errors()} | {"DomainError"}
    caught = []
    for path in web_modules():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                kinds = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
                for kind in kinds:
                    name = kind.attr if isinstance(kind, ast.Attribute) else ast.unparse(kind)
                    if name in names:
                        caught.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert caught == []


def documented_statuses() -> dict[str, int]:
    """docs/api.md's Errors table: code -> status."""
    text = (ROOT / "docs" / "api.md").read_text()
    section = text.split("### Errors", 1)[1].split("\n### ", 1)[0]
    found: dict[str, int] = {}
    for status, cell in re.findall(r"^\| (\d{3}) \| (.+) \|$", section, re.MULTILINE):
        for code in re.findall(r"`([a-z_]+)`", cell):
            if code in ERROR_CODES:
                assert code not in found, f"{code} is in two rows"
                found[code] = int(status)
    return found


def raised_with_status() -> set[tuple[int, str]]:
    """(status, code) of every `ApiError(<status>, "<code>", ...)` in app/."""
    pairs: set[tuple[int, str]] = set()
    for path in (ROOT / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "ApiError"
                and len(node.args) >= 2
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[1], ast.Constant)
            ):
                pairs.add((node.args[0].value, node.args[1].value))
    return pairs


def test_the_docs_table_lists_every_code_with_its_status() -> None:
    documented = documented_statuses()
    assert set(documented) == ERROR_CODES
    from_classes = {
        (cls.status, code) for cls in domain_errors() - {ApiError} for code in codes_of(cls)
    }
    raised = raised_with_status()
    assert ("unauthorized", 401) in {(c, s) for s, c in raised}  # the scan finds the calls
    wrong = {(s, c, documented[c]) for s, c in from_classes | raised if documented[c] != s}
    assert wrong == set(), "(raised status, code, documented status)"
