"""Every error code the server can send is in the one `ErrorCode` enum, and the OpenAPI document
shows it as an `enum`: a static scan of app/ for the string literals passed as codes (to
ApiError, error_body, the exceptions whose `.code` reaches the envelope, a failed scan's event),
so a code added without the enum fails here as well as under mypy."""

from __future__ import annotations

import ast
from pathlib import Path

from app.main import create_app
from app.schemas.common import ERROR_CODES

APP = Path(__file__).resolve().parents[2] / "app"
# Callable name -> the position of its code argument.
CODE_ARGUMENT = {
    "ApiError": 1,
    "error_body": 0,
    "ImageUnreadable": 0,
    "UnreadableInput": 0,
    "IdempotencyConflict": 0,
    "_fail": 3,  # app/scans/jobs.py: a failed scan's code and `failed` event
}
# Files whose `{"code": ...}` dicts are not the API's error envelope.
NOT_ENVELOPES = ("app/symbolic/", "app/verification/", "app/cli.py")


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _strings(node: ast.expr | None) -> list[str]:
    """The literal strings an expression may be: a constant, either arm of `a if c else b`,
    any value of a `{...}.get(key, default)` mapping and its default."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _strings(node.body) + _strings(node.orelse)
    if isinstance(node, ast.Dict):
        return [s for value in node.values for s in _strings(value)]
    if isinstance(node, ast.Call) and _name(node.func) == "get" and len(node.args) == 2:
        receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
        return _strings(receiver) + _strings(node.args[1])
    return []


def raised_codes() -> dict[str, set[str]]:
    """Code -> the files that raise it."""
    found: dict[str, set[str]] = {}
    for path in sorted(APP.rglob("*.py")):
        relative = path.relative_to(APP.parent).as_posix()
        tree = ast.parse(path.read_text(), relative)
        for node in ast.walk(tree):
            codes: list[str] = []
            if isinstance(node, ast.Call):
                name = _name(node.func)
                if name in CODE_ARGUMENT:
                    index = CODE_ARGUMENT[name]
                    if len(node.args) > index:
                        codes += _strings(node.args[index])
                    codes += [
                        s for k in node.keywords if k.arg == "code" for s in _strings(k.value)
                    ]
            elif isinstance(node, ast.Dict) and not relative.startswith(NOT_ENVELOPES):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "code":
                        codes += _strings(value)
            elif isinstance(node, ast.AnnAssign) and "ErrorCode" in ast.unparse(node.annotation):
                # Typed names and maps: `code: ErrorCode = ...`, {404: "not_found"}, and
                # {"no_text_found": "message"} (dict[ErrorCode, str]: the keys are the codes).
                annotation = ast.unparse(node.annotation)
                if annotation.startswith("dict[ErrorCode") and isinstance(node.value, ast.Dict):
                    codes += [s for key in node.value.keys if key for s in _strings(key)]
                else:
                    codes += _strings(node.value)
            for code in codes:
                found.setdefault(code, set()).add(relative)
    return found


def test_the_scan_finds_the_codes_it_should() -> None:
    found = raised_codes()
    # One of each kind of call site: the scan is not silently finding nothing.
    for code in (
        "not_found",  # ApiError
        "service_unavailable",  # error_body
        "corrupt_image",  # ImageUnreadable
        "too_many_steps",  # UnreadableInput
        "idempotency_key_reused",  # IdempotencyConflict
        "internal_error",  # _fail
        "method_not_allowed",  # the typed map of HTTPException statuses
    ):
        assert code in found, code


def test_every_code_raised_in_app_is_in_the_enum() -> None:
    unknown = {code: sorted(files) for code, files in raised_codes().items()}
    unknown = {code: files for code, files in unknown.items() if code not in ERROR_CODES}
    assert not unknown, f"codes raised but missing from ErrorCode: {unknown}"


def test_every_code_in_the_enum_is_raised_somewhere() -> None:
    # ocr_busy and invalid_request from a query string are written as literals too.
    assert ERROR_CODES - set(raised_codes()) == set()


def test_openapi_shows_the_codes_as_an_enum() -> None:
    document = create_app().openapi()
    code = document["components"]["schemas"]["ErrorBody"]["properties"]["code"]
    assert set(code["enum"]) == ERROR_CODES
    assert code["type"] == "string"
