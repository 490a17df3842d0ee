"""Unit conversions with pint: "Convert 72 km/h to m/s", "3.5米等于多少厘米？".

Only the spellings listed here are read, each mapped to one pint unit (no guessing between a US
and a metric ton, a fluid and a mass ounce, 分 as minute or as cent); pint then converts with
exact fractions. A problem that is anything more than one quantity and the unit asked is not
read here.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from typing import Any

import sympy as sp

from app.symbolic.normalize import ParseError

_LENGTH = {
    "mm": "millimeter",
    "cm": "centimeter",
    "dm": "decimeter",
    "m": "meter",
    "km": "kilometer",
    "in": "inch",
    "ft": "foot",
    "yd": "yard",
    "mi": "mile",
    "毫米": "millimeter",
    "厘米": "centimeter",
    "分米": "decimeter",
    "米": "meter",
    "千米": "kilometer",
    "公里": "kilometer",
}
_WORDS = {
    "millimeter": "millimeter",
    "millimetre": "millimeter",
    "centimeter": "centimeter",
    "centimetre": "centimeter",
    "meter": "meter",
    "metre": "meter",
    "kilometer": "kilometer",
    "kilometre": "kilometer",
    "inch": "inch",
    "inches": "inch",
    "foot": "foot",
    "feet": "foot",
    "yard": "yard",
    "mile": "mile",
    "gram": "gram",
    "kilogram": "kilogram",
    "milligram": "milligram",
    "tonne": "metric_ton",
    "pound": "pound",
    "ounce": "ounce",
    "liter": "liter",
    "litre": "liter",
    "milliliter": "milliliter",
    "millilitre": "milliliter",
    "second": "second",
    "minute": "minute",
    "hour": "hour",
    "day": "day",
    "week": "week",
}
_OTHER = {
    "mg": "milligram",
    "g": "gram",
    "kg": "kilogram",
    "t": "metric_ton",
    "lb": "pound",
    "lbs": "pound",
    "oz": "ounce",
    "ml": "milliliter",
    "mL": "milliliter",
    "l": "liter",
    "L": "liter",
    "s": "second",
    "sec": "second",
    "min": "minute",
    "h": "hour",
    "hr": "hour",
    "mph": "mile/hour",
    "克": "gram",
    "千克": "kilogram",
    "公斤": "kilogram",
    "吨": "metric_ton",
    "毫升": "milliliter",
    "升": "liter",
    "秒": "second",
    "分钟": "minute",
    "小时": "hour",
    "时": "hour",
    "天": "day",
    "公顷": "hectare",
}
_TIME = {"s": "second", "h": "hour", "hr": "hour", "min": "minute", "秒": "second", "时": "hour"}
_TIME.update({"小时": "hour", "分钟": "minute", "分": "minute"})


def _unit_table() -> dict[str, str]:
    table: dict[str, str] = {**_LENGTH, **_OTHER}
    for word, unit in _WORDS.items():
        table[word] = unit
        table[word + ("es" if word.endswith("ch") else "s")] = unit
    for short, unit in _LENGTH.items():  # cm^2, cm², 平方厘米, cubic meters…
        if short.isascii():
            table[f"{short}^2"] = table[f"{short}^(2)"] = f"{unit}**2"
            table[f"{short}^3"] = table[f"{short}^(3)"] = f"{unit}**3"
        else:
            table[f"平方{short}"] = f"{unit}**2"
            table[f"立方{short}"] = f"{unit}**3"
    for word in ("meter", "metre", "centimeter", "centimetre", "kilometer", "kilometre", "foot"):
        unit = _WORDS[word]
        for plural in (word, word + "s", "feet" if word == "foot" else word):
            table[f"square {plural}"] = f"{unit}**2"
            table[f"cubic {plural}"] = f"{unit}**3"
    for length in ("m", "km", "cm", "mi", "米", "千米", "公里"):
        for time_unit, name in _TIME.items():
            if length.isascii() == time_unit.isascii():
                table[f"{length}/{time_unit}"] = f"{_LENGTH[length]}/{name}"
    for word in ("meter", "metre", "kilometer", "kilometre", "centimeter", "centimetre", "mile"):
        for length in (word, word + "s"):  # "20 meters per second"
            for time_word in ("second", "minute", "hour"):
                table[f"{length} per {time_word}"] = f"{_WORDS[word]}/{time_word}"
    for length in ("foot", "feet"):
        for time_word in ("second", "minute", "hour"):
            table[f"{length} per {time_word}"] = f"foot/{time_word}"
    table["千米每小时"] = "kilometer/hour"
    table["米每秒"] = "meter/second"
    return table


UNITS = _unit_table()
# Longest spelling first, so "km/h" wins over "km" and "平方米" over "米".
_UNIT_ALTERNATION = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
_NUMBER = r"(\d+(?:\.\d+)?(?:\s*/\s*\d+)?)"
_U = rf"({_UNIT_ALTERNATION})"
_ENDS_UNIT = r"(?![A-Za-z])"
_CONVERSIONS = [
    re.compile(
        rf"^\s*(?:convert|change|express)\s+{_NUMBER}\s*{_U}{_ENDS_UNIT}\s+(?:to|into|in)\s+"
        rf"{_U}{_ENDS_UNIT}\s*[.?!]?\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        rf"^\s*(?:what\s+is\s+)?{_NUMBER}\s*{_U}{_ENDS_UNIT}\s+(?:in|to)\s+{_U}{_ENDS_UNIT}\s*\??\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        rf"^\s*how\s+many\s+{_U}{_ENDS_UNIT}\s+(?:are\s+(?:there\s+)?in|is|make)\s+{_NUMBER}\s*"
        rf"{_U}{_ENDS_UNIT}\s*\??\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        rf"^\s*{_NUMBER}\s*{_U}\s*(?:等于|是|=)\s*(?:多少|几|\(\s*\)|（\s*）)\s*{_U}\s*[?？。]?\s*$"
    ),
    re.compile(rf"^\s*{_NUMBER}\s*{_U}\s*=\s*(?:\?|\(\s*\))\s*{_U}\s*[?？。]?\s*$"),
    # "把 3.5 米化成厘米", "将 2 小时换算成分钟"
    re.compile(
        rf"^\s*(?:把|将)\s*{_NUMBER}\s*{_U}\s*(?:化成|化为|换算成|换算为|改写成|写成)\s*{_U}"
        r"\s*[?？。]?\s*$"
    ),
]


@lru_cache(maxsize=1)
def _registry() -> Any:
    import pint  # heavy (1.5 to 3 s): built once per process, at import (below)

    return pint.UnitRegistry(non_int_type=Fraction)


# Built when this module is imported, in the server before the sandbox forks its workers: a
# worker that had to build it inside its 3 s time slice timed out on a loaded machine, and its
# replacement, forked without it, timed out again (bench solve: 0 of 10 unit items verified).
_registry()


def _fraction(number: str) -> Fraction:
    if "/" in number:
        top, bottom = number.split("/")
        return Fraction(int(top), int(bottom))
    return Fraction(number)


def convert(value: Fraction, source: str, target: str) -> Fraction:
    """`value` in the unit spelled `source`, expressed in the one spelled `target`, exactly."""
    import pint

    registry = _registry()
    try:
        quantity = registry.Quantity(value, unit_name(source)).to(unit_name(target))
    except (pint.DimensionalityError, KeyError) as exc:
        raise ParseError(f"cannot convert {source} to {target}") from exc
    magnitude = quantity.magnitude
    if not isinstance(magnitude, (Fraction, int)):
        raise ParseError("an inexact conversion")
    return Fraction(magnitude)


def read_conversion(text: str) -> tuple[sp.Rational, str, str] | None:
    """'Convert 72 km/h to m/s' → (20, 'km/h', 'm/s'); None when the text is not exactly a
    conversion of one quantity."""
    for index, pattern in enumerate(_CONVERSIONS):
        match = pattern.match(text)
        if match is None:
            continue
        if index == 2:  # "how many <target> are in <number> <source>"
            target, number, source = match.groups()
        else:
            number, source, target = match.groups()
        value = convert(_fraction(number), source, target)
        return sp.Rational(value.numerator, value.denominator), source, target
    return None


def unit_name(spelling: str) -> str:
    """pint's name for a listed spelling; a word may be capitalised ("Meters"), a symbol not
    ("MM" is no millimetre)."""
    if spelling in UNITS:
        return UNITS[spelling]
    if len(spelling) > 3 and spelling.lower() in UNITS:
        return UNITS[spelling.lower()]
    raise KeyError(spelling)


def units_in(problem: str) -> frozenset[str]:
    """The unit spellings a problem uses: after a number, or as the unit asked for."""
    found = re.findall(rf"(?:\d\s*|\b(?:to|into|in)\s+|多少|\)\s*){_U}(?![A-Za-z])", problem)
    return frozenset(found)


_TRAILING_UNIT = re.compile(rf"^(.*?\d)\s*{_U}\s*\.?\s*$")


def split_unit(answer: str) -> tuple[str, str | None]:
    """'20 m/s' → ('20', 'm/s'); '20' → ('20', None)."""
    match = _TRAILING_UNIT.match(answer.strip())
    if match is None:
        return answer, None
    return match.group(1), match.group(2)


def same_unit(a: str, b: str) -> bool:
    """Two spellings of one unit (m/s and 米/秒)."""
    try:
        return unit_name(a) == unit_name(b)
    except KeyError:
        return False


_ASKED_UNIT = re.compile(
    rf"(?:\bhow\s+(?:many|much)|\b(?:in|into|to)|多少|几|\(\s*\)|（\s*）)\s*{_U}{_ENDS_UNIT}",
    re.IGNORECASE,
)


def asked_unit(question: str) -> str | None:
    """The unit a question asks for ("How many grams …", "in square meters", "合多少克"), the
    last one named; None when it names none."""
    found = _ASKED_UNIT.findall(question)
    return found[-1] if found else None


def in_unit(value: Fraction, source: str, target: str) -> Fraction | None:
    """`convert`, or None where the units do not convert (another dimension) or not exactly."""
    try:
        return convert(value, source, target)
    except ParseError:
        return None


def measured(answer: str) -> tuple[Fraction, str] | None:
    """'1,200 g' → (1200, 'g'), '5000千克' → (5000, '千克'): a plain number and a listed unit;
    None for anything else."""
    number, unit = split_unit(answer)
    if unit is None:
        return None
    try:
        return _fraction(number.replace(",", "").strip()), unit
    except (ValueError, ZeroDivisionError):
        return None
