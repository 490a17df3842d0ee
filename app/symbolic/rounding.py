"""Rounding: the instruction a problem gives ("to the nearest tenth", "保留两位小数",
"精确到百分位") and the mark a student puts on an approximate answer (≈, "about", "约").

A decimal that only approximates the exact value is a right answer when the problem asked for
that rounding, or when the student says it is approximate; otherwise nobody can tell a rounded
answer from a wrong one (6.33 for 19/3), and the checker abstains.
"""

from __future__ import annotations

import re

import sympy as sp

from app.symbolic.normalize import ParseError

_PLACE_WORDS = {
    "whole number": 0,
    "integer": 0,
    "unit": 0,
    "one": 0,
    "ones": 0,
    "tenth": 1,
    "hundredth": 2,
    "thousandth": 3,
    # "to the nearest ten / hundred / thousand": places before the point (negative places).
    "ten": -1,
    "hundred": -2,
    "thousand": -3,
}
_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "1": 1, "2": 2, "3": 3, "4": 4}
_CHINESE_COUNT = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "1": 1, "2": 2, "3": 3, "4": 4}
_CHINESE_PLACES = {
    "个位": 0,
    "十分位": 1,
    "百分位": 2,
    "千分位": 3,
    "十位": -1,
    "百位": -2,
    "千位": -3,
}
_DECIMAL_UNITS = {"1": 0, "0.1": 1, "0.01": 2, "0.001": 3}

_ENGLISH = re.compile(
    r"[,(]?\s*(?:\b(?:and\s+)?(?:round(?:ed)?|give|giving|write|express)\s+(?:(?:your|the)\s+)?"
    r"(?:answer|result)?\s*)?\b(?:(?:correct|accurate)\s+)?to\s+the\s+nearest\s+"
    r"(whole\s+number|integer|unit|ones?|tenth|hundredth|thousandth|ten|hundred|thousand)\b\s*\)?"
    r"|[,(]?\s*(?:\b(?:and\s+)?(?:round(?:ed)?|give|giving|write|express)\s+(?:(?:your|the)\s+)?"
    r"(?:answer|result)?\s*)?\b(?:(?:correct|accurate)\s+)?to\s+(one|two|three|four|[1-4])\s+"
    r"(?:decimal\s+places?|d\.?\s?p\.?)(?![A-Za-z])\s*\)?",
    re.IGNORECASE,
)
_CHINESE = re.compile(
    r"[,，(（]?\s*(?:结果|得数|答案)?\s*(?:保留\s*(整数|([一两二三四1-4])\s*位\s*小数)"
    r"|(?:精确|四舍五入|省略)到\s*(个位|十分位|百分位|千分位|十位|百位|千位|0\.0*1|1(?![\d.])))"
    r"\s*[)）]?"
)
_APPROXIMATE = re.compile(
    r"^\s*(?:≈|≒|~|∼|约等于|约为|约|大约|approximately|approx\.?|about|around|roughly)\s*"
    r"|^\s*([a-zA-Z])\s*(?:≈|≒|∼)\s*",
    re.IGNORECASE,
)


_ROUND_WORD = re.compile(
    r"\bround\b|(?:用)?四舍五入(?:法)?(?:求)?|的近似(?:数|值)|(?:求)?近似(?:数|值)", re.IGNORECASE
)
_APPROX_SIGN = re.compile(r"\s*(?:≈|≒|∼)\s*")


def find_rounding(text: str) -> tuple[int | None, str]:
    """The number of decimal places the problem asks for (None: no rounding asked), and the
    text with the instruction blanked out. Two different instructions: ParseError."""
    found: set[int] = set()

    def english(match: re.Match[str]) -> str:
        if match.group(1):
            found.add(_PLACE_WORDS[re.sub(r"\s+", " ", match.group(1).lower())])
        else:
            found.add(_COUNT_WORDS[match.group(2).lower()])
        return " " * len(match.group(0))

    def chinese(match: re.Match[str]) -> str:
        kept, count, place = match.group(1), match.group(2), match.group(3)
        if kept == "整数":
            found.add(0)
        elif count:
            found.add(_CHINESE_COUNT[count])
        elif place in _CHINESE_PLACES:
            found.add(_CHINESE_PLACES[place])
        else:
            found.add(_DECIMAL_UNITS[place])
        return " " * len(match.group(0))

    text = _ENGLISH.sub(english, text)
    text = _CHINESE.sub(chinese, text)
    if len(found) > 1:
        raise ParseError("two rounding instructions")
    if found:  # "Round 3.14159 to the nearest hundredth", "用四舍五入法": the same instruction
        text = _ROUND_WORD.sub(lambda m: " " * len(m.group(0)), text)
    return (found.pop() if found else None), text


