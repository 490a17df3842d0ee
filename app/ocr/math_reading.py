"""Read printed math from its structure: each run of text between fractions and radicals is
cropped (only its own ink) and recognized alone, then everything is written in the linear
notation the symbolic reader parses: `(x)/(4)=3`, `1 1/2+2`, `sqrt(x+5)=3`, `x^2-5x+6=0`.

Every piece of ink must be accounted for: a run whose text has fewer characters than it has
columns of ink dropped one; a raised symbol that cannot be matched to its character cannot be
placed; a lowered one (a subscript) is not read. Any of those makes the reading `Unread`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

import cv2
import numpy as np
from numpy.typing import NDArray

from app.ocr.ink import Glyph, Ink
from app.ocr.structure import Fraction, Node, Piece, Radical, lines, overbar

# (crop, white background, RGB) → (text, score)
Recognize = Callable[[NDArray[np.uint8]], tuple[str, float]]

MIN_RUN_SCORE = 0.5
_CJK = re.compile(r"[\u3400-\u9fff]")
_LOOKALIKES = {"二": "=", "一": "-", "十": "+", "＝": "=", "—": "-", "−": "-", "－": "-", "＋": "+"}
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"
_INTEGER = re.compile(r"\d+")
_ALLOWED_MATH = re.compile(r"[0-9A-Za-z+\-=×÷*/().,:<>|?？%°\[\]{}!'²³¹⁰⁴⁵⁶⁷⁸⁹·]+")


class Unread(Exception):
    """Some of the ink is not explained by the reading; the message says what."""


class UnreadStructure(Unread):
    """Structure this step does not read was seen (a subscript, a bar over symbols): another
    binarization that happens to hide it must not be believed instead."""


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    fraction: bool = False


def ink_columns(glyphs: list[Glyph]) -> list[list[Glyph]]:
    """Glyphs stacked over each other (the bars of '=', the dot of 'i') are one column."""
    columns: list[list[Glyph]] = []
    for glyph in sorted(glyphs, key=lambda g: g.left):
        last = columns[-1] if columns else None
        if last is not None:
            right = max(g.right for g in last)
            left = min(g.left for g in last)
            shared = min(right, glyph.right) - max(left, glyph.left)
            if shared > 0.3 * min(glyph.width, right - left):
                last.append(glyph)
                continue
        columns.append([glyph])
    return columns


@dataclass(slots=True)
class LinePosition:
    """Where the line's ordinary characters sit, to tell raised and lowered ones apart."""

    top: float
    baseline: float
    height: float  # median height of its pieces
    size: float  # height of its tall characters (digits, capitals)
    letters: list[Glyph]  # its pieces other than bars, left to right

    @classmethod
    def of(cls, pieces: list[Piece]) -> LinePosition | None:
        letters = [p.glyph for p in pieces if not p.bar]
        if not letters:
            return None
        heights = [g.height for g in letters]
        height = float(np.median(heights))
        tall = [g for g in letters if g.height >= 0.8 * height] or letters
        top = float(np.median([g.top for g in tall]))
        size = float(np.percentile(heights, 90))
        # Broken-off bits of a thin stroke say nothing about where the line sits.
        whole = [g for g in letters if g.height >= 0.5 * size] or letters
        ordered = sorted(letters, key=lambda g: g.left)
        return cls(top, _baseline(whole, 0.12 * size), height, size, ordered)

    def _above_baseline(self, glyph: Glyph) -> bool:
        return (
            glyph.bottom <= self.baseline - 0.35 * self.height and glyph.height < 0.85 * self.size
        )

    def raised(self, glyph: Glyph) -> bool:
        """Well above the line's baseline, or above the character just before it (on a
        tilted photo the baseline drifts along the line, but not between neighbours)."""
        if self._above_baseline(glyph):
            return True
        before = [
            g
            for g in self.letters
            if g.right <= glyph.left + 0.2 * glyph.width
            and g.height >= 0.5 * self.size
            and not self._above_baseline(g)
        ]
        if not before:
            return False
        base = before[-1]
        return (
            glyph.bottom <= base.bottom - 0.35 * base.height and glyph.height < 0.85 * base.height
        )

    def lowered(self, glyph: Glyph) -> bool:
        """Smaller than the line's characters and sunk below its baseline: a subscript (a
        'y' or 'g' reaches as low, but is as tall as a digit; a comma is smaller)."""
        return (
            0.4 * self.size <= glyph.height <= 0.85 * self.size
            and glyph.bottom >= self.baseline + 0.15 * self.size
        )


