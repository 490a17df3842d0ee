"""Numbers written in words: "forty-two", 四十二, 两千 — written out, and read back as digits."""

from __future__ import annotations

import re
from functools import cache

_NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen - - twenty thirty forty fifty sixty seventy "
    "eighty ninety"
)
_ONES = _NUMBER_WORDS.split()[:20]
_TENS = _NUMBER_WORDS.split()[20:]  # indexed by the tens digit (0 and 1 unused)
_ZH_DIGITS = "零一二三四五六七八九"
LIANG = re.compile("二(?=[千百])")  # 两千, 两百: the spoken form of 二千, 二百


def english_words(n: int) -> str:
    """0 ≤ n < 10⁶ in words, as they are compared: "forty two", "three hundred five"."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + (f" {_ONES[n % 10]}" if n % 10 else "")
    if n < 1000:
        rest = f" {english_words(n % 100)}" if n % 100 else ""
        return f"{_ONES[n // 100]} hundred{rest}"
    rest = f" {english_words(n % 1000)}" if n % 1000 else ""
    return f"{english_words(n // 1000)} thousand{rest}"


def chinese_numeral(n: int) -> str:
    """0 ≤ n < 10⁴ in Chinese numerals: 四十二, 十五, 一百零五, 二千 (also said 两千)."""
    if n == 0:
        return "零"
    out, zero = "", False
    for value, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = n // value % 10
        if digit == 0:
            zero = bool(out)
            continue
        if zero:
            out += "零"
            zero = False
        out += ("" if unit == "十" and digit == 1 and not out else _ZH_DIGITS[digit]) + unit
    return out


_WORD = "|".join(w for w in _NUMBER_WORDS.split() if w != "-") + "|hundred"
_ENGLISH_RUN = re.compile(rf"\b(?:{_WORD})(?:(?:[\s-]+|\s+and\s+)(?:{_WORD}))*\b", re.I)
_CHINESE_RUN = re.compile(r"[零一二两三四五六七八九十百千]+")


@cache
def _values() -> dict[str, int]:
    """Every number below 10⁴ as English words below 1000 and Chinese numerals, to its value."""
    words = {english_words(n): n for n in range(1000)}
    for n in range(10_000):
        words[chinese_numeral(n)] = n
        words[LIANG.sub("两", chinese_numeral(n))] = n
    words["两"] = 2
    return words


def _digits(match: re.Match[str], spoken: str) -> str:
    value = _values().get(spoken)
    return match.group() if value is None else str(value)


def as_digits(text: str) -> str:
    """`text` with the numbers it spells out written in digits ("twelve or thirteen" → "12 or
    13", 十二或十三 → "12或13"); a run of words that is no number stays as it is."""

    def english(match: re.Match[str]) -> str:
        words = re.split(r"[\s-]+", match.group().lower())
        return _digits(match, " ".join(w for w in words if w != "and"))

    text = _ENGLISH_RUN.sub(english, text)
    # A lone 一 is a word more often than a number: 一共, 一半, 一些.
    return _CHINESE_RUN.sub(
        lambda m: m.group() if m.group() == "一" else _digits(m, m.group()), text
    )
