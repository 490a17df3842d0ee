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
from dataclasses import dataclass, field
from itertools import combinations, pairwise

import cv2
import numpy as np
from numpy.typing import NDArray

from app.ocr.ink import Glyph, Ink
from app.ocr.structure import Fraction, Node, Piece, Radical, glyphs_of, lines, overbar

# (crop, white background, RGB) → (text, score)
Recognize = Callable[[NDArray[np.uint8]], tuple[str, float]]

MIN_RUN_SCORE = 0.5
_CJK = re.compile(r"[\u3400-\u9fff]")
_LOOKALIKES = {
    "二": "=",
    "一": "-",
    "十": "+",
    "＝": "=",
    "—": "-",
    "−": "-",
    "－": "-",
    "＋": "+",
    "？": "?",
}
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"
# Beside these alone a fraction needs no brackets: (1)/(2)+3, x=(3)/(4).
_LOOSE_BEFORE = ("", "+", "-", "=", "(", "<", ">", ":", "：")
_LOOSE_AFTER = ("", "+", "-", "=", ")", "<", ">")
_DOTS = ".·•∙⋅・"
_RADICAL_SIGNS = "√∛∜"
_PLAIN_DIGITS = str.maketrans(_SUPERSCRIPTS + "⁻", "0123456789-")
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
    stacked: bool = False  # a fraction or a radical (a mixed number's fraction too)


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
    _raised: dict[int, bool] = field(default_factory=dict)  # by label, computed once

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
        """Well above the line's baseline, or above the character just before it that is not
        raised itself (on a tilted photo the baseline drifts along the line, but not between
        neighbours; the second digit of a power `2^{10}` sits on the first, above the base)."""
        known = self._raised.get(glyph.label)
        if known is None:
            known = self._above_baseline(glyph) or self.above_base(
                glyph.left + 0.2 * glyph.width, glyph.bottom, glyph.height
            )
            self._raised[glyph.label] = known
        return known

    def mark_raised(self, glyphs: list[Glyph]) -> None:
        """These are raised, whatever the line's baseline says (a power placed against the
        fraction or radical before it): never the base of what follows, and not where the
        line sits (beside `\\frac{2}{5}^{2}` the line may hold only a broken `?`, whose
        hook would be a subscript under a baseline taken at the power's foot)."""
        for glyph in glyphs:
            self._raised[glyph.label] = True
        rest = [g for g in self.letters if not self._raised.get(g.label, False)]
        whole = [g for g in rest if g.height >= 0.5 * self.size]
        if glyphs and whole:
            self.baseline = _baseline(whole, 0.12 * self.size)

    def base_before(self, x: float) -> Glyph | None:
        """The last character ending left of `x` that sits on the line (not raised)."""
        before = [
            g
            for g in self.letters
            if g.right <= x
            and g.height >= 0.5 * self.size
            and not self._above_baseline(g)
            and not self.raised(g)
        ]
        return before[-1] if before else None

    def above_base(self, x: float, bottom: float, height: float) -> bool:
        base = self.base_before(x)
        return (
            base is not None
            and bottom <= base.bottom - 0.35 * base.height
            and height < 0.85 * base.height
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
        for upper, lower in combinations(rows, 2):
            if _too_close(upper, lower, self.ink.char_height):
                raise Unread("lines too close to be separate lines (stacked notation?)")
        return _lower_x("\n".join(self._sequence(row) for row in rows))

    def _sequence(self, nodes: list[Node]) -> str:
        if overbar(nodes, self.ink.char_height):
            raise UnreadStructure("a bar over symbols (a radical's extent?) could not be read")
        ordered = sorted(nodes, key=lambda n: n.box.left)
        indices = {id(n): self._root_index(n, ordered) for n in ordered if isinstance(n, Radical)}
        taken = {id(p) for pieces in indices.values() for p in pieces}
        ordered = [n for n in ordered if id(n) not in taken]
        line = LinePosition.of([n for n in ordered if isinstance(n, Piece)])
        tokens: list[Token] = []
        run: list[Piece] = []
        previous: Node | None = None  # the node just before the current one
        run_after: Fraction | Radical | None = None  # the fraction or radical a run follows
        for node in [*ordered, None]:
            if isinstance(node, Piece):
                if not run:
                    run_after = previous if isinstance(previous, Fraction | Radical) else None
                run.append(node)
                previous = node
                continue
            if run:
                tokens.append(Token(self._run(run, line, after=run_after)))
                run = []
            after = previous if isinstance(previous, Fraction | Radical) else None
            beside = previous
            previous = node
            if isinstance(node, Fraction):
                if self._raised_fraction(node, line, after):
                    if not tokens:
                        raise Unread("a raised fraction has nothing to be the power of")
                    inner = self._fraction(node, "")
                    tokens.append(Token(f"^({inner.text.strip()})"))
                else:
                    number_before = bool(tokens) and tokens[-1].text.rstrip()[-1:].isdigit()
                    if (
                        number_before
                        and isinstance(beside, Piece)
                        and not beside.bar
                        and beside.box.height >= 0.5 * self.ink.char_height
                        and beside.box.bottom <= node.bar.top
                    ):
                        # "12" over a bar under its 2 read as the mixed number 1 2/3: a whole
                        # number straddles the bar; this one stands all above it.
                        raise Unread(
                            "a symbol beside a fraction stands above its bar: a short bar?"
                        )
                    tokens.append(self._fraction(node, tokens[-1].text if tokens else ""))
            elif isinstance(node, Radical):
                body = self._sequence(node.body)
                index = indices[id(node)]
                if index:
                    tokens.append(Token(f"root_({self._index(index)})({body})", stacked=True))
                else:
                    tokens.append(Token(f"sqrt({body})", stacked=True))
        for token, following in pairwise(tokens):
            # A typeset problem never writes a number right after a radical or a fraction
            # with no sign between them: that is a power whose raised place was not seen.
            if token.stacked and following.text.lstrip()[:1].isdigit():
                raise Unread("a number follows a radical or a fraction with no sign (a power?)")
        text = _join(tokens)
        if text.count("|") % 2:
            raise Unread("a vertical bar has no partner (an absolute value?)")
        return text

    def _raised_fraction(
        self, fraction: Fraction, line: LinePosition | None, after: Fraction | Radical | None
    ) -> bool:
        """A fraction in a power's place (`4^{\\frac{1}{2}}`) ends above the bottom of the
        character before it (by a fifth of its height or more, measured); one on the line
        reaches below it (its denominator, by two fifths or more). In between: not read.
        Right after a fraction or a radical it is placed against that one instead."""
        if after is not None:
            box = fraction.box
            return _raised_after(after, box.top, box.bottom)
        if line is None:
            return False
        box = fraction.box
        base = line.base_before(box.left + 0.2 * box.width)
        if base is None:
            return False
        if box.bottom <= base.bottom - 0.12 * base.height:
            return True
        if box.bottom < base.bottom + 0.2 * base.height:
            raise Unread("a fraction sits neither on the line nor in a power's place")
        return False

    def _root_index(self, radical: Radical, nodes: list[Node]) -> list[Piece]:
        """Small symbols up-left of a radical sign, inside its hook: the root's index."""
        sign, height = radical.sign, self.ink.char_height
        body_left = min(n.box.left for n in radical.body)
        return [
            n
            for n in nodes
            if isinstance(n, Piece)
            and n.box.right <= body_left
            and n.box.right > sign.left
            and n.box.left >= sign.left - 0.5 * height
            and n.box.top >= sign.top - 0.5 * height
            and n.box.bottom <= sign.top + 0.65 * sign.height
        ]

    def _index(self, pieces: list[Piece]) -> str:
        """A root's index, read alone: a whole number, or the root is not read."""
        if any(p.bar for p in pieces):
            raise Unread("a root's index could not be read")
        text = self._run(pieces, None).strip()
        if not _INTEGER.fullmatch(text) or int(text) < 2:
            raise Unread("a root's index could not be read")
        return text

    def _fraction(self, fraction: Fraction, before: str) -> Token:
        numerator = self._sequence(fraction.numerator)
        denominator = self._sequence(fraction.denominator)
        if not numerator or not denominator:
            raise Unread("a fraction's numerator or denominator could not be read")
        plain = _INTEGER.fullmatch(numerator) and _INTEGER.fullmatch(denominator)
        if plain and re.search(r"(?:^|[^\d.^)])\d+$", before):
            return Token(f" {numerator}/{denominator}", stacked=True)  # 1 1/2: mixed number
        return Token(f"({numerator})/({denominator})", fraction=True, stacked=True)

    def _sized_height(self, line: LinePosition | None) -> float:
        """The height of the line's character-sized pieces: the dots of '÷' beside a fraction
        (`8\\div\\frac{1}{2}`: the line's pieces are 8 and two dots) do not make the 8 "far
        taller than its line"."""
        if line is None:
            return self.ink.char_height
        sized = [g.height for g in line.letters if max(g.height, g.width) >= 0.3 * line.size]
        return max(line.height, float(np.median(sized))) if sized else line.height

    def _run(
        self, run: list[Piece], line: LinePosition | None, after: Fraction | Radical | None = None
    ) -> str:
        """`after`: the fraction or radical the run follows right away; the symbols it
        begins with are placed against it (a power `\\sqrt{2}^{2}`, `\\frac{1}{2}^{2}`)."""
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
        scripted = _looks_differ(text, again)
        if scripted and any(scripted):
            text = text.translate(_PLAIN_DIGITS)  # the ink decides what is raised
        kept = [g for g in glyphs if not self.ink.is_speck(g)]
        bars = {g.label for g in kept if self.ink.is_bar(g)}
        height = self._sized_height(line)
        if stacked(kept, self.ink.char_height, bars) or too_tall(
            [g for g in kept if g.label not in bars], height
        ):
            raise Unread("stacked symbols (a fraction?) could not be read")
        mapped = "".join(_LOOKALIKES.get(c, c) for c in text)
        chinese = bool(_CJK.search(mapped))
        if not chinese:  # a lone "十" between two radicals is a plus, not Chinese
            text = mapped
        if any(c in _RADICAL_SIGNS for c in text):
            raise Unread("a radical sign was read as text (its index or extent was not seen)")
        columns = ink_columns([g for g in glyphs if not self.ink.is_speck(g)])
        text = _marks(text, columns, self.ink.char_height, self.ink.labels)
        chars = [c for c in text if not c.isspace()]
        # Right after a fraction or a radical, the line's other characters say nothing about
        # where a power sits: its first columns are placed against that fraction or radical.
        power_after = (
            _power_after(after, columns, bars, self.ink.char_height) if after is not None else 0
        )
        if line is not None:
            line.mark_raised([g for col in columns[:power_after] for g in col])
        # A column is raised when all of it is: the foot of a broken '2' is bar-shaped, but
        # a minus sign alone is never a power (in a power's place right after a fraction or
        # a radical, with the power's digits, it is one).
        raised = [
            index < power_after
            or (
                line is not None
                and any(g.label not in bars for g in col)
                and all(line.raised(g) for g in col)
            )
            for index, col in enumerate(columns)
        ]
        for index in range(power_after, len(columns) - 1):
            col = columns[index]
            if not raised[index] and raised[index + 1] and len(col) == 1 and col[0].label in bars:
                if not _sign_of_power(col[0], columns[index + 1]):
                    raise Unread("a raised symbol follows a minus sign on the line")
                raised[index] = True  # x^{-1}: the sign of the power
        sunk = sum(
            line is not None and any(line.lowered(g) and g.label not in bars for g in col)
            for col in columns
        )
        if sunk > sum(c in _SUBSCRIPTS for c in text):
            if scripted is not None:
                # Looks that differed never ended the attempts before the ink settled them;
                # they do not now (a wrong tilt sinks a digit that another look reads).
                raise Unread("a lowered symbol where the two readings differed")
            raise UnreadStructure("a lowered symbol (a subscript) was not read")
        if (
            scripted
            and any(scripted)
            and (
                len(scripted) != len(raised)
                or any(up and not ink_up for up, ink_up in zip(scripted, raised, strict=True))
            )
        ):
            raise Unread("a symbol one reading wrote raised is not raised in the ink")
        if any(raised):
            return _place_scripts(text, raised, based=power_after > 0)
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


def _any_dot(text: str) -> str:
    """Which dot the recognizer writes (`3·4` or `3.4`) is left to the ink: `_marks` places
    each dot against its neighbours, so two looks that differ only there agree. So is the
    case of a lone x (`_lower_x`)."""
    return "".join("." if c in _DOTS else c for c in plain_symbols(text)).replace("X", "x")


_LONE_X = re.compile(r"(?<![A-Za-z])[xX](?![A-Za-z])")


def _lower_x(text: str) -> str:
    """The recognizer writes a lone italic x, cropped alone, as often `X` as `x` (DejaVu's
    `\\frac{x}{2}`): every lone x is written `x`, the unknown either way. Both cases on one
    page may be two letters or one letter read two ways: not read."""
    cases = {m.group(0) for m in _LONE_X.finditer(text)}
    if len(cases) > 1:
        raise Unread("a lone x was read in both cases (one letter, or two?)")
    return _LONE_X.sub("x", text)


def _looks_differ(text: str, again: str) -> list[bool] | None:
    """The two looks at a run must agree on its symbols (Unread otherwise). Where they differ
    only in the dot (`_any_dot`), the case of x, or which digits the recognizer wrote raised
    (`2⁵` and `25`, `2¹0` and `210`: cm's small powers), the ink decides instead: returned
    are the columns either look wrote raised (one per symbol, spaces aside), each of which
    the ink must find raised too. None: the looks are the same."""
    if plain_symbols(text) == plain_symbols(again):
        return None
    first, second = _any_dot(text), _any_dot(again)
    if first.translate(_PLAIN_DIGITS) != second.translate(_PLAIN_DIGITS):
        raise Unread("two readings of the same symbols disagree")
    written = _SUPERSCRIPTS + "⁻"
    return [a in written or b in written for a, b in zip(first, second, strict=True)]


def _too_close(upper: list[Node], lower: list[Node], char_height: float) -> bool:
    """Two lines of text have a line's gap between them; stacked parts of one formula
    whose bar was lost have much less, and sit over each other, or their heights overlap
    (a "3" over a "4" beside "+ 1 =": three "lines" no line's gap apart)."""
    top = min(n.box.top for n in lower)
    bottom = max(n.box.bottom for n in upper)
    left = max(min(n.box.left for n in upper), min(n.box.left for n in lower))
    right = min(max(n.box.right for n in upper), max(n.box.right for n in lower))
    return top < bottom or (right > left and top - bottom < 0.5 * char_height)


def _bars(glyphs: list[Glyph]) -> str:
    columns = ink_columns(glyphs)
    return "".join("=" if len(col) == 2 else "-" if len(col) == 1 else "?" for col in columns)


def _is_dot(column: list[Glyph], char_height: float) -> bool:
    if len(column) != 1:
        return False
    g = column[0]
    return max(g.width, g.height) <= 0.3 * char_height and min(g.width, g.height) >= 0.5 * max(
        g.width, g.height
    )


def _is_stroke(column: list[Glyph], char_height: float, labels: NDArray[np.int32]) -> bool:
    """A straight vertical stroke as tall as a character, of even width all along (a
    slanted photo's too): '|'. A '1' has a flag and, in most fonts, a foot."""
    if len(column) != 1:
        return False
    g = column[0]
    if g.height < 0.6 * char_height or g.width > 0.25 * g.height:
        return False
    mask = labels[g.top : g.bottom, g.left : g.right] == g.label
    widths = mask.sum(axis=1)
    starts = np.count_nonzero(np.diff(mask.astype(np.int8), axis=1) == 1, axis=1) + mask[:, 0]
    if (starts != 1).any():
        return False
    return float(widths.max()) <= 1.8 * float(np.median(widths)) + 1


# A decimal point sits close to the digit after it (0.2 character heights or less in print);
# a full stop before a space is 0.6 away ("3. 2x": a problem's number).
_SPACE = 0.4


def _marks(
    text: str, columns: list[list[Glyph]], char_height: float, labels: NDArray[np.int32]
) -> str:
    """Dots and vertical strokes decided from their ink, not from the recognizer: a dot on
    the baseline of the characters beside it is a decimal point, one halfway up is a
    multiplication dot (`3\\cdot 4`: 3*4, never 3.4); a solid vertical stroke as tall as
    the digits beside it is '|' (an absolute value), never a '1'. Each such mark must match
    one character of the reading, column for column, or nothing is read."""
    dots = [_is_dot(col, char_height) for col in columns]
    strokes = [_is_stroke(col, char_height, labels) for col in columns]
    chars = [c for c in text if not c.isspace()]
    if not any(dots) and not any(strokes) and not any(c in _DOTS for c in chars):
        return text
    if len(chars) != len(columns):
        raise Unread("a dot or a stroke could not be matched to what was read")
    decided: list[str] = []
    for index, (char, col) in enumerate(zip(chars, columns, strict=True)):
        neighbours = [
            max(columns[j], key=lambda g: g.height)
            for j in (index - 1, index + 1)
            if 0 <= j < len(columns) and not dots[j] and not strokes[j]
        ]
        if dots[index]:
            if char not in _DOTS or not neighbours:
                raise Unread("a dot between symbols could not be read")
            bottom = float(np.mean([g.bottom for g in neighbours]))
            height = float(np.mean([g.height for g in neighbours]))
            level = (bottom - col[0].centre_y) / max(height, 1.0)
            if level <= 0.2:
                following = columns[index + 1] if index + 1 < len(columns) else None
                gap = min(g.left for g in following) - col[0].right if following else 0
                if gap > _SPACE * char_height:
                    # "3. 2x + 3 = 11": a problem's number, read as the decimal 3.2x.
                    raise Unread("a full stop with a space after it was read into a number")
                char = "."
            elif 0.3 <= level <= 0.65:
                char = "*"
            else:
                raise Unread("a dot is neither on the line nor halfway up: not read")
        elif char in _DOTS:
            raise Unread("a dot was read where the ink has none")
        elif strokes[index]:
            tall = max((g.height for g in neighbours), default=0)
            if char in "lI" and _in_word(chars, index):
                pass  # the 'l' of 'Solve'
            elif char in "|丨" or (char in "1lI!" and col[0].height >= 1.02 * tall):
                char = "|"
            else:
                raise Unread("a vertical stroke could not be read")
        decided.append(char)
    out: list[str] = []
    column = 0
    for char in text:
        if char.isspace():
            out.append(char)
        else:
            out.append(decided[column])
            column += 1
    return "".join(out)


def has_marks(ink: Ink) -> bool:
    """Ink that only the layout step tells apart: a lone dot, a vertical stroke."""
    glyphs = [g for g in ink.glyphs if not ink.is_speck(g)]
    return any(
        _is_dot(col, ink.char_height) or _is_stroke(col, ink.char_height, ink.labels)
        for col in ink_columns(glyphs)
    )


def _in_word(chars: list[str], index: int) -> bool:
    """An 'l' of 'Solve': letters on both sides."""
    return 0 < index < len(chars) - 1 and chars[index - 1].isalpha() and chars[index + 1].isalpha()


# How high a symbol right after a fraction or a radical ends, measured from that one's
# baseline up to its top (mathtext in DejaVu Sans/Serif, Computer Modern, STIX, STIX sans,
# 22-44 pt). After a radical, from the bottom of its body to its bar: a power ends 0.67-1.1
# of the way up, a character on the line 0.24 at most (one after a radical over a fraction;
# -0.15 to 0.04 otherwise). After a fraction, from the middle of its bar to its top: a
# power ends 0.36-0.57 of the way up, a character on the line 0.39 or more below the bar.
# (×, <, ÷: 0.26 or more below it). In between, nothing is read.
_RADICAL_POWER, _RADICAL_LINE = 0.5, 0.33
_FRACTION_POWER, _FRACTION_LINE = 0.28, -0.2


def _level_after(node: Fraction | Radical, bottom: float) -> float:
    if isinstance(node, Radical):
        base = float(max(n.box.bottom for n in node.body))
    else:
        base = (node.bar.top + node.bar.bottom) / 2
    return (base - bottom) / max(base - node.box.top, 1.0)


def _raised_after(node: Fraction | Radical, top: float, bottom: float) -> bool:
    """Whether what ends at `bottom`, right after `node`, is in a power's place (True) or
    on the line (False); Unread when it is neither."""
    level = _level_after(node, bottom)
    on_line = _RADICAL_LINE if isinstance(node, Radical) else _FRACTION_LINE
    if level >= _power_level(node):
        return True
    if level <= on_line:
        return False
    raise Unread("a symbol right after a fraction or a radical is neither raised nor on the line")


def _power_after(
    node: Fraction | Radical, columns: list[list[Glyph]], bars: set[int], char_height: float
) -> int:
    """How many of a run's first columns, right after `node`, are a power of it: raised
    against it, one after the other (`\\sqrt{2}^{10}`; a decimal point between; a minus
    before the digits, level with them). Unread when a character-sized column is neither
    raised nor on the line."""
    count = 0
    for index, col in enumerate(columns):
        top = min(g.top for g in col)
        bottom = max(g.bottom for g in col)
        if all(g.label in bars for g in col):
            following = columns[index + 1] if index + 1 < len(columns) else None
            if count or len(col) != 1 or following is None:
                break
            if any(g.label in bars for g in following):
                break
            if not _raised_after(
                node, min(g.top for g in following), max(g.bottom for g in following)
            ):
                break
            if not _sign_of_power(col[0], following):
                raise Unread("a bar right after a fraction or a radical could not be placed")
            count += 1  # the sign of a power: \frac{1}{2}^{-1}
            continue
        size = max(bottom - top, max(g.right for g in col) - min(g.left for g in col))
        if size < 0.3 * char_height:  # a dot: part of a power only between its digits
            if not count or _level_after(node, bottom) < _power_level(node):
                break
            count += 1
            continue
        if not _raised_after(node, top, bottom):
            break
        if _level_with_numerator(node, top, bottom):
            raise Unread("a symbol level with a fraction's numerator, beside it: a short bar?")
        count += 1
    return count


# A numerator digit the bar does not reach (a hand's short bar under "12", "x2") stands on the
# numerator's foot (0.07 of its height away at most, measured on a tester's drawings) at full
# size. A power of the fraction ends higher: 0.12-0.48 of the numerator's height above its
# foot (mathtext in DejaVu Sans, cm, STIX, 28-44 pt; as large as the numerator there).
_SAME_FOOT, _SAME_SIZE = 0.1, 0.75


def _level_with_numerator(node: Fraction | Radical, top: float, bottom: float) -> bool:
    """Whether what spans `top`..`bottom` right after a fraction stands where its numerator
    does, as large: more of the numerator, not a power of the fraction."""
    if not isinstance(node, Fraction):
        return False
    numerator = glyphs_of(node.numerator)
    if not numerator:
        return False
    foot = max(g.bottom for g in numerator)
    height = foot - min(g.top for g in numerator)
    return abs(bottom - foot) <= _SAME_FOOT * height and bottom - top >= _SAME_SIZE * height


def _sign_of_power(bar: Glyph, power: list[Glyph]) -> bool:
    """A minus sign level with the raised column after it (its middle 0.53-0.64 of the way
    down that column, measured; one on the line is below the column's bottom)."""
    top = min(g.top for g in power)
    bottom = max(g.bottom for g in power)
    return top + 0.3 * (bottom - top) <= bar.centre_y <= top + 0.85 * (bottom - top)


def _power_level(node: Fraction | Radical) -> float:
    return _RADICAL_POWER if isinstance(node, Radical) else _FRACTION_POWER


def _place_scripts(text: str, raised: list[bool], *, based: bool = False) -> str:
    """One character per column, so each raised column's character is known: x2 → x^(2),
    2 1 0 with 1 and 0 raised → 2^(10), 16 0 . 5 → 16^(0.5). Spaces are kept where the
    recognizer put them (they are not columns). Superscripts the recognizer wrote (x²) are
    kept only where they are exactly the raised columns; otherwise the columns decide.
    A raised minus before a power's digits is its sign. `based`: the run follows a fraction
    or a radical, the base of a power it begins with (`^(2)=?` after `sqrt(2)`)."""
    chars = [c for c in text if not c.isspace()]
    if len(chars) != len(raised):
        raise Unread("a raised symbol (a power) could not be matched to what was read")
    written = [c in _SUPERSCRIPTS + "⁻" for c in chars]
    if any(written):
        signed = any(up and c in "-⁻" for c, up in zip(chars, raised, strict=True))
        if not signed and all(
            w == (up and (c.isalnum() or w))
            for c, w, up in zip(chars, written, raised, strict=True)
        ):
            return text  # the recognizer wrote ² itself, exactly where the ink is raised
        text = text.translate(_PLAIN_DIGITS)
        chars = [c for c in text if not c.isspace()]
    # Raised marks that are not powers: the asterisk, quotes, the degree sign. A decimal
    # point between two raised digits is part of the power.
    power = [up and char.isalnum() for char, up in zip(chars, raised, strict=True)]
    for index in range(1, len(chars) - 1):
        if chars[index] in ".," and raised[index] and power[index - 1] and power[index + 1]:
            power[index] = True
    for index in range(len(chars) - 1):
        if chars[index] == "-" and raised[index] and power[index + 1]:
            power[index] = True  # x^{-1}: the sign of the power
    if based and raised[:1] == [True] and not power[0]:
        raise Unread("a raised mark right after a fraction or a radical could not be read")
    if power[:1] == [True] and not based:
        raise Unread("a raised symbol has nothing to be the power of")
    out: list[str] = []
    column = 0
    for char in text:
        if char.isspace():
            out.append(char)
            continue
        up = power[column]
        starts = up and (column == 0 or not power[column - 1])
        ends = up and (column + 1 == len(power) or not power[column + 1])
        out.append(("^(" if starts else "") + char + (")" if ends else ""))
        column += 1
    return "".join(out)


def _join(tokens: list[Token]) -> str:
    """Tokens side by side; a fraction is one operand, bracketed unless only a sum's or an
    equation's signs stand beside it: 2((x)/(3)), ((1)/(2))x, 8÷((1)/(2)), ((3)/(2))^(2)."""
    out = ""
    for index, token in enumerate(tokens):
        text = token.text
        if token.fraction:
            after = tokens[index + 1].text.lstrip()[:1] if index + 1 < len(tokens) else ""
            before = out.rstrip()[-1:]
            if before not in _LOOSE_BEFORE or after not in _LOOSE_AFTER:
                text = f"({text})"
        out += text
    return out
