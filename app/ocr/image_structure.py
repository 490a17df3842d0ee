"""Walk an image file's structure (PNG chunks, JPEG marker segments) without Pillow, bounded.

Pillow's `Image.open` / `verify` visit every chunk or marker segment in Python: a 9.6 MB PNG
of 800,000 empty tEXt chunks, or a JPEG of two million empty COM segments, costs seconds of
CPU before a single pixel. Real photos have tens of segments, so more than `max_segments`
is refused as corrupt after a walk of at most that many steps. The walk also reads the
image's real size (IHDR, SOF) for the size check: Pillow's own bomb guard reports no size.
"""

from __future__ import annotations

import struct

from app.ocr.errors import ImageUnreadable

_PNG_SIGNATURE_BYTES = 8
# SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC): they carry the frame's size.
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_JPEG_STANDALONE = frozenset({0x01, *range(0xD0, 0xD8)})  # TEM, RST0..7: no length field
_JPEG_SOS, _JPEG_EOI = 0xDA, 0xD9


def _too_many(max_segments: int) -> ImageUnreadable:
    return ImageUnreadable(
        "corrupt_image", f"the image has more than {max_segments} metadata segments"
    )


def png_size(data: bytes, max_segments: int) -> tuple[int, int] | None:
    """(width, height) from IHDR; ImageUnreadable beyond max_segments chunks. Truncation is
    left to Pillow (None when the IHDR is not there)."""
    size: tuple[int, int] | None = None
    position, count = _PNG_SIGNATURE_BYTES, 0
    while position + 8 <= len(data):
        length, kind = struct.unpack_from(">I4s", data, position)
        count += 1
        if count > max_segments:
            raise _too_many(max_segments)
        if kind == b"IHDR" and position + 16 <= len(data):
            size = struct.unpack_from(">II", data, position + 8)
        if kind == b"IEND":
            break
        position += 12 + length  # length, type, data, CRC
    return size


def jpeg_size(data: bytes, max_segments: int) -> tuple[int, int] | None:
    """(width, height) from the SOF segment; ImageUnreadable beyond max_segments segments
    before the first scan (all Pillow reads when it opens the file)."""
    size: tuple[int, int] | None = None
    position, count = 2, 0  # after SOI
    while position + 1 < len(data):
        if data[position] != 0xFF:
            break  # not a marker: Pillow reports the corruption
        while position < len(data) and data[position] == 0xFF:
            position += 1  # fill bytes
        if position >= len(data):
            break
        marker = data[position]
        position += 1
        count += 1
        if count > max_segments:
            raise _too_many(max_segments)
        if marker in _JPEG_STANDALONE:
            continue
        if marker == _JPEG_EOI or position + 2 > len(data):
            break
        (length,) = struct.unpack_from(">H", data, position)
        if marker in _JPEG_SOF and position + 7 <= len(data):
            height, width = struct.unpack_from(">HH", data, position + 3)
            size = (width, height)
        if marker == _JPEG_SOS:
            break
        position += length
    return size


def image_size(data: bytes, kind: str, max_segments: int) -> tuple[int, int] | None:
    """`kind`: the sniffed type, image/png or image/jpeg."""
    if kind == "image/png":
        return png_size(data, max_segments)
    return jpeg_size(data, max_segments)