def _baseline(letters: list[Glyph], tolerance: float) -> float:
    """Where most pieces end: descenders, brackets and subscripts reach lower, powers stay
    higher, but most characters sit on the baseline. On a tie the higher one: a subscript
    taken for a character would be read as a digit, a power taken for one is refused."""
    bottoms = sorted(g.bottom for g in letters)
    best, best_count = bottoms[0], 0
    for bottom in bottoms:
        count = sum(abs(other - bottom) <= tolerance for other in bottoms)
        if count > best_count:
            best, best_count = bottom, count
    return float(best)


class StructuredReader:
    def __init__(self, ink: Ink, recognize: Recognize) -> None:
        self.ink = ink
        self.recognize = recognize
        self.scores: list[float] = []

    @property
    def confidence(self) -> float | None:
        return float(np.mean(self.scores)) if self.scores else None

    def read(self, nodes: list[Node]) -> str:
        """The linear text of the page, line by line; raises Unread."""
        if self.ink.faint_pieces:
            raise Unread("some ink is too faint to be cut into symbols at this threshold")
        rows = lines(nodes)
        for row in rows:
            if all(isinstance(n, Piece) and n.bar for n in row):
                raise Unread("a bar stands alone on its line (a fraction's bar?)")
        for upper, lower in pairwise(rows):
            if _too_close(upper, lower, self.ink.char_height):
                raise Unread("lines too close to be separate lines (stacked notation?)")
        return "\n".join(self._sequence(row) for row in rows)

    def _sequence(self, nodes: list[Node]) -> str:
        if overbar(nodes, self.ink.char_height):
            raise UnreadStructure("a bar over symbols (a radical's extent?) could not be read")
        ordered = sorted(nodes, key=lambda n: n.box.left)
        line = LinePosition.of([n for n in ordered if isinstance(n, Piece)])
        tokens: list[Token] = []
        run: list[Piece] = []
        for node in [*ordered, None]:
            if isinstance(node, Piece):
                run.append(node)
                continue
            if run:
                tokens.append(Token(self._run(run, line)))
                run = []
            if isinstance(node, Fraction):
                tokens.append(self._fraction(node, tokens[-1].text if tokens else ""))
            elif isinstance(node, Radical):
                tokens.append(Token(f"sqrt({self._sequence(node.body)})"))
        return _join(tokens)

    def _fraction(self, fraction: Fraction, before: str) -> Token:
        numerator = self._sequence(fraction.numerator)
        denominator = self._sequence(fraction.denominator)
        if not numerator or not denominator:
            raise Unread("a fraction's numerator or denominator could not be read")
        plain = _INTEGER.fullmatch(numerator) and _INTEGER.fullmatch(denominator)
        if plain and re.search(r"(?:^|[^\d.^)])\d+$", before):
            return Token(f" {numerator}/{denominator}")  # 1 1/2: a mixed number
        return Token(f"({numerator})/({denominator})", fraction=True)

    def _run(self, run: list[Piece], line: LinePosition | None) -> str:
        glyphs = [p.glyph for p in run]
        if all(p.bar for p in run):
            return _bars(glyphs)
        text, score = self.recognize(self.crop(glyphs, pad=0.3, solid=False))
        # A second look at the same symbols, framed and inked differently: a lone symbol
        # misread (x as 1, 4 as 1) rarely comes out the same way twice.
        again, second = self.recognize(self.crop(glyphs, pad=0.8, solid=True))
        self.scores.append(min(score, second))
        text = text.strip()
        if not text or min(score, second) < MIN_RUN_SCORE:
            raise Unread("some text could not be read with confidence")
        if plain_symbols(again) != plain_symbols(text):
            raise Unread("two readings of the same symbols disagree")
        kept = [g for g in glyphs if not self.ink.is_speck(g)]
        bars = {g.label for g in kept if self.ink.is_bar(g)}
        height = line.height if line is not None else self.ink.char_height
        if stacked(kept, self.ink.char_height, bars) or too_tall(
            [g for g in kept if g.label not in bars], height
        ):
            raise Unread("stacked symbols (a fraction?) could not be read")
        mapped = "".join(_LOOKALIKES.get(c, c) for c in text)
        chinese = bool(_CJK.search(mapped))
        if not chinese:  # a lone "十" between two radicals is a plus, not Chinese
            text = mapped
        chars = [c for c in text if not c.isspace()]
        columns = ink_columns([g for g in glyphs if not self.ink.is_speck(g)])
        # A column is raised when all of it is: the foot of a broken '2' is bar-shaped, but
        # a minus sign alone is never a power.
        raised = [
            line is not None
            and any(g.label not in bars for g in col)
            and all(line.raised(g) for g in col)
            for col in columns
        ]
        sunk = sum(
            line is not None and any(line.lowered(g) and g.label not in bars for g in col)
            for col in columns
        )
        if sunk > sum(c in _SUBSCRIPTS for c in text):
            raise UnreadStructure("a lowered symbol (a subscript) was not read")
        if any(raised):
            return _place_scripts(text, raised)
        if not chinese and len(chars) < len(columns):
            raise Unread("the text read has fewer symbols than the ink shows")
        return text

    def crop(self, glyphs: list[Glyph], *, pad: float, solid: bool) -> NDArray[np.uint8]:
        """The run's own ink (and the specks inside it: decimal points) on white, padded by
        `pad` character heights; `solid`: pure black ink instead of its grey levels."""
        ink = self.ink
        left = min(g.left for g in glyphs)
        top = min(g.top for g in glyphs)
        right = max(g.right for g in glyphs)
        bottom = max(g.bottom for g in glyphs)
        near = 0.25 * ink.char_height  # a thin stroke's broken-off tip sits just outside
        specks = [
            s
            for s in ink.glyphs
            if ink.is_speck(s)
            and left - near <= s.centre_x <= right + near
            and top - near <= s.centre_y <= bottom + near
        ]
        labels = {g.label for g in glyphs} | {s.label for s in specks}
        left = min([left, *(s.left for s in specks)])
        top = min([top, *(s.top for s in specks)])
        right = max([right, *(s.right for s in specks)])
        bottom = max([bottom, *(s.bottom for s in specks)])
        window = ink.labels[top:bottom, left:right]
        mine = np.isin(window, list(labels))
        if solid:
            crop = np.where(mine, 0, 255)
        else:
            # The grey look keeps ink too faint to be a piece (a hairline of a blurred '4'
            # whose loss leaves a '1'): only the other pieces, with their halo, are erased.
            others = ((window != 0) & ~mine).astype(np.uint8)
            halo = cv2.dilate(others, np.ones((5, 5), np.uint8)).astype(bool) & ~mine
            crop = np.where(halo, 255, ink.gray[top:bottom, left:right])
        margin = max(4, int(pad * ink.char_height))
        padded = np.pad(crop.astype(np.uint8), margin, constant_values=255)
        return np.repeat(padded[:, :, None], 3, axis=2)


