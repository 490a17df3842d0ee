"""Check an uploaded image before anything expensive touches it.

Size is capped while reading (never trusting Content-Length alone), the type comes from the
bytes (a PDF named .png is still a PDF), and the pixel count is read from the header so a
decompression bomb is refused before it is decoded.
"""

from __future__ import annotations

import io

from fastapi import UploadFile
from PIL import Image

from app.api.errors import ApiError

_SIGNATURES = {
    b"\x89PNG\r\n\x1a\n": "image/png",
    b"\xff\xd8\xff": "image/jpeg",
}
CHUNK = 1 << 16


def sniff(head: bytes) -> str | None:
    return next((kind for sig, kind in _SIGNATURES.items() if head.startswith(sig)), None)


async def read_image(upload: UploadFile, *, max_bytes: int, max_pixels: int) -> bytes:
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
    data = b"".join(chunks)
    if not data:
        raise ApiError(422, "empty_image", "the uploaded image is empty")
    if sniff(data[:16]) is None:
        raise ApiError(
            415,
            "unsupported_media_type",
            "the upload is not a PNG or JPEG image (checked from its bytes)",
        )
    try:
        with Image.open(io.BytesIO(data)) as picture:
            width, height = picture.size
    except Exception as exc:  # truncated or corrupt despite a valid signature
        raise ApiError(422, "corrupt_image", f"the image cannot be decoded: {exc}") from exc
    if width * height > max_pixels:
        raise ApiError(
            413, "image_too_large", f"image has {width * height} pixels; the limit is {max_pixels}"
        )
    return data
