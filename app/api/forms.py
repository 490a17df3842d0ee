"""Read a multipart body with the app's own limits, strictness and error codes.

Starlette's parser decodes a text field that is not UTF-8 as Latin-1 (so `2+2 \\xff\\xfe` would
be stored as "2+2 ÿþ") and answers its limits with a 400 in its own words. Here text fields
must be UTF-8 (422 `invalid_text`), and each limit is a 422 with the envelope's codes.
"""

from __future__ import annotations

from fastapi import Request
from starlette.datastructures import FormData
from starlette.formparsers import MultiPartException, MultiPartParser

from app.api.errors import ApiError

NOT_UTF8 = "not utf-8"


class StrictMultiPartParser(MultiPartParser):
    """Text fields are strict UTF-8 (a file part's bytes are the file's business)."""

    def on_part_end(self) -> None:
        part = self._current_part
        if part.file is not None:
            super().on_part_end()
            return
        try:
            value = bytes(part.data).decode("utf-8")
        except UnicodeDecodeError:
            raise MultiPartException(NOT_UTF8) from None
        self.items.append((part.field_name, value))


def _as_api_error(
    message: str, *, max_files: int, max_fields: int, max_field_bytes: int
) -> ApiError:
    if message == NOT_UTF8:
        return ApiError(422, "invalid_text", "form fields must be UTF-8 text")
    if message.startswith("Too many files"):
        return ApiError(422, "too_many_files", f"send at most {max_files} image(s) in one request")
    if message.startswith("Too many fields"):
        return ApiError(422, "too_many_fields", f"send at most {max_fields} form fields")
    if message.startswith(("Part exceeded", "Field exceeded")):
        return ApiError(
            422, "text_too_long", f"a form field is longer than {max_field_bytes} bytes"
        )
    return ApiError(422, "invalid_request", "the multipart body is malformed")


async def read_multipart(
    request: Request, *, max_files: int, max_fields: int, max_field_bytes: int
) -> FormData:
    """The form of a multipart/form-data request; ApiError (422) when it breaks a rule."""
    parser = StrictMultiPartParser(
        request.headers,
        request.stream(),
        max_files=max_files,
        max_fields=max_fields,
        max_part_size=max_field_bytes,
    )
    try:
        return await parser.parse()
    except MultiPartException as exc:
        raise _as_api_error(
            exc.message,
            max_files=max_files,
            max_fields=max_fields,
            max_field_bytes=max_field_bytes,
        ) from None


def max_field_bytes(max_text_chars: int) -> int:
    """A text field may hold max_text_chars characters of up to four UTF-8 bytes each."""
    return max(4 * max_text_chars, 1024)
