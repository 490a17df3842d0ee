"""The quantities on the two sides of a step's claim, written in one unit: `3 km = 3000 m`
becomes `(3 * 1000) = 3000`, `1 h 30 min = 90 min` becomes `((1 * 60) + 30) = 90`.

Only units that units.py reads without doubt are read (km, kg, hours, 米, 厘米 …; 分 is not),
converted with pint's exact fractions; every unit on the claim must be of one dimension (a
rate or a shorthand such as "60 min/h" may hide in a mix: such a claim is not read). The
arithmetic itself is judged by step_arithmetic. Pure functions (sandboxed).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from app.symbolic.normalize import ParseError
from app.symbolic.step_text import Token
from app.symbolic.units import convert, unit_name

_CUSTOMARY = re.compile(r"inch|foot|yard|mile|pound|ounce|gallon|quart|pint|cup|spoon|acre")
_METRIC = re.compile(r"meter|gram|liter|metric_ton|hectare")
_CALENDAR = frozenset({"day", "week", "month", "year"})


@dataclass(frozen=True, slots=True)
class _Quantity:
    value: tuple[Token, ...]  # a number, or a parenthesised expression
    unit: str  # its spelling, as written


# A side read as its parts: tokens of arithmetic, quantities, and quantities written side by
# side (1 h 30 min: one length of time in two units, larger unit first).
_Part = Token | _Quantity | tuple[_Quantity, ...]


@dataclass(frozen=True, slots=True)
class QuantitySides:
    """Both sides of a claim, read as quantities."""

    left: tuple[_Part, ...]
    right: tuple[_Part, ...]
    unit: str  # the unit both are written in below: the right side's, where it has one

    def in_unit(self, scale: Fraction = Fraction(1)) -> tuple[tuple[Token, ...], ...]:
        """Both sides as plain arithmetic, each quantity in `unit` (times `scale`: with 2, a
        side of the unit's dimension doubles, a product of two lengths quadruples)."""
        return tuple(_in_unit(side, self.unit, scale) for side in (self.left, self.right))

    def across_systems(self) -> bool:
        """Does the claim relate a metric unit to a US customary one (1 ounce = 30 g, 1 mile =
        1.6 km)? Such factors are routinely rounded, or stated by the problem, so a claim
        between them may be an approximation rather than a slip."""
        names = [unit_name(u) for side in (self.left, self.right) for u in _units(side)]
        return any(_CUSTOMARY.search(n) for n in names) and any(_METRIC.search(n) for n in names)

    def across_calendar(self) -> bool:
        """Does the claim convert a day, a week, a month or a year (2 weeks = 80 hours, 4
        weeks = 20 days)? A working week or a school day makes such a claim true that the
        calendar makes false."""
        names = {unit_name(u) for side in (self.left, self.right) for u in _units(side)}
        return len(names) > 1 and bool(names & _CALENDAR)

    def numbers_alone(self) -> tuple[tuple[Token, ...], ...] | None:
        """Both sides with their units dropped (None: a side writes one value in two units)."""
        sides: list[tuple[Token, ...]] = []
        for side in (self.left, self.right):
            tokens: list[Token] = []
            for part in side:
                if isinstance(part, tuple):
                    return None
                tokens.extend(part.value if isinstance(part, _Quantity) else (part,))
            sides.append(tuple(tokens))
        return tuple(sides)

    def bare_numbers(self) -> set[Fraction]:
        """The numbers written without a unit (the 60 of 2 hours × 60 = 120 minutes)."""
        return {
            Fraction(part.text)
            for side in (self.left, self.right)
            for part in side
            if isinstance(part, Token) and part.kind == "num"
        }

    def without_factor(self, factor: Fraction) -> QuantitySides:
        """The claim with the bare numbers equal to `factor` read as 1: what it says before
        that conversion factor is applied (2 hours × 60 = 120 minutes: 2 hours = 120 minutes)."""

        def drop(side: tuple[_Part, ...]) -> tuple[_Part, ...]:
            return tuple(
                replace(part, text="1")
                if isinstance(part, Token) and part.kind == "num" and Fraction(part.text) == factor
                else part
                for part in side
            )

        return QuantitySides(drop(self.left), drop(self.right), self.unit)


def read_sides(left: Sequence[Token], right: Sequence[Token]) -> QuantitySides | None:
    """Both sides as quantities, when each carries a unit, every unit is read and all are of
    one dimension in more than one spelling (None otherwise: nothing to convert, or a unit
    not read beyond doubt)."""
    left_parts, right_parts = _parts(left), _parts(right)
    if left_parts is None or right_parts is None:
        return None
    units = [_units(left_parts), _units(right_parts)]
    if not units[0] or not units[1] or len({u for side in units for u in side}) < 2:
        return None
    target = units[1][0] if len(set(units[1])) == 1 else units[0][0]
    try:
        for unit in (*units[0], *units[1]):
            convert(Fraction(1), unit, target)  # one dimension, an exact factor
    except ParseError:
        return None
    return QuantitySides(left_parts, right_parts, target)


def _units(side: tuple[_Part, ...]) -> list[str]:
    found: list[str] = []
    for part in side:
        if isinstance(part, _Quantity):
            found.append(part.unit)
        elif isinstance(part, tuple):
            found.extend(q.unit for q in part)
    return found


def _unit_spelling(tokens: Sequence[Token]) -> str:
    """km / h → km/h, square feet → square feet."""
    text = ""
    for t in tokens:
        joined = t.text == "/" or text.endswith("/") or not text
        text += t.text if joined else " " + t.text
    return text


def reads_as_unit(spelling: str) -> bool:
    """A spelling of a measure's unit (cm, 厘米, hours); not a count (boxes, apples)."""
    try:
        unit_name(spelling)
    except KeyError:
        return False
    return True


def _parts(tokens: Sequence[Token]) -> tuple[_Part, ...] | None:
    """The side's parts; None when a unit is not read or stands where no value carries it."""
    parts: list[_Part] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        unit_end = i
        while unit_end < len(tokens) and _is_unit(tokens, unit_end):
            unit_end += 1
        if unit_end == i:
            if t.kind in ("var", "unit", "other"):
                return None  # a letter that is no unit: algebra
            parts.append(t)
            i += 1
            continue
        spelling = _unit_spelling(tokens[i:unit_end])
        value = _value_before(parts) if parts and reads_as_unit(spelling) else ()
        if not value:
            return None  # a unit not read, or one no number or parenthesis carries
        parts.append(_Quantity(value, spelling))
        i = unit_end
    return _joined(parts)


def _is_unit(tokens: Sequence[Token], i: int) -> bool:
    """A unit token, or a one-letter unit right after a number (5 kg = 500 g)."""
    t = tokens[i]
    if t.kind == "unit":
        return True
    if t.kind != "var" or i == 0 or tokens[i - 1].kind not in ("num", "rp"):
        return False
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    return reads_as_unit(t.text) and (following is None or following.text != "^")


def _value_before(parts: list[_Part]) -> tuple[Token, ...]:
    """Takes from `parts` the value a unit follows: a number, or a parenthesised
    expression (empty when it follows neither)."""
    last = parts[-1]
    if not isinstance(last, Token):
        return ()
    if last.kind == "num":
        parts.pop()
        return (last,)
    if last.kind != "rp":
        return ()
    depth = 0
    for k in range(len(parts) - 1, -1, -1):
        part = parts[k]
        if not isinstance(part, Token):
            return ()
        depth += (part.kind == "rp") - (part.kind == "lp")
        if depth == 0:
            value = tuple(p for p in parts[k:] if isinstance(p, Token))
            del parts[k:]
            return value
    return ()


def _joined(parts: list[_Part]) -> tuple[_Part, ...] | None:
    """Quantities written side by side (1 h 30 min) as one: the larger unit first, each
    value a plain number."""
    out: list[_Part] = []
    for part in parts:
        previous = out[-1] if out else None
        if isinstance(part, _Quantity) and isinstance(previous, (_Quantity, tuple)):
            run = previous if isinstance(previous, tuple) else (previous,)
            if any(len(q.value) != 1 for q in (*run, part)):
                return None
            try:
                if convert(Fraction(1), run[-1].unit, part.unit) <= 1:
                    return None  # 30 min 1 h: not a length of time written out
            except ParseError:
                return None
            out[-1] = (*run, part)
        else:
            out.append(part)
    return tuple(out)


def _in_unit(side: tuple[_Part, ...], target: str, scale: Fraction) -> tuple[Token, ...]:
    tokens: list[Token] = []
    for part in side:
        if isinstance(part, Token):
            tokens.append(part)
        elif isinstance(part, _Quantity):
            tokens.extend(_quantity(part, target, scale))
        else:
            first, last = part[0].value[0], part[-1].value[-1]
            tokens.append(Token("lp", "(", first.start, first.start))
            for k, quantity in enumerate(part):
                if k:
                    start = quantity.value[0].start
                    tokens.append(Token("op", "+", start, start))
                tokens.extend(_quantity(quantity, target, scale))
            tokens.append(Token("rp", ")", last.end, last.end))
    return tuple(tokens)


def _quantity(quantity: _Quantity, target: str, scale: Fraction) -> list[Token]:
    factor = convert(Fraction(1), quantity.unit, target) * scale
    if factor == 1:
        return list(quantity.value)  # 180 minutes in minutes: still the number written
    start, end = quantity.value[0].start, quantity.value[-1].end
    return [
        Token("lp", "(", start, start),
        *quantity.value,
        Token("op", "*", end, end),
        Token("num", str(factor), end, end),  # "p/q": the evaluator reads it exactly
        Token("rp", ")", end, end),
    ]


# A quantity the problem states: a number (one word may stand between: "1 game hour", "2
# real minutes"), or a/an/one/every/per/each/每/一, then a unit.
# Anchored and possessive: a run of 4,000 digits is tried once, from its start.
_COUNTED = r"(?:(?<![\d.,])\d++(?:[.,]\d++)*+|\b(?:an?|one|every|per|each)\b|[每一])"
_STATED_QUANTITY = re.compile(
    rf"{_COUNTED}\s*(?=(?:([A-Za-z]+)\s+)?([A-Za-z]+|[\u4e00-\u9fff]+))"  # words not consumed
)


def _spelled_unit(word: str) -> str | None:
    """The unit a word is, or begins with when written in Chinese (米对应 → 米)."""
    if word.isascii():
        return word if reads_as_unit(word) else None
    for end in range(min(len(word), 4), 0, -1):
        if reads_as_unit(word[:end]):
            return word[:end]
    return None


@functools.lru_cache(maxsize=64)  # read once for each of a check's forty steps
def units_related_by(problem: str) -> tuple[str, ...]:
    """The units of each dimension of which the problem states quantities in two or more
    different units ("1 cm on the plan is 2 m", "8 hours a day", "每天工作8小时"): such a
    problem may set up its own correspondence between them, so a step's `1 day = 25 hours`
    there is no conversion to check. Empty for a plain conversion question ("Convert 3 km to
    m": only one unit carries a number)."""
    stated: list[str] = []
    for match in _STATED_QUANTITY.finditer(problem):
        between, word = match.groups()
        for candidate in (between, word) if between else (word,):
            unit = _spelled_unit(candidate)
            if unit is not None:
                stated.append(unit)
                break
    related: set[str] = set()
    for first, second in itertools.combinations(stated, 2):
        if unit_name(first) == unit_name(second):
            continue
        try:
            convert(Fraction(1), first, second)
        except ParseError:
            continue
        related.update((first, second))
    return tuple(sorted(related))


def related_in(read: QuantitySides, related: Sequence[str]) -> bool:
    """Is the claim's unit of a dimension the problem relates itself?"""
    for unit in related:
        try:
            convert(Fraction(1), unit, read.unit)
        except ParseError:
            continue
        return True
    return False
