"""Check an uploaded image before anything expensive touches it.

Size is capped while reading (never trusting Content-Length alone), the type comes from the
bytes (a PDF named .png is still a PDF), and the pixel count and shape are read from the
header, so a decompression bomb (413) or a 39,000,000 × 1 strip (422) is refused before it is
decoded. A PNG's chunks are CRC-checked here too (cheap, no decompression); truncated pixel
data that only decoding finds is a 422 from OCR.
"""

from __future__ import annotations

import io

from fastapi import UploadFile
from PIL import Image

from app.api.errors import ApiError
from app.ocr.errors import ImageUnreadable
from app.ocr.images import ImageTooLarge, inspect_header

_SIGNATURES = {
    b"\x89PNG\r\n\x1a\n": "image/png",
    b"\xff\xd8\xff": "image/jpeg",
}
CHUNK = 1 << 16


def sniff(head: bytes) -> str | None:
    return next((kind for sig, kind in _SIGNATURES.items() if head.startswith(sig)), None)


async def _read_capped(upload: UploadFile, max_bytes: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while chunk := await upload.read(CHUNK):
        size += len(chunk)
        if size > max_bytes:
            raise ApiError(
                413,
                "payload_too_large",
                f"image is larger than the {max_bytes // (1024 * 1024)} MB limit",
            )
        chunks.append(chunk)
    return b"".join(chunks)


def _png_chunks_intact(data: bytes) -> bool:
    try:
        with Image.open(io.BytesIO(data)) as picture:
            picture.verify()
    except Exception:
        return False
    return True


async def read_image(
    upload: UploadFile, *, max_bytes: int, max_pixels: int, max_aspect_ratio: float = 50.0
) -> bytes:
    data = await _read_capped(upload, max_bytes)
    if not data:
        raise ApiError(422, "empty_image", "the uploaded image is empty")
    kind = sniff(data[:16])
    if kind is None:
        raise ApiError(
            415,
            "unsupported_media_type",
            "the upload is not a PNG or JPEG image (checked from its bytes)",
        )
    try:
        inspect_header(data, max_pixels=max_pixels, max_aspect_ratio=max_aspect_ratio)
    except ImageTooLarge as exc:
        raise ApiError(
            413,
            "image_too_large",
            f"image has {exc.pixels} pixels; the limit is {exc.limit}",
        ) from None
    except ImageUnreadable as exc:
        raise ApiError(422, exc.code, exc.message) from None
    if kind == "image/png" and not _png_chunks_intact(data):
        raise ApiError(422, "corrupt_image", "the PNG is truncated or its data is corrupt")
    return data
