"""Hostile and odd images, built in memory."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image

from tests.fixtures.images import draw_text


def encode(image: Image.Image, fmt: str = "PNG", **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_header_only(width: int, height: int, mode_bits: tuple[int, int] = (8, 0)) -> bytes:
    """A PNG that claims width × height (greyscale) with one empty IDAT: the header is valid,
    the pixel data is not there. Costs nothing to build however large it claims to be."""
    depth, colour = mode_bits
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b""))
        + _chunk(b"IEND", b"")
    )


def corrupt_middle(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes(b ^ 0x5A for b in data[middle : middle + 64]) + data[middle + 64 :]


def problem_png() -> bytes:
    return draw_text("2x + 3 = 11", size=40)


def problem_jpeg() -> bytes:
    return draw_text("2x + 3 = 11", size=40, fmt="JPEG")


def cmyk_jpeg() -> bytes:
    return encode(Image.open(io.BytesIO(problem_jpeg())).convert("CMYK"), "JPEG")


def sixteen_bit_png() -> bytes:
    grey = Image.open(io.BytesIO(problem_png())).convert("L")
    return encode(grey.convert("I;16"))  # values 0..255 of 65535: stretched before OCR


def palette_png() -> bytes:
    return encode(
        Image.open(io.BytesIO(problem_png())).convert("P", palette=Image.Palette.ADAPTIVE)
    )


def transparent_png() -> bytes:
    rgba = Image.open(io.BytesIO(problem_png())).convert("RGBA")
    rgba.putalpha(rgba.convert("L").point(lambda v: 255 - v))  # black text on nothing
    return encode(rgba)


def animated_png() -> bytes:
    frames = [Image.open(io.BytesIO(problem_png())).convert("RGB"), Image.new("RGB", (50, 50))]
    return encode(frames[0], "PNG", save_all=True, append_images=frames[1:])


def gif_named_png() -> bytes:
    return encode(Image.open(io.BytesIO(problem_png())).convert("P"), "GIF")


def png_chunk_flood(chunks: int = 800_000) -> bytes:
    """A real problem PNG with `chunks` empty tEXt chunks after its IHDR (~9.6 MB): every
    chunk is valid, so only the number of them is hostile."""
    base = problem_png()
    return base[:33] + _chunk(b"tEXt", b"") * chunks + base[33:]


def jpeg_marker_flood(segments: int = 2_000_000, marker: bytes = b"\xff\xfe") -> bytes:
    """SOI then `segments` empty COM (or APP1: b"\\xff\\xe1") segments, then a real JPEG."""
    return b"\xff\xd8" + (marker + b"\x00\x02") * segments + problem_jpeg()[2:]