def stacked(glyphs: list[Glyph], char_height: float, bars: set[int]) -> bool:
    """Symbols one above the other, close: stacked notation (a fraction whose bar was not
    recognized as one, a limit) that a left-to-right reading cannot have read. `bars`: the
    labels of the bar-shaped glyphs among `glyphs`.

    Two character-sized pieces over each other are stacked; so is a bar with a character-
    sized piece above it and anything below it. The dot of 'i', the dots of '÷' and ':' and
    the bars of '=' are not character-sized; the circles of '%' are not over each other."""
    solid = [g for g in glyphs if g.label not in bars]
    sized = [g for g in solid if max(g.height, g.width) >= 0.3 * char_height]
    for index, upper in enumerate(sized):
        for lower in sized[index + 1 :]:
            if _over(upper, lower, char_height) or _over(lower, upper, char_height):
                return True
    for bar in (g for g in glyphs if g.label in bars):
        above = [g for g in sized if _over(g, bar, char_height)]
        below = [g for g in glyphs if g is not bar and _over(bar, g, char_height)]
        if above and below:
            return True
    return False


def _over(upper: Glyph, lower: Glyph, char_height: float) -> bool:
    """`upper` right above `lower`: sharing most of the narrower's width, a small gap."""
    shared = min(upper.right, lower.right) - max(upper.left, lower.left)
    gap = lower.top - upper.bottom
    return shared >= 0.5 * min(upper.width, lower.width) and 0 <= gap < char_height


