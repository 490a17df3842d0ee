"""Photos of typeset math, drawn here: matplotlib's mathtext in a chosen math font, then the
things a phone does to a page (a slight rotation, blur, JPEG). Used by `bench ocr` and the OCR
tests, so no binary fixture is ever needed."""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageFilter

FONTSETS = ("dejavusans", "cm", "stix")


@dataclass(frozen=True, slots=True)
class PhotoStyle:
    fontset: str = "dejavusans"
    size: int = 28  # points at 100 dpi
    rotation: float = 0.0  # degrees, counter-clockwise
    blur: float = 0.0  # Gaussian radius in pixels
    jpeg_quality: int | None = None  # None: PNG
    prefix: str = ""  # plain text before the formula ("Solve: ", "解方程：")


@cache
def cjk_font() -> str | None:
    """A font file that has Chinese glyphs, if this machine has one (DejaVu has none)."""
    from matplotlib import font_manager

    for entry in font_manager.fontManager.ttflist:
        if any(key in entry.name for key in ("CJK", "WenQuanYi", "Hei", "Ming", "Song", "Kai")):
            return str(entry.fname)
    return None


def render_math(latex: str, style: PhotoStyle = PhotoStyle()) -> bytes:
    """`latex` (mathtext, no $) drawn black on white with a margin, then photographed."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import mathtext, rc_context
    from matplotlib.font_manager import FontProperties

    buffer = io.BytesIO()
    with rc_context({"mathtext.fontset": style.fontset}):
        mathtext.math_to_image(
            f"${latex}$", buffer, prop=FontProperties(size=style.size), dpi=100, format="png"
        )
    formula = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")
    picture = _with_prefix(formula, style.prefix, style.size) if style.prefix else formula
    margin = max(20, style.size)
    page = Image.new("RGB", (picture.width + 2 * margin, picture.height + 2 * margin), "white")
    page.paste(picture, (margin, margin))
    if style.rotation:
        page = page.rotate(
            style.rotation, resample=Image.Resampling.BICUBIC, expand=True, fillcolor="white"
        )
    if style.blur:
        page = page.filter(ImageFilter.GaussianBlur(style.blur))
    out = io.BytesIO()
    if style.jpeg_quality is None:
        page.save(out, "PNG")
    else:
        page.save(out, "JPEG", quality=style.jpeg_quality)
    return out.getvalue()


def _with_prefix(formula: Image.Image, prefix: str, size: int) -> Image.Image:
    from PIL import ImageDraw, ImageFont

    from app.bench.images import FONT

    has_cjk = any("\u3400" <= c <= "\u9fff" or "\uff00" <= c <= "\uffef" for c in prefix)
    path = cjk_font() if has_cjk else FONT
    if path is None:
        raise LookupError("no font with Chinese glyphs on this machine")
    font = ImageFont.truetype(path, round(size * 100 / 72))
    left, top, right, bottom = font.getbbox(prefix)
    width = int(right - left) + 8
    height = max(formula.height, int(bottom - top))
    joined = Image.new("RGB", (width + formula.width, height), "white")
    ImageDraw.Draw(joined).text(
        (-left, (height - (bottom - top)) // 2 - top), prefix, fill="black", font=font
    )
    joined.paste(formula, (width, (height - formula.height) // 2))
    return joined
