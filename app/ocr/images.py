"""Images on a memory budget: sized from the header, decoded small, shaped for the detector.

`inspect_header` reads only the header (Image.open does not decode), so a decompression bomb
or a 39,000,000 × 1 strip is refused before a byte of pixels exists. `decode_for_ocr` asks
JPEG for a smaller decode (DCT scaling via `draft`), shrinks anything else with `reduce`
(a box filter: fast and exact enough for text), flattens transparency onto white, and pads
long strips: PP-OCR's detector scales the shortest side up to ~736 px, so an unpadded
2000 × 40 strip would become a 37,000 × 736 tensor.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from PIL import Image, ImageOps

from app.ocr.errors import ImageTooLarge, ImageUnreadable

# Beyond this the detector's upscaling of the short side costs more than the text is worth.
MAX_OCR_ASPECT = 4.0
_WIDE_INTEGER_MODES = ("I", "I;16", "I;16B", "I;16L", "I;16N", "F")


@dataclass(frozen=True, slots=True)
class ImageHeader:
    format: str
    mode: str
    width: int
    height: int


def inspect_header(data: bytes, *, max_pixels: int, max_aspect_ratio: float) -> ImageHeader:
    """Size and kind from the header alone; raises ImageTooLarge or ImageUnreadable."""
    try:
        with Image.open(io.BytesIO(data)) as picture:
            header = ImageHeader(picture.format or "", picture.mode, *picture.size)
    except Image.DecompressionBombError:  # Pillow's own limit, far above ours
        raise ImageTooLarge(max_pixels + 1, max_pixels) from None
    except Exception:  # truncated header, bad chunk, not an image after all
        raise ImageUnreadable("corrupt_image", "the image header cannot be read") from None
    pixels = header.width * header.height
    if pixels > max_pixels:
        raise ImageTooLarge(pixels, max_pixels)
    if min(header.width, header.height) < 1:
        raise ImageUnreadable("corrupt_image", "the image has no pixels")
    if max(header.width, header.height) / min(header.width, header.height) > max_aspect_ratio:
        raise ImageUnreadable(
            "image_aspect_ratio",
            f"the image is {header.width} × {header.height}; "
            f"sides may differ by at most {max_aspect_ratio:g} times",
        )
    return header


def decode_for_ocr(data: bytes, *, max_side: int) -> Image.Image:
    """An RGB image with its longest side ≤ max_side; raises ImageUnreadable."""
    try:
        with Image.open(io.BytesIO(data)) as picture:
            picture.draft("RGB", (max_side, max_side))  # JPEG only; a no-op elsewhere
            picture.load()
            small = _shrink(picture, max_side)
            rgb = _to_rgb(small)
    except ImageUnreadable:
        raise
    except Exception:  # truncated data, CRC errors, broken Huffman tables, odd modes
        raise ImageUnreadable(
            "corrupt_image", "the image is truncated or corrupt and cannot be decoded"
        ) from None
    return _pad_long_strip(rgb)


def _shrink(picture: Image.Image, max_side: int) -> Image.Image:
    if picture.mode in ("P", "PA", "1"):  # palette images cannot be box-filtered
        picture = picture.convert("RGBA" if "transparency" in picture.info else "L")
    elif picture.mode in _WIDE_INTEGER_MODES:
        picture = _to_8bit(picture)
    factor = math.ceil(max(picture.size) / max_side)
    return picture.reduce(factor) if factor > 1 else picture.copy()


def _to_8bit(picture: Image.Image) -> Image.Image:
    """16-bit and float greyscale, stretched to 0..255 (a plain convert clips at 255)."""
    extrema = picture.getextrema()  # one band: (low, high)
    low, high = float(extrema[0]), float(extrema[1])  # type: ignore[arg-type]  # one band: a (low, high) pair
    scale = 255.0 / (high - low) if high > low else 1.0
    return picture.convert("F").point(lambda v: (v - low) * scale).convert("L")


def _to_rgb(picture: Image.Image) -> Image.Image:
    if picture.mode == "RGB":
        return picture
    if "A" in picture.mode or "transparency" in picture.info:
        rgba = picture.convert("RGBA")
        white = Image.new("RGBA", rgba.size, "white")
        return Image.alpha_composite(white, rgba).convert("RGB")
    return picture.convert("RGB")


def _pad_long_strip(picture: Image.Image) -> Image.Image:
    width, height = picture.size
    if max(width, height) <= MAX_OCR_ASPECT * min(width, height):
        return picture
    target_short = math.ceil(max(width, height) / MAX_OCR_ASPECT)
    pad_x = max(0, target_short - width) if width < height else 0
    pad_y = max(0, target_short - height) if height <= width else 0
    border = (pad_x // 2, pad_y // 2, pad_x - pad_x // 2, pad_y - pad_y // 2)
    return ImageOps.expand(picture, border=border, fill="white")
