"""Does the reading account for the whole picture? And when the picture has structure a line
reader cannot see (fractions, radicals, powers), read it from its layout instead.

A line recognizer silently drops what is stacked: `\\frac{x}{4} = 3` comes back as `x=3`, a
different problem that the solver then proves. So the plain reading is trusted only when every
piece of ink lies in a recognized box, no box has fewer symbols than columns of ink, and
nothing in it is stacked. Otherwise the layout step (app/ocr/math_reading.py) reads the page;
when it too cannot explain every piece of ink, the reading is incomplete (`unread` says why)
and the scan must not be verified.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from itertools import combinations

import cv2
import numpy as np
from numpy.typing import NDArray

from app.ocr.ink import Glyph, Ink, find_ink
from app.ocr.math_reading import (
    LinePosition,
    Recognize,
    StructuredReader,
    Unread,
    UnreadStructure,
    has_marks,
    ink_columns,
    plain_symbols,
    stacked,
    too_tall,
)
from app.ocr.prefix import split_words
from app.ocr.structure import Piece, has_structure, lines, overbar, top_level
from app.ocr.words import leading_words, rest_of_line_text

_CJK = re.compile(r"[\u3400-\u9fff]")
_MARKS = re.compile(r"[.·•∙⋅・|√∛∜]")
_WORDS_UNSPLIT = "the Chinese words before the formula could not be told apart from it"


@dataclass(frozen=True, slots=True)
class PageReading:
    text: str
    structured: bool  # read by the layout step (its linear notation), not line by line
    unread: str | None  # why the reading is incomplete; None when it explains all the ink
    confidence: float | None = None  # the layout step's mean recognition score


@dataclass(frozen=True, slots=True)
class TextBox:
    """One box of the line reader: its corners (4 × 2, pixels) and its text."""

    corners: NDArray[np.float32]
    text: str


def _has_scripts(ink: Ink) -> bool:
    for line in lines(top_level(ink)):
        pieces = [n for n in line if isinstance(n, Piece)]
        where = LinePosition.of(pieces)
        if where is None:
            continue
        letters = [p.glyph for p in pieces if not p.bar]
        if any(where.raised(g) and g.height >= 0.4 * where.height for g in letters):
            return True
        if any(where.lowered(g) for g in letters):
            return True
    return False


def half_raised(ink: Ink) -> bool:
    """A symbol in neither place: smaller than the character before it, its top level with
    that character's top, but its bottom only part of the way up (a power written low, as a
    hand does: Breip's `3^2` came out as `32`). Such a symbol is not read either way. A sign
    centred on the line (+, ×) is not level with the tops; a letter (the x of 2x) sits on the
    line."""
    for line in lines(top_level(ink)):
        pieces = [n for n in line if isinstance(n, Piece)]
        where = LinePosition.of(pieces)
        if where is None:
            continue
        # Where most characters end: a base reaching lower (the 'p' before the 'u' of
        # 'Compute', a '|' or a '(') says nothing about where the symbol after it sits.
        bottom = float(np.median([g.bottom for g in where.letters if g.height >= 0.5 * where.size]))
        for glyph in (p.glyph for p in pieces if not p.bar):
            if where.raised(glyph):
                continue
            base = where.base_before(glyph.left + 0.2 * glyph.width)
            if base is None or base.width < 0.35 * base.height:
                continue  # nothing before it, or a '|' or '('
            if base.bottom > bottom + 0.12 * where.size:
                continue
            small = 0.4 * base.height <= glyph.height < 0.8 * base.height
            level = abs(glyph.top - base.top) <= 0.15 * base.height
            lifted = base.bottom - glyph.bottom >= 0.2 * base.height
            if small and level and lifted:
                return True
    return False


def text_tilt(boxes: list[TextBox]) -> float | None:
    """The text's tilt in degrees (the sign `find_ink` turns by), from the line reader's
    boxes: the median slope of their top edges, the long boxes counting most."""
    slopes: list[float] = []
    for box in boxes:
        (x0, y0), (x1, y1) = box.corners[0], box.corners[1]
        width = float(x1 - x0)
        if width > 0:
            slopes += [float(y1 - y0) / width] * max(1, round(width / 20))
    if not slopes:
        return None
    return -math.degrees(math.atan(float(np.median(slopes))))


def needs_layout(ink: Ink, plain_text: str = "") -> bool:
    """Structure, or marks whose meaning is in their ink (a dot halfway up or on the line,
    a stroke that is '|' or '1'): the line reader's text is not trusted with them."""
    nodes = top_level(ink)
    return (
        has_structure(nodes)
        or overbar(nodes, ink.char_height)
        or _has_scripts(ink)
        or bool(_MARKS.search(plain_text))
        or has_marks(ink)
    )


