"""Find the two-dimensional structure of printed math in its ink: fractions (nested too),
radicals with their extent, raised and lowered symbols, and the lines they sit on.

A line recognizer reads left to right and silently drops what is stacked, so this step
groups the pieces first: a thin bar with pieces close above and below it, inside its span,
is a fraction; a piece whose box holds others and whose right end is only a top stroke is a
radical sign over them. What is left between such groups is read as text, one crop each.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from app.ocr.ink import Glyph, Ink

# A numerator or denominator sits this close to its bar (times the character height).
_STACK_GAP = 0.6
# A piece belongs above/below a bar when this much of its width is inside the bar's span.
_INSIDE_SPAN = 0.6


@dataclass(slots=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top


def _union(parts: list[Node]) -> Box:
    return Box(
        min(p.box.left for p in parts),
        min(p.box.top for p in parts),
        max(p.box.right for p in parts),
        max(p.box.bottom for p in parts),
    )


@dataclass(slots=True)
class Piece:
    """One glyph not (yet) part of a fraction or radical."""

    glyph: Glyph
    bar: bool
    box: Box = field(init=False)

    def __post_init__(self) -> None:
        g = self.glyph
        self.box = Box(g.left, g.top, g.right, g.bottom)


@dataclass(slots=True)
class Fraction:
    bar: Glyph
    numerator: list[Node]
    denominator: list[Node]
    box: Box


@dataclass(slots=True)
class Radical:
    sign: Glyph
    body: list[Node]
    box: Box


Node = Piece | Fraction | Radical


def glyphs_of(nodes: list[Node]) -> list[Glyph]:
    out: list[Glyph] = []
    for node in nodes:
        if isinstance(node, Piece):
            out.append(node.glyph)
        elif isinstance(node, Fraction):
            out += [node.bar, *glyphs_of(node.numerator), *glyphs_of(node.denominator)]
        else:
            out += [node.sign, *glyphs_of(node.body)]
    return out


def _inside_span(node: Node, bar: Box) -> bool:
    shared = min(node.box.right, bar.right) - max(node.box.left, bar.left)
    return shared >= _INSIDE_SPAN * max(node.box.width, 1)


def _stack(bar: Box, nodes: list[Node], char_height: float, upward: bool) -> list[Node]:
    """The nodes stacked on one side of `bar`, grown outwards while each is close."""
    gap_limit = _STACK_GAP * char_height
    candidates = [
        n
        for n in nodes
        if _inside_span(n, bar)
        and (n.box.bottom <= bar.top + 1 if upward else n.box.top >= bar.bottom - 1)
    ]
    taken: list[Node] = []
    edge = bar.top if upward else bar.bottom
    changed = True
    while changed:
        changed = False
        for node in candidates:
            if node in taken:
                continue
            gap = edge - node.box.bottom if upward else node.box.top - edge
            if gap <= gap_limit:
                taken.append(node)
                edge = min(edge, node.box.top) if upward else max(edge, node.box.bottom)
                changed = True
    return taken


def _is_fraction_side(side: list[Node], char_height: float) -> bool:
    """Real numerators have a character-sized piece (the dots of ÷ are not one)."""
    return any(
        not (isinstance(n, Piece) and n.bar)
        and max(n.box.height, n.box.width) >= 0.27 * char_height
        for n in side
    )


def _divide_sign(bar: Piece, above: list[Node], below: list[Node], char_height: float) -> bool:
    """A bar with one round dot right over its middle and one right under it: '÷'. Its dots
    can be as big as a quarter of the fractions' digits beside it (cm at 44 pt), so they pass
    for a numerator and a denominator by size alone."""
    if len(above) != 1 or len(below) != 1:
        return False
    for dot in (above[0], below[0]):
        if not isinstance(dot, Piece) or dot.bar:
            return False
        box = dot.box
        size = max(box.width, box.height)
        if size > 0.35 * char_height or min(box.width, box.height) < 0.6 * size:
            return False
        middle = (box.left + box.right) / 2
        if abs(middle - (bar.box.left + bar.box.right) / 2) > 0.15 * bar.box.width:
            return False
    return True


def _radical_shape(ink: Ink, glyph: Glyph, body: list[Node]) -> bool:
    """A radical sign: its right end is only the top stroke, which runs over the whole body
    as a thin horizontal bar (nothing of the sign lower down over the body: the diagonal of
    '%' or the loop of a '6' with a broken-off piece inside is no radical), and the part left
    of the body is one stroke per row in its upper half (a root index joined to the hook is
    not part of the sign; it is found apart or the radical is not read)."""
    mask = ink.labels[glyph.top : glyph.bottom, glyph.left : glyph.right] == glyph.label
    tail = mask[:, -max(2, glyph.width // 10) :]
    rows = np.nonzero(tail.any(axis=1))[0]
    if len(rows) == 0 or rows.max() >= 0.35 * glyph.height:
        return False
    start = int(min(n.box.left for n in body)) - glyph.left
    top_band = mask[: max(2, int(0.3 * glyph.height)), max(start, 0) :]
    if top_band.shape[1] == 0 or float(top_band.any(axis=0).mean()) < 0.9:
        return False
    thickness = int(rows.max()) + 1
    over_body = mask[:, max(start, 0) :]
    if over_body[thickness + 2 :, :].any():
        return False
    body_top = int(min(n.box.top for n in body)) - glyph.top
    if body_top < thickness - 1:
        return False
    left_part = mask[: int(0.45 * glyph.height), : max(start, 0)]
    runs = np.count_nonzero(np.diff(left_part.astype(np.int8), axis=1) == 1, axis=1)
    runs = runs + left_part[:, 0]
    return not bool((runs > 1).any())


def _radical_body(ink: Ink, sign: Piece, nodes: list[Node]) -> list[Node]:
    box, tolerance = sign.box, 0.15 * ink.char_height
    body = [
        n
        for n in nodes
        if n is not sign
        and n.box.left >= box.left + 0.15 * ink.char_height
        and n.box.right <= box.right + tolerance
        and n.box.top >= box.top - 1
        and n.box.bottom <= box.bottom + tolerance
    ]
    return body if body and _radical_shape(ink, sign.glyph, body) else []


def group(ink: Ink, nodes: list[Node]) -> list[Node]:
    """Fold radicals and fractions (outermost first), their insides grouped in turn."""
    nodes = list(nodes)
    while True:
        signs = sorted(
            (n for n in nodes if isinstance(n, Piece) and not n.bar),
            key=lambda n: -(n.box.width * n.box.height),
        )
        for sign in signs:
            body = _radical_body(ink, sign, nodes) if isinstance(sign, Piece) else []
            if body:
                nodes = [n for n in nodes if n is not sign and n not in body]
                nodes.append(Radical(sign.glyph, group(ink, body), _union([sign, *body])))
                break
        else:
            fraction = _widest_fraction(ink, nodes)
            if fraction is None:
                return nodes
            bar, above, below = fraction
            nodes = [n for n in nodes if n is not bar and n not in above and n not in below]
            nodes.append(
                Fraction(
                    bar.glyph, group(ink, above), group(ink, below), _union([bar, *above, *below])
                )
            )


def _widest_fraction(ink: Ink, nodes: list[Node]) -> tuple[Piece, list[Node], list[Node]] | None:
    bars = sorted((n for n in nodes if isinstance(n, Piece) and n.bar), key=lambda n: -n.box.width)
    for bar in bars:
        others = [n for n in nodes if n is not bar]
        above = _stack(bar.box, others, ink.char_height, upward=True)
        below = _stack(bar.box, others, ink.char_height, upward=False)
        if (
            _is_fraction_side(above, ink.char_height)
            and _is_fraction_side(below, ink.char_height)
            and not _divide_sign(bar, above, below, ink.char_height)
        ):
            return bar, above, below
    return None


def overbar(nodes: list[Node], char_height: float) -> bool:
    """A bar left over with symbols right under it and nothing over it: a radical's extent
    (or a vinculum) whose sign was not joined to it; reading it as a minus would be wrong."""
    for bar in (n for n in nodes if isinstance(n, Piece) and n.bar):
        others = [n for n in nodes if n is not bar]
        below = _stack(bar.box, others, char_height, upward=False)
        if _is_fraction_side(below, char_height) and not _stack(
            bar.box, others, char_height, upward=True
        ):
            return True
    return False


def lines(nodes: list[Node]) -> list[list[Node]]:
    """Nodes whose vertical extents overlap share a line; lines top to bottom, each left to
    right."""
    ordered = sorted(nodes, key=lambda n: n.box.top)
    rows: list[tuple[Box, list[Node]]] = []
    for node in ordered:
        for index, (extent, members) in enumerate(rows):
            shared = min(extent.bottom, node.box.bottom) - max(extent.top, node.box.top)
            if shared > 0.3 * min(node.box.height, extent.height):
                members.append(node)
                rows[index] = (_union(members), members)
                break
        else:
            rows.append((node.box, [node]))
    return [sorted(members, key=lambda n: n.box.left) for _, members in rows]


def top_level(ink: Ink) -> list[Node]:
    pieces: list[Node] = [Piece(g, ink.is_bar(g)) for g in ink.glyphs if not ink.is_speck(g)]
    return group(ink, pieces)


def has_structure(nodes: list[Node]) -> bool:
    return any(not isinstance(n, Piece) for n in nodes)
