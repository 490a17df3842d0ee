"""Check an uploaded image before anything expensive touches it.

Size is capped while reading (never trusting Content-Length alone), the type comes from the
bytes (a PDF named .png is still a PDF), and the pixel count and shape are read from the
header, so a decompression bomb (413) or a 39,000,000 × 1 strip (422) is refused before it is
decoded. A PNG's chunks are CRC-checked here too (cheap, no decompression); truncated pixel
data that only decoding finds is a 422 from OCR.

Inspection runs in a worker thread, never on the event loop, and its work is bounded: the
chunk / marker walk stops at `max_segments` (app/ocr/image_structure.py) before Pillow sees
the file, so no upload can stall other requests.
"""

from __future__ import annotations

import asyncio
import io

from fastapi import UploadFile
from PIL import Image

from app.api.errors import ApiError
from app.ocr.errors import ImageTooLarge, ImageUnreadable
from app.ocr.image_structure import image_size
from app.ocr.images import inspect_header

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


def _inspect(
    data: bytes, kind: str, *, max_pixels: int, max_aspect_ratio: float, max_segments: int
) -> None:
    """Blocking (Pillow): called in a worker thread."""
    size = image_size(data, kind, max_segments)
    if size is not None and size[0] * size[1] > max_pixels:
        raise ImageTooLarge(size[0] * size[1], max_pixels)  # the real count, not Pillow's
    inspect_header(data, max_pixels=max_pixels, max_aspect_ratio=max_aspect_ratio)
    if kind == "image/png" and not _png_chunks_intact(data):
        raise ImageUnreadable("corrupt_image", "the PNG is truncated or its data is corrupt")


async def read_image(
    upload: UploadFile,
    *,
    max_bytes: int,
    max_pixels: int,
    max_aspect_ratio: float = 50.0,
    max_segments: int = 10_000,
) -> bytes:
    data = await _read_capped(upload, max_bytes)
    # ImageTooLarge (413) and ImageUnreadable (422) are answered as they are.
    await asyncio.to_thread(
        inspect_image,
        data,
        max_pixels=max_pixels,
        max_aspect_ratio=max_aspect_ratio,
        max_segments=max_segments,
    )
    return data


def inspect_image(
    data: bytes, *, max_pixels: int, max_aspect_ratio: float = 50.0, max_segments: int = 10_000
) -> None:
    """The checks an upload passes before it is decoded (also the CLI's for a file): a PNG
    or JPEG, within the pixel limit, its header and chunks intact. Blocking (Pillow)."""
    if not data:
        raise ApiError(422, "empty_image", "the uploaded image is empty")
    kind = sniff(data[:16])
    if kind is None:
        raise ApiError(
            415,
            "unsupported_media_type",
            "the upload is not a PNG or JPEG image (checked from its bytes)",
        )
    _inspect(
        data,
        kind,
        max_pixels=max_pixels,
        max_aspect_ratio=max_aspect_ratio,
        max_segments=max_segments,
    )
