"""Read a multipart body with the app's own limits, strictness and error codes.

Starlette's parser decodes a text field that is not UTF-8 as Latin-1 (so `2+2 \\xff\\xfe` would
be stored as "2+2 ÿþ") and answers its limits with a 400 in its own words. Here text fields
must be UTF-8 (422 `invalid_text`), and each limit is a 422 with the envelope's codes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, cast

from fastapi import Request
from fastapi import UploadFile as FastApiUploadFile
from pydantic import BaseModel
from starlette.datastructures import FormData, UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from app.api.errors import ApiError, parse_or_422, sent_more_than_once
from app.api.uploads import read_image
from app.settings import InputSettings

Form = TypeVar("Form", bound=BaseModel)

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


async def read_image_form(
    request: Request, limits: InputSettings, form_model: type[Form], fields: Sequence[str]
) -> tuple[Form, bytes, str | None]:
    """A multipart body of one `image` and text `fields`: the fields are validated first (a bad
    request costs no decoding; unknown fields are named in the 422 by extra="forbid"), then
    the image is read within the limits. Returns (fields, image bytes, its content type)."""
    form = await read_multipart(
        request,
        max_files=1,
        max_fields=len(fields) + 4,  # room for unknown fields, named in the 422
        max_field_bytes=max_field_bytes(limits.max_text_chars),
    )
    repeated = [key for key in set(form.keys()) if len(form.getlist(key)) > 1]
    if repeated:
        raise sent_more_than_once(repeated)
    upload = form.get("image")
    if not isinstance(upload, UploadFile):
        raise ApiError(422, "missing_image", "multipart uploads need an 'image' file field")
    values: dict[str, Any] = {k: v for k in fields if (v := _text(form, k)) is not None}
    values.update({k: "" for k in sorted(set(form.keys()) - {"image", *fields})})
    checked = parse_or_422(form_model, values, max_text_chars=limits.max_text_chars)
    image = await read_image(
        # read_image only reads: starlette's UploadFile (what forms hold) is all it needs.
        cast(FastApiUploadFile, upload),
        max_bytes=limits.max_upload_bytes,
        max_pixels=limits.max_image_pixels,
        max_aspect_ratio=limits.max_image_aspect_ratio,
        max_segments=limits.max_image_segments,
    )
    return checked, image, upload.content_type


def _text(form: FormData, key: str) -> str | None:
    """A blank field is an absent one (browsers send every input of a form)."""
    value = form.get(key)
    return value.strip() or None if isinstance(value, str) else None