def too_tall(glyphs: list[Glyph], char_height: float) -> bool:
    """A piece far taller than the line's characters: stacked ink that ran together."""
    return any(g.height > 1.7 * char_height for g in glyphs)


def plain_symbols(text: str) -> str:
    """The symbols of a reading, lookalikes mapped, spaces aside."""
    return "".join(_LOOKALIKES.get(c, c) for c in text if not c.isspace())


def _too_close(upper: list[Node], lower: list[Node], char_height: float) -> bool:
    """Two lines of text have a line's gap between them; stacked parts of one formula
    whose bar was lost have much less, and sit over each other."""
    top = min(n.box.top for n in lower)
    bottom = max(n.box.bottom for n in upper)
    left = max(min(n.box.left for n in upper), min(n.box.left for n in lower))
    right = min(max(n.box.right for n in upper), max(n.box.right for n in lower))
    return right > left and top - bottom < 0.5 * char_height


def _bars(glyphs: list[Glyph]) -> str:
    columns = ink_columns(glyphs)
    return "".join("=" if len(col) == 2 else "-" if len(col) == 1 else "?" for col in columns)


def _place_scripts(text: str, raised: list[bool]) -> str:
    """One character per column, so each raised column's character is known: x2 → x^(2).
    Spaces are kept where the recognizer put them (they are not columns)."""
    chars = [c for c in text if not c.isspace()]
    if len(chars) != len(raised):
        raise Unread("a raised symbol (a power) could not be matched to what was read")
    if any(c in _SUPERSCRIPTS for c in chars):
        return text  # the recognizer wrote ² itself
    # Raised marks that are not powers: the asterisk, quotes, the degree sign.
    power = [up and char.isalnum() for char, up in zip(chars, raised, strict=True)]
    if power[:1] == [True]:
        raise Unread("a raised symbol has nothing to be the power of")
    out: list[str] = []
    column = 0
    for char in text:
        if char.isspace():
            out.append(char)
            continue
        up = power[column]
        starts = up and not power[column - 1]
        ends = up and (column + 1 == len(power) or not power[column + 1])
        out.append(("^(" if starts else "") + char + (")" if ends else ""))
        column += 1
    return "".join(out)


def _join(tokens: list[Token]) -> str:
    """Tokens side by side; a fraction beside a factor is bracketed: 2((x)/(3)), ((1)/(2))x."""
    out = ""
    for index, token in enumerate(tokens):
        text = token.text
        if token.fraction:
            after = tokens[index + 1].text[:1] if index + 1 < len(tokens) else ""
            if (out and (out[-1].isalnum() or out[-1] == ")")) or after.isalnum() or after == "(":
                text = f"({text})"
        out += text
    return out
