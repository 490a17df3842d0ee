"""Division with a remainder (有余数的除法): "17 ÷ 5 = ? 余 ?", "17 ÷ 5 = (  )……(  )",
"17÷5=□……□", "Find the quotient and remainder when 17 is divided by 5", and the remainder
alone: "What is the remainder when 17 is divided by 5?", "17除以5的余数是多少？", "17 mod 5",
"Find the remainder when $2^{100}$ is divided by 7." (a power of whole numbers, or a sum or a
product of them, "2^10 + 3", where only the remainder is asked).

Whole numbers only, and a divisor that is not 0. The answer is the quotient and the remainder
("3 余 2", "3……2", "3 R 2", "3 remainder 2", "商3余2"), or the remainder alone where only it is
asked ("2", "余数是2"). The texts here are normalized (normalize.py: ÷ is "/", …… is "......").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_BLANK = r"(?:\?|[(（]\s*[)）]|□|_+)?"
_MARK = r"(?:余|\.{2,}|…+|\bR\b|\br\b|\bremainder\b)"
_NUMBER = r"(\d{1,12})"
# The remainder alone may be asked of a power: "2^100", "2^(100)" (from $2^{100}$), and, where
# words close the dividend ("when … is divided by", "…除以"), of sums and products of them:
# "2^10 + 3", "3 × 5^20" (not after "mod": 2^10 + 3 mod 7 is 2^10 + (3 mod 7)).
_TERM = r"(?:\d{1,12}|\d{1,6}\s*\^\s*(?:\d{1,6}|\(\s*\d{1,6}\s*\)))"
_DIVIDEND = rf"({_TERM})"
_SUM = rf"({_TERM}(?:\s*[-+*×]\s*{_TERM}){{0,7}})"
MAX_DIGITS = 1000  # as evaluation.MAX_RESULT_DIGITS: a power past it is not computed
_BOTH = [
    re.compile(rf"^\s*{_NUMBER}\s*/\s*{_NUMBER}\s*=\s*{_BLANK}\s*{_MARK}\s*{_BLANK}\s*[.。]?\s*$"),
    re.compile(
        rf"^\s*(?:find|what\s+are|give)\s+the\s+quotient\s+and\s+(?:the\s+)?remainder\s+(?:when|of)"
        rf"\s+{_NUMBER}\s+(?:is\s+)?divided\s+by\s+{_NUMBER}\s*[?.]?\s*$",
        re.IGNORECASE,
    ),
]
_REMAINDER_ONLY = [
    re.compile(
        rf"^\s*(?:what\s+is\s+|find\s+)?the\s+remainder\s+(?:when|of)\s+{_SUM}\s+"
        rf"(?:is\s+)?divided\s+by\s+{_NUMBER}\s*[?.]?\s*$",
        re.IGNORECASE,
    ),
    re.compile(rf"^\s*{_SUM}\s*除以\s*{_NUMBER}\s*的余数是(?:多少|几)\s*[?。]?\s*$"),
    re.compile(
        rf"^\s*(?:what\s+is\s+)?{_DIVIDEND}\s+mod(?:ulo)?\s+{_NUMBER}\s*(?:=\s*\?)?\s*[?.]?\s*$",
        re.IGNORECASE,
    ),
]
_PAIR = re.compile(
    r"^\s*(?:商\s*(?:是|为)?\s*)?(\d+)\s*[,，]?\s*(?:余数?\s*(?:是|为)?|\.{2,}|…+|R|r|rem\.?"
    r"|remainder)\s*(\d+)\s*[.。]?\s*$|^\s*quotient\s*(?:is\s*)?(\d+)\s*[,;]?\s*(?:and\s+)?"
    r"remainder\s*(?:is\s*)?(\d+)\s*[.。]?\s*$",
    re.IGNORECASE,
)
_ALONE = re.compile(
    r"^\s*(?:(?:the\s+)?remainder\s+is\s+|余数\s*(?:是|为)?\s*|余\s*)?(\d+)\s*[.。]?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class RemainderQuestion:
    dividend: int
    divisor: int
    both: bool  # quotient and remainder asked, else the remainder alone

    @property
    def answer(self) -> tuple[int, int]:
        return divmod(self.dividend, self.divisor)


def read_remainder_question(text: str) -> RemainderQuestion | None:
    for patterns, both in ((_BOTH, True), (_REMAINDER_ONLY, False)):
        for pattern in patterns:
            match = pattern.match(text)
            if match is not None:
                dividend, divisor = _whole(match.group(1)), int(match.group(2))
                if dividend is None or not divisor:
                    return None
                return RemainderQuestion(dividend, divisor, both)
    return None


def _whole(written: str) -> int | None:
    """'17' → 17, '2^(100)' → 2**100, '2^10 + 3 × 5' → 1039; None for a value past MAX_DIGITS
    digits, 0^0, or below 0 (whose remainder has two conventions)."""
    total, sign = 0, 1
    for part in re.split(r"\s*([-+])\s*", written.strip()):
        if part in ("+", "-"):
            sign = -1 if part == "-" else 1
            continue
        product = 1
        for factor in re.split(r"\s*[*×]\s*", part):
            value = _power(factor)
            if value is None or _digits(product) + _digits(value) > MAX_DIGITS:
                return None
            product *= value
        total += sign * product
    return total if total >= 0 else None


def _digits(value: int) -> float:
    return math.log10(value) if value > 0 else 0.0


def _power(written: str) -> int | None:
    if "^" not in written:
        return int(written)
    base, exponent = (int(re.sub(r"\D", "", part)) for part in written.split("^"))
    if base == exponent == 0 or (base > 1 and exponent * math.log10(base) > MAX_DIGITS):
        return None
    return int(base**exponent)


def quotient_and_remainder(answer: str) -> tuple[int, int] | None:
    """ "3 余 2", "3……2", "3 R 2", "商3余2", "quotient 3, remainder 2": (3, 2)."""
    match = _PAIR.match(answer)
    if match is None:
        return None
    q, r = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
    return int(q), int(r)


def remainder_alone(answer: str) -> int | None:
    match = _ALONE.match(answer)
    return int(match.group(1)) if match else None