# Boxes that share ink across this much of the smaller one's height, their middles this far
# apart (of the taller one's height), are not one line read in pieces: one is stacked on the
# other.
_SHARED_HEIGHT, _MIDDLES_APART = 0.2, 0.2


def stacked_boxes(boxes: list[TextBox]) -> bool:
    """Whether two of the line reader's boxes overlap one above the other: a fraction whose
    bar was not seen ("3" over "4" beside "+ 1 =" read as the lines "3", "+ 1 =", "4")."""
    bounds = [
        (b.corners[:, 0].min(), b.corners[:, 0].max(), b.corners[:, 1].min(), b.corners[:, 1].max())
        for b in boxes
    ]
    for (left, right, top, bottom), (left2, right2, top2, bottom2) in combinations(bounds, 2):
        low = min(bottom - top, bottom2 - top2)
        high = max(bottom - top, bottom2 - top2)
        shared = min(bottom, bottom2) - max(top, top2)
        apart = abs((top + bottom) - (top2 + bottom2)) / 2
        side_by_side = min(right, right2) <= max(left, left2)
        if not side_by_side and shared > _SHARED_HEIGHT * low and apart > _MIDDLES_APART * high:
            return True
    return False


def plain_gaps(ink: Ink, boxes: list[TextBox]) -> str | None:
    """What the line reader's boxes leave unexplained, or None."""
    if stacked_boxes(boxes):
        return "stacked text (a fraction without its bar?) was read as lines"
    tolerance = 0.05 * ink.char_height  # a box holds its characters with a margin
    members: list[list[Glyph]] = [[] for _ in boxes]
    for glyph in ink.glyphs:
        if ink.is_speck(glyph):
            continue
        centre = (float(glyph.centre_x), float(glyph.centre_y))
        depth = [cv2.pointPolygonTest(box.corners.reshape(-1, 1, 2), centre, True) for box in boxes]
        if not depth or max(depth) < -tolerance:
            return "some of the photo's ink lies outside the text that was read"
        members[int(np.argmax(depth))].append(glyph)  # the box it is deepest inside
    for box, glyphs in zip(boxes, members, strict=True):
        bars = {g.label for g in glyphs if ink.is_bar(g)}
        solid = [g for g in glyphs if g.label not in bars]
        if not solid:
            continue
        if stacked(glyphs, ink.char_height, bars) or too_tall(solid, ink.char_height):
            return "stacked symbols (a fraction?) were not read"
        chars = [c for c in box.text if not c.isspace()]
        if not _CJK.search(box.text) and len(chars) < len(ink_columns(glyphs)):
            return "the text read has fewer symbols than the photo shows"
    return None


def _same(a: str, b: str) -> bool:
    return plain_symbols(unicodedata.normalize("NFKC", a)) == plain_symbols(
        unicodedata.normalize("NFKC", b)
    )


def second_look(ink: Ink, plain_text: str, recognize: Recognize) -> str | None:
    """A one-line formula is read again from its own ink, in both looks of the layout step;
    the line reader's text must come out each time (a '7' it read as '1' rarely does). Lines
    of prose and Chinese are left to the line reader."""
    if not plain_text.strip() or "\n" in plain_text.strip() or _CJK.search(plain_text):
        return None
    glyphs = [g for g in ink.glyphs if not ink.is_speck(g)]
    reader = StructuredReader(ink, recognize)
    for pad, solid in ((0.3, False), (0.8, True)):
        text, _ = recognize(reader.crop(glyphs, pad=pad, solid=solid))
        if not _same(text, plain_text):
            return "a second reading of the photo disagrees with the first"
    return None