_SIG_COUNT = r"(one|two|three|four|five|six|\d{1,2})"
_SIG_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_SIGNIFICANT = re.compile(
    r"[,(]?\s*(?:\b(?:and\s+)?(?:round(?:ed)?|give|giving|write|express)\s+(?:(?:your|the)\s+)?"
    r"(?:answer|result)?\s*)?\b(?:(?:correct|accurate)\s+)?to\s+"
    rf"(a\s+maximum\s+of\s+)?{_SIG_COUNT}\s+(?:significant\s+(?:figures?|digits?)|s\.?\s?f\.?"
    r"|sig\.?\s+figs?)(?![A-Za-z])\s*\)?"
    r"|[,，(（]?\s*(?:结果|得数|答案)?\s*保留\s*([1-9一两二三四五六])\s*(?:个|位)\s*有效数字\s*[)）]?",
    re.IGNORECASE,
)
# reasoning-gym's "Please solve this problem to …, rounding up from the half": the task said
# around the instruction, dropped only when a significant-figures instruction is found.
_SIGNIFICANT_AROUND = re.compile(
    r"(?:please\s+)?solve\s+this\s+problem(?=\s*(?:$|[,.]))|[,;]?\s*rounding\s+up\s+from\s+the"
    r"\s+half\b|[,;]?\s*(?:rounding|round)\s+half\s+up\b",
    re.IGNORECASE,
)


def find_significant(text: str) -> tuple[tuple[int, bool] | None, str]:
    """'to 3 significant figures', '保留三个有效数字', 'to a maximum of 12 significant digits':
    ((digits, at most), the text with the instruction blanked); two instructions: ParseError."""
    found: set[tuple[int, bool]] = set()

    def one(match: re.Match[str]) -> str:
        if match.group(3):
            written = match.group(3)
            count = _CHINESE_COUNT.get(written) or {"五": 5, "六": 6}.get(written) or int(written)
        else:
            word = match.group(2).lower()
            count = _SIG_WORDS.get(word) or int(word)
        if not 1 <= count <= 15:
            raise ParseError("significant figures out of range")
        found.add((count, bool(match.group(1))))
        return " " * len(match.group(0))

    text = _SIGNIFICANT.sub(one, text)
    if len(found) > 1:
        raise ParseError("two significant-figure instructions")
    if not found:
        return None, text
    text = _SIGNIFICANT_AROUND.sub(lambda m: " " * len(m.group(0)), text)
    text = _ROUND_WORD.sub(lambda m: " " * len(m.group(0)), text)
    return found.pop(), text


def significant_places(value: sp.Expr, digits: int) -> int:
    """The decimal places that keep `digits` significant digits of `value` once rounded
    (9.996 to 3: 10.0, one place). ParseError for 0, or a tie below 0 ("rounding up from the
    half" of -2.5: -2 or -3?)."""
    magnitude = abs(value)
    if magnitude.is_zero is not False:
        raise ParseError("significant figures of 0")
    exponent = int(sp.floor(sp.log(magnitude, 10).evalf(60)))
    while sp.Integer(10) ** exponent > magnitude:
        exponent -= 1
    while sp.Integer(10) ** (exponent + 1) <= magnitude:
        exponent += 1
    places = digits - 1 - exponent
    if abs(round_half_up(value, places)) >= sp.Integer(10) ** (exponent + 1):
        places -= 1  # rounding carried into a new digit: 9.996 → 10.0
        round_half_up(value, places)  # a tie below zero at the places kept is refused too
    return places


def significant_text(value: sp.Expr, digits: int, at_most: bool) -> str:
    """12345 to 3: '12300'; 1.2 to 3: '1.20'; at most 12 digits of 7.023159: '7.023159'."""
    places = significant_places(value, digits)
    text = rounded_text(value, places)
    if at_most and "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def round_half_up(value: sp.Expr, places: int) -> sp.Rational:
    """The exact value rounded half up (四舍五入), as an exact rational. A tie below zero is
    ParseError: -2.5 is -3 by magnitude (四舍五入) and -2 half up toward +∞ ("round half up"
    in English-language texts); which one a class was taught is not known."""
    scale = sp.Integer(10) ** places  # 1/10 for the nearest ten
    scaled = abs(value) * scale
    if value.is_negative and scaled - sp.floor(scaled) == sp.Rational(1, 2):
        raise ParseError("a tie below zero: which way is up?")
    magnitude = sp.floor(scaled + sp.Rational(1, 2))
    if not magnitude.is_Integer:
        raise ParseError("cannot round this value exactly")
    sign = -1 if value.is_negative else 1
    return sp.Rational(sign * int(magnitude)) / scale


def rounded_text(value: sp.Expr, places: int) -> str:
    """'6.33', '6.30', '7': the value rounded as asked, written with that many places."""
    rounded = round_half_up(value, places)
    if places <= 0:  # to the nearest whole number, ten, hundred…
        return str(int(rounded))
    sign = "-" if rounded < 0 else ""
    digits = str(abs(int(rounded * 10**places))).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def strip_approximate(candidate: str) -> tuple[bool, str]:
    """'≈ 6.33', 'about 6.33', '约6.33', 'x ≈ 6.33' → (True, '6.33' / 'x = 6.33')."""
    match = _APPROXIMATE.match(candidate)
    marked = match is not None or bool(_APPROX_SIGN.search(candidate))
    if match is not None:
        rest = candidate[match.end() :]
        candidate = f"{match.group(1)} = {rest}" if match.group(1) else rest
    return marked, _APPROX_SIGN.sub(" = ", candidate)
