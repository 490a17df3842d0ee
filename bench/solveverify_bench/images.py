"""Problem images drawn with Pillow (tests and the OCR benchmark; no binary fixtures)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(FONT, size)
    except OSError:  # no DejaVu: Pillow's bundled scalable font
        return ImageFont.load_default(size=size)


def draw_text(text: str, *, size: int = 56, fmt: str = "PNG") -> bytes:
    typeface = font(size)
    left, top, right, bottom = ImageDraw.Draw(Image.new("RGB", (1, 1))).textbbox(
        (0, 0), text, font=typeface
    )
    image = Image.new("RGB", (int(right - left) + 80, int(bottom - top) + 80), "white")
    ImageDraw.Draw(image).text((40 - left, 40 - top), text, fill="black", font=typeface)
    buffer = io.BytesIO()
    image.save(buffer, fmt)
    return buffer.getvalue()