CUT_AT_EDGE = "a symbol runs off the edge of the photo: part of the problem may be cut off"
_LONGEST_SYMBOL = 3.0  # character heights: longer ink at the edge is the page's, not a symbol


def cut_at_edge(ink: Ink) -> bool:
    """Whether a character-sized piece of ink touches the photo's edge: the frame may cut a
    digit ("3586" read as "358"; a sliver of a "5" read as "!"), so the reading may not be
    all of it. `ink`: the page as photographed (straightening moves the edges)."""
    height, width = ink.gray.shape
    longest = _LONGEST_SYMBOL * ink.char_height
    return any(
        (g.left <= 0 or g.top <= 0 or g.right >= width or g.bottom >= height)
        and max(g.width, g.height) <= longest
        for g in ink.glyphs
        if not ink.is_speck(g)
    )


_STRUCK = 1.5  # character heights: no symbol has a straight stroke this long that is not upright
_LEVEL_DEG, _UPRIGHT_DEG = 20.0, 60.0
_EDGE = 0.2  # of the piece's height: a level stroke this near its top or bottom is an edge
_ACROSS = 0.7  # of the piece's width: a stroke through it spans most of it


def struck_through(ink: Ink) -> bool:
    """Whether a piece of ink holds a long straight stroke drawn through it: a slanted one,
    or a level one inside it, not along its top or bottom. A line drawn through symbols joins
    them into one piece ("2x + ~~5~~ + 3" was read whole, the strike unseen); a radical's or a
    long division's bar runs along the top of its piece, and minus signs, fraction bars and
    '=' are pieces of their own."""
    longest = _STRUCK * ink.char_height
    for glyph in ink.glyphs:
        # Symbols joined by a stroke across them: wider than tall, and than a long stroke.
        if ink.is_speck(glyph) or ink.is_bar(glyph) or glyph.width < max(longest, glyph.height):
            continue
        box = ink.labels[glyph.top : glyph.bottom, glyph.left : glyph.right]
        mask = np.where(box == glyph.label, 255, 0).astype(np.uint8)
        found = cv2.HoughLinesP(
            mask, 1, np.pi / 180, int(0.8 * ink.char_height), minLineLength=longest, maxLineGap=2
        )
        for x1, y1, x2, y2 in [] if found is None else found.reshape(-1, 4):
            if abs(x2 - x1) < _ACROSS * glyph.width:
                continue  # a stroke of one symbol, not one across the piece
            slope = abs(math.degrees(math.atan2(float(y2 - y1), float(x2 - x1)))) % 180
            slope = min(slope, 180 - slope)
            middle = (y1 + y2) / 2
            inside = _EDGE * glyph.height <= middle <= (1 - _EDGE) * glyph.height
            if (slope < _LEVEL_DEG and inside) or _LEVEL_DEG <= slope < _UPRIGHT_DEG:
                return True
    return False


def read_page(
    image: NDArray[np.uint8], plain_text: str, boxes: list[TextBox], recognize: Recognize
) -> PageReading:
    tilt = text_tilt(boxes)
    ink = find_ink(image, tilt_hint=tilt)
    if ink is None:
        unread = "the photo is not dark print on light paper; its reading cannot be checked"
        return PageReading(plain_text, False, unread if plain_text else None)
    # Not turned, the page's ink is the photograph's own: no second look is needed.
    unturned = find_ink(image, straighten=False) if ink.angle else ink
    if unturned is not None and cut_at_edge(unturned):
        return PageReading(plain_text, False, CUT_AT_EDGE)
    if struck_through(ink):
        return PageReading(plain_text, False, "a line is drawn through symbols (crossed out?)")
    words = leading_words(plain_text)
    if words is not None:
        split = split_words(ink, words, recognize)
        if split is not None:
            return _read_formula(image, split.words, split.formula, plain_text, boxes, recognize)
    return _read_formula(image, "", ink, plain_text, boxes, recognize)


