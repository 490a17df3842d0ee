"""Chinese words before a formula (解方程：, 计算：, 化简：): told apart from the formula's ink.

A Chinese character is many pieces of ink, stacked and side by side (the strokes of 算 over
each other, the dot of 方 over its bar), so the layout step would take it for fractions and
stacked symbols and refuse the page. The line reader says what the words are; here they are
found in the ink as everything left of one vertical gap, recognized alone (both looks of the
layout step, which must agree) as exactly those words, optionally followed by a colon. The
formula is then the ink right of the gap, read as any other page; the words are put back in
front of its reading. When no gap gives exactly the line reader's words, nothing is split and
the page is read as before (which, with Chinese pieces in it, leaves it unread).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace

from app.ocr.ink import Glyph, Ink, char_height_of
from app.ocr.math_reading import MIN_RUN_SCORE, Recognize, StructuredReader, stacked
from app.ocr.words import WORDS_READ


@dataclass(frozen=True, slots=True)
class Split:
    words: str  # as they are put before the formula: 解方程：
    formula: Ink  # the ink right of the gap (the words' pieces left out)
    cut: float  # x of the gap, in the ink's (straightened) coordinates


def _gaps(glyphs: list[Glyph]) -> list[float]:
    """x positions with no piece of ink across them, left to right."""
    ordered = sorted(glyphs, key=lambda g: g.left)
    cuts: list[float] = []
    reach = ordered[0].right
    for glyph in ordered[1:]:
        if glyph.left >= reach:
            cuts.append((reach + glyph.left) / 2)
        reach = max(reach, glyph.right)
    return cuts


def split_words(ink: Ink, words: str, recognize: Recognize) -> Split | None:
    """The gap after the leading `words` (and their colon), or None when no gap has exactly
    those words to its left."""
    solid = [g for g in ink.glyphs if not ink.is_speck(g)]
    if len(solid) < 2:
        return None
    reader = StructuredReader(ink, recognize)
    best: tuple[float, str, list[Glyph]] | None = None
    start = min(g.left for g in solid)
    for cut in _gaps(solid):
        left = [g for g in solid if g.right <= cut]
        # Chinese characters are square: the words (and a colon) are no wider than this.
        if cut - start > (len(words) + 1.5) * max(g.height for g in left):
            break
        text, score = recognize(reader.crop(left, pad=0.8, solid=True))
        text = unicodedata.normalize("NFKC", text.strip()).replace(":", "：")
        match = WORDS_READ.match(text)
        if match is not None and match.group(1) == words and score >= MIN_RUN_SCORE:
            best = (cut, text, left)  # a later gap may take the colon too
        elif best is not None:
            break  # past the words: the formula's symbols are in the crop
    if best is None:
        return None
    cut, text, left = best
    if _fraction_bar(ink, left):
        return None  # a fraction among the words (¾和5/7哪个大): the recognizer dropped it
    again, score = recognize(reader.crop(left, pad=0.3, solid=False))
    again = unicodedata.normalize("NFKC", again.strip()).replace(":", "：")
    if again.rstrip("：") != words or score < MIN_RUN_SCORE:
        return None  # the other look does not read the same words
    right = [g for g in ink.glyphs if g.left >= cut]
    if not any(not ink.is_speck(g) for g in right):
        return None
    # As find_ink measures a page: all its pieces, specks too.
    formula = replace(ink, glyphs=right, char_height=char_height_of(right))
    return Split(words + "：" if text.endswith("：") else words, formula, cut)


def _fraction_bar(ink: Ink, glyphs: list[Glyph]) -> bool:
    """A bar with a piece right above and right below it, apart from both: a fraction, not a
    stroke of a Chinese character (whose strokes touch or are no bars)."""
    bars = [g for g in glyphs if ink.is_bar(g)]
    return any(
        stacked([bar, *[g for g in glyphs if g is not bar and not ink.is_bar(g)]],
                ink.char_height, {bar.label})
        and sum(1 for g in glyphs if not ink.is_bar(g) and g.left >= bar.left - 1
                and g.right <= bar.right + 1) >= 2
        for bar in bars
    )  # fmt: skip
