"""Photos of typeset math, drawn here: matplotlib's mathtext in a chosen math font, then the
things a phone does to a page (a slight rotation, blur, JPEG). Used by `bench ocr` and the OCR
tests, so no binary fixture is ever needed."""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageFilter, ImageFont

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

FONTSETS = ("dejavusans", "cm", "stix")
# Handwriting-like fonts from Debian packages (fonts-humor-sans, fonts-dkg-handwriting,
# fonts-breip, fonts-klee), drawn through mathtext's custom font set: letters and digits in
# the font, signs it lacks (the radical) from Computer Modern. Used where installed.
HANDWRITING: dict[str, tuple[str, ...]] = {
    "humor": ("Humor-Sans.ttf",),
    "dkg": ("dkg.ttf",),
    "breip": ("Breip.ttf",),
    "klee": ("KleeOne-Regular.ttf",),
}


@dataclass(frozen=True, slots=True)
class PhotoStyle:
    fontset: str = "dejavusans"
    size: int = 28  # points at 100 dpi
    rotation: float = 0.0  # degrees, counter-clockwise
    blur: float = 0.0  # Gaussian radius in pixels
    jpeg_quality: int | None = None  # None: PNG
    prefix: str = ""  # plain text before the formula ("Solve: ", "解方程：")


@cache
def _system_fonts() -> tuple[str, ...]:
    from matplotlib import font_manager

    return tuple(sorted(font_manager.findSystemFonts()))


@cache
def cjk_font() -> str | None:
    """A font file that has Chinese glyphs, if this machine has one (DejaVu has none):
    a regular sans face first (Debian's fonts-noto-cjk: NotoSansCJK-Regular.ttc)."""
    from matplotlib import font_manager

    keys = ("CJK", "WenQuanYi", "wqy", "Hei", "Ming", "Song", "Kai")
    found = [
        entry.fname
        for entry in font_manager.fontManager.ttflist
        if any(key in entry.name for key in keys)
    ]
    # matplotlib's font list is cached: a font installed since is only on the disk.
    found += [path for path in _system_fonts() if any(key in Path(path).name for key in keys)]
    if not found:
        return None
    return min(found, key=lambda path: ("Sans" not in path, "Regular" not in path, path))


def handwriting_fonts() -> tuple[str, ...]:
    """The handwriting-like fonts of HANDWRITING installed on this machine."""
    return tuple(key for key in HANDWRITING if _font_file(key) is not None)


@cache
def _font_file(key: str) -> str | None:
    names = HANDWRITING.get(key, ())
    return next((path for path in _system_fonts() if Path(path).name in names), None)


def render_math(latex: str, style: PhotoStyle = PhotoStyle()) -> bytes:
    """`latex` (mathtext, no $) drawn black on white with a margin, then photographed."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import mathtext, rc_context
    from matplotlib.font_manager import FontProperties

    buffer = io.BytesIO()
    with rc_context(_font_settings(style.fontset)):
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


def _font_settings(fontset: str) -> dict[RcKeyType, Any]:
    """mathtext's settings for one of its own font sets, or a handwriting-like font."""
    if fontset not in HANDWRITING:
        return {"mathtext.fontset": fontset}
    from matplotlib import font_manager
    from matplotlib.font_manager import FontProperties

    path = _font_file(fontset)
    if path is None:
        raise LookupError(f"the {fontset} font is not installed on this machine")
    font_manager.fontManager.addfont(path)
    # The font has no big radical sign (mathtext logs each fallback to Computer Modern's)
    # and one weight (the font manager logs that it uses it).
    logging.getLogger("matplotlib.mathtext").setLevel(logging.ERROR)
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    name = FontProperties(fname=path).get_name()
    return {
        "mathtext.fontset": "custom",
        "mathtext.rm": name,
        "mathtext.it": name,
        "mathtext.bf": name,
        "mathtext.sf": name,
        "mathtext.tt": name,
        "mathtext.cal": name,
    }


def _with_prefix(formula: Image.Image, prefix: str, size: int) -> Image.Image:
    from PIL import ImageDraw

    from solveverify_bench.images import FONT

    has_cjk = any("\u3400" <= c <= "\u9fff" or "\uff00" <= c <= "\uffef" for c in prefix)
    path = cjk_font() if has_cjk else FONT
    if path is None:
        raise LookupError("no font with Chinese glyphs on this machine")
    font = _truetype(path, round(size * 100 / 72))
    left, top, right, bottom = font.getbbox(prefix)
    width = int(right - left) + 8
    height = max(formula.height, int(bottom - top))
    joined = Image.new("RGB", (width + formula.width, height), "white")
    ImageDraw.Draw(joined).text(
        (-left, (height - (bottom - top)) // 2 - top), prefix, fill="black", font=font
    )
    joined.paste(formula, (width, (height - formula.height) // 2))
    return joined


def _truetype(path: str, size: int) -> ImageFont.FreeTypeFont:
    """The font at `path`; in a collection (.ttc), its Simplified Chinese face if it has one."""
    from PIL import ImageFont

    if not path.endswith(".ttc"):
        return ImageFont.truetype(path, size)
    faces: list[ImageFont.FreeTypeFont] = []
    for index in range(16):
        try:
            faces.append(ImageFont.truetype(path, size, index=index))
        except OSError:
            break
    chinese = [f for f in faces if " SC" in str(f.getname()[0])]
    return (chinese or faces)[0]