def _read_formula(
    image: NDArray[np.uint8],
    words: str,
    ink: Ink,
    plain_text: str,
    boxes: list[TextBox],
    recognize: Recognize,
) -> PageReading:
    """The page's formula (`ink`: all of the page, or what is right of the leading Chinese
    `words`), read line by line when nothing in it needs the layout step, else from its
    layout; `words` go back in front of the reading."""
    tilt = text_tilt(boxes)
    formula_text = rest_of_line_text(plain_text, words.rstrip("：")) if words else plain_text
    if half_raised(ink):
        return PageReading(plain_text, False, "a symbol sits neither on the line nor raised")
    if not needs_layout(ink, formula_text) and not _unturned_needs_layout(
        image, ink, words, formula_text, recognize
    ):
        flat: Ink | None = ink
        if ink.angle or ink.faint_pieces:  # checked unturned, and with every stroke kept
            flat = find_ink(image, straighten=False)
            if flat is not None and flat.faint_pieces:
                flat = find_ink(image, straighten=False, dark=False)
            if flat is not None and words:
                flat = _formula_of(flat, words, recognize)
                if flat is None:
                    return PageReading(plain_text, False, _WORDS_UNSPLIT)
        gaps = plain_gaps(flat, _formula_boxes(boxes, words)) if flat else None
        return PageReading(plain_text, False, gaps or second_look(ink, formula_text, recognize))
    reason = "the layout of the photo could not be read"
    if words:
        reason = _WORDS_UNSPLIT
    for attempt in _attempts(image, ink, tilt, words, recognize):
        reader = StructuredReader(attempt, recognize)
        try:
            text = reader.read(top_level(attempt))
        except UnreadStructure as exc:
            return PageReading(plain_text, False, str(exc))
        except Unread as exc:
            reason = str(exc)
            continue
        return PageReading(words + text, True, None, reader.confidence)
    return PageReading(plain_text, False, reason)


def _unturned_needs_layout(
    image: NDArray[np.uint8], ink: Ink, words: str, formula_text: str, recognize: Recognize
) -> bool:
    """Whether the page as photographed has structure that the straightened one hides: a
    tilt taken from the line reader's boxes can be wrong by degrees (one box around a
    fraction it could not read), which turns a fraction's bar away from its numerator."""
    if not ink.angle:
        return False
    flat = _formula_of(find_ink(image, straighten=False), words, recognize)
    return flat is not None and needs_layout(flat, formula_text)


def _formula_of(ink: Ink | None, words: str, recognize: Recognize) -> Ink | None:
    """`ink` without the leading `words` (None when they cannot be told apart in it)."""
    if ink is None or not words:
        return ink
    split = split_words(ink, words.rstrip("："), recognize)
    return split.formula if split is not None else None


def _formula_boxes(boxes: list[TextBox], words: str) -> list[TextBox]:
    """The line reader's boxes without the leading words: a box of only those words is
    left out, one that starts with them keeps the rest of its text."""
    if not words:
        return boxes
    bare = words.rstrip("：")
    out: list[TextBox] = []
    for box in boxes:
        text = unicodedata.normalize("NFKC", box.text).strip()
        if text.startswith(bare):
            text = rest_of_line_text(text, bare)
            if not text.strip():
                continue
        out.append(TextBox(box.corners, text))
    return out


def _attempts(
    image: NDArray[np.uint8], first: Ink, tilt: float | None, words: str, recognize: Recognize
) -> list[Ink]:
    """The same page binarized lighter, then not straightened (at both thresholds): a
    blurred photo's strokes break at the dark threshold, and a wrong tilt estimate (the line
    reader's boxes around Chinese words and a formula slope by a degree) breaks the rest.
    With leading Chinese words, each is split again (a page where they cannot be found is
    left out)."""
    lighter = find_ink(image, dark=False, tilt_hint=tilt)
    others = [lighter, find_ink(image, straighten=False)]
    if lighter is not None and lighter.angle:
        others.append(find_ink(image, dark=False, straighten=False))
    found = [_formula_of(ink, words, recognize) for ink in others]
    return [first, *(ink for ink in found if ink is not None)]
