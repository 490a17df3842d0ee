"""The ink of a page: dark pixels, straightened, cut into connected pieces (glyphs, bars).

What the layout step reasons over: every piece of ink is one `Glyph` with its box. A reading
that leaves a glyph unexplained is incomplete, so tiny specks (JPEG noise, dust) are told apart
here: they never count as unexplained on their own, but are kept with the text they sit in
(a decimal point is small too).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

# Beyond this fraction of dark pixels the page is not black print on a light background
# (a photo of a desk, a shadow): the layout step does not try to explain it.
MAX_INK_FRACTION = 0.35
_MAX_THRESHOLD = 128
_MIN_ANGLE_DEG = 0.3  # below this a page is read as it is
_MAX_ANGLE_DEG = 8.0  # beyond this the estimate is not trusted


@dataclass(frozen=True, slots=True)
class Glyph:
    label: int  # its pixels are `labels == label`
    left: int
    top: int
    right: int  # exclusive
    bottom: int  # exclusive
    area: int

    @property
    def width(self) -> int:
        return self.right - self.left

    @property
    def height(self) -> int:
        return self.bottom - self.top

    @property
    def centre_x(self) -> float:
        return (self.left + self.right) / 2

    @property
    def centre_y(self) -> float:
        return (self.top + self.bottom) / 2


@dataclass(frozen=True, slots=True)
class Ink:
    gray: NDArray[np.uint8]  # the straightened page, 0 = black
    labels: NDArray[np.int32]  # connected-component label of each pixel (0: paper)
    glyphs: list[Glyph]  # every piece of ink, specks included
    char_height: float  # the median height of the pieces that look like characters
    angle: float  # degrees the page was turned back by
    # Pieces of ink lighter than the dark threshold and away from any darker ink (a thin,
    # blurred stroke): this binarization lost them, so it cannot explain the page.
    faint_pieces: int = 0

    def is_speck(self, glyph: Glyph) -> bool:
        return glyph.area < 0.006 * self.char_height**2

    def is_bar(self, glyph: Glyph) -> bool:
        """A thin, solid horizontal stroke: minus, a fraction bar, half of '='."""
        thin = glyph.height <= max(0.22 * self.char_height, 3)
        solid = glyph.area >= 0.55 * glyph.width * glyph.height
        return thin and solid and glyph.width >= max(2.5 * glyph.height, 0.3 * self.char_height)


def to_gray(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_RGB2GRAY), dtype=np.uint8)


def _binarize(gray: NDArray[np.uint8], dark: bool) -> NDArray[np.uint8]:
    """Otsu's threshold; `dark`: never lighter than mid-grey (a blurred photo's light halo
    joins a fraction's bar to its numerator, but thin strokes may break)."""
    otsu, _ = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    level = min(otsu, _MAX_THRESHOLD) if dark else otsu
    _, binary = cv2.threshold(gray, level, 255, cv2.THRESH_BINARY_INV)
    return np.asarray(binary, dtype=np.uint8)


def _glyphs(binary: NDArray[np.uint8]) -> tuple[NDArray[np.int32], list[Glyph]]:
    count, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    glyphs = [
        Glyph(
            label,
            int(stats[label, cv2.CC_STAT_LEFT]),
            int(stats[label, cv2.CC_STAT_TOP]),
            int(stats[label, cv2.CC_STAT_LEFT] + stats[label, cv2.CC_STAT_WIDTH]),
            int(stats[label, cv2.CC_STAT_TOP] + stats[label, cv2.CC_STAT_HEIGHT]),
            int(stats[label, cv2.CC_STAT_AREA]),
        )
        for label in range(1, count)
    ]
    return np.asarray(labels, dtype=np.int32), glyphs


def char_height_of(glyphs: list[Glyph]) -> float:
    """Median height of pieces that are neither specks nor strokes (a first, rough cut)."""
    if not glyphs:
        return 0.0
    biggest = max(g.height for g in glyphs)
    candidates = [
        g.height
        for g in glyphs
        if g.height >= 0.25 * biggest and g.width <= 2.5 * g.height and g.area >= 12
    ]
    return float(np.median(candidates)) if candidates else float(biggest)


def _skew(binary: NDArray[np.uint8], glyphs: list[Glyph], char_height: float) -> float:
    """The page's tilt in degrees, from its long horizontal strokes (fraction bars, minus
    signs), else from the baseline of the pieces' bottoms; 0 when unsure."""
    strokes = [g for g in glyphs if g.width >= 1.5 * char_height and g.height <= 0.5 * char_height]
    if strokes:
        longest = max(strokes, key=lambda g: g.width)
        ys, xs = np.nonzero(binary[longest.top : longest.bottom, longest.left : longest.right])
        if len(xs) > 10 and np.ptp(xs) > 0:
            slope = float(np.polyfit(xs.astype(float), ys.astype(float), 1)[0])
            return -math.degrees(math.atan(slope))
    return 0.0


def find_ink(
    image: NDArray[np.uint8],
    *,
    dark: bool = True,
    straighten: bool = True,
    tilt_hint: float | None = None,
) -> Ink | None:
    """The page's ink (straightened unless told not to); None when the page is not dark
    print on light paper."""
    gray = to_gray(image)
    binary = _binarize(gray, dark)
    if not binary.any() or np.count_nonzero(binary) > MAX_INK_FRACTION * binary.size:
        return None
    labels, glyphs = _glyphs(binary)
    char_height = char_height_of(glyphs)
    angle = _skew(binary, glyphs, char_height)
    if angle == 0.0 and tilt_hint is not None:
        angle = tilt_hint  # no long stroke: the line reader's boxes say how the text runs
    if straighten and _MIN_ANGLE_DEG <= abs(angle) <= _MAX_ANGLE_DEG:
        height, width = gray.shape
        turn = cv2.getRotationMatrix2D((width / 2, height / 2), -angle, 1.0)
        gray = np.asarray(
            cv2.warpAffine(gray, turn, (width, height), flags=cv2.INTER_CUBIC, borderValue=(255,)),
            dtype=np.uint8,
        )
        binary = _binarize(gray, dark)
        labels, glyphs = _glyphs(binary)
        char_height = char_height_of(glyphs)
    else:
        angle = 0.0
    faint = _faint_pieces(gray, binary, char_height) if dark else 0
    return Ink(gray, labels, glyphs, char_height, angle, faint)


def _faint_pieces(gray: NDArray[np.uint8], dark: NDArray[np.uint8], char_height: float) -> int:
    """Pieces of Otsu's ink more than two pixels from the dark threshold's ink."""
    light = _binarize(gray, dark=False)
    near_dark = cv2.dilate(dark, np.ones((5, 5), np.uint8))
    lost = np.asarray(cv2.bitwise_and(light, cv2.bitwise_not(near_dark)), dtype=np.uint8)
    if not lost.any():
        return 0
    count, _, stats, _ = cv2.connectedComponentsWithStats(lost, connectivity=8)
    smallest = 0.006 * char_height**2
    return int(sum(stats[i, cv2.CC_STAT_AREA] >= smallest for i in range(1, count)))
