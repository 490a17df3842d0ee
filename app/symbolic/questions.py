"""Questions whose words change what is asked about a value: how many digits it has, the sum
of its digits, its units digit, how many factors it has, how many decimal places a product of
decimals has, which of two numbers is the larger ("多少位", "how many digits", "sum of the
digits", "the units digit of", "how many factors", "哪个大", "比较大小").

Each is read only when the whole text is one of the phrasings below; any other text with such a
word is left to the general reader, whose allowlist refuses it. What is counted must be beyond
doubt:

- digits and digit sums are those of a positive whole number, written as one term (a number, a
  power, a factorial, a product or a bracket): "the sum of the digits of 99 + 1" could be 1 or
  19, so a top-level + or - is refused unless one $…$ holds the whole expression ("the units
  digit of $19^{19}+99^{99}$": of the sum); a units digit is the last digit of a positive
  whole number;
- factors (divisors) are the positive ones of a positive whole number up to 10^12, as school
  counts them ("How many positive factors does 48 have?" 10); "prime factors" (with their
  multiplicity or without?) is not read;
- decimal places are those of a product of plain decimals, only when the school rule (add the
  factors' places) and the exact product agree: 0.25 × 0.4 = 0.1 has one place by value and
  three by the rule, and is refused;
- a comparison is between two numbers that differ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

import sympy

DIGITS = "digits"
DIGIT_SUM = "digit_sum"
UNITS_DIGIT = "units_digit"
FACTOR_COUNT = "factor_count"
MAX_FACTORED = 10**12
DECIMAL_PLACES = "decimal_places"
LARGER = "max"
SMALLER = "min"


@dataclass(frozen=True, slots=True)
class PropertyQuestion:
    """'How many digits does 2^10 have?' → PropertyQuestion('digits', '2^10')."""

    kind: str  # digits | digit_sum | units_digit | factor_count | decimal_places
    inner: str


@dataclass(frozen=True, slots=True)
class Comparison:
    """'Which is larger, 3/4 or 5/7?' → Comparison('max', 'which', '3/4', '5/7')."""

    direction: str  # max | min
    style: str  # which: the answer names a number; relation: "3/4 > 5/7"
    first: str
    second: str


_I = re.IGNORECASE
_END = r"\s*[?？.。]?\s*$"
_E = r"(?P<e>.+?)"
_THE_NUMBER = r"(?:the\s+(?:number|integer)\s+)?"
_PRODUCT = r"(?:the\s+product\s+)?"

_PROPERTY_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # Decimal places first: "how many digits are after the decimal point in …" is one.
    (
        DECIMAL_PLACES,
        re.compile(
            rf"^\s*how\s+many\s+decimal\s+places\s+(?:does|do)\s+{_PRODUCT}{_E}\s+have{_END}", _I
        ),
    ),
    (
        DECIMAL_PLACES,
        re.compile(
            r"^\s*how\s+many\s+(?:decimal\s+places\s+(?:are\s+)?(?:there\s+)?in|digits\s+"
            r"(?:are\s+)?(?:there\s+)?after\s+the\s+decimal\s+point\s+in)\s+"
            rf"{_PRODUCT}{_E}{_END}",
            _I,
        ),
    ),
    (DECIMAL_PLACES, re.compile(rf"^\s*{_E}\s+has\s+how\s+many\s+decimal\s+places{_END}", _I)),
    (
        DECIMAL_PLACES,
        re.compile(
            rf"^\s*(?:计算\s*)?{_E}\s*[，,]?\s*的?\s*(?:乘积|积|计算结果|结果|得数)?\s*"
            rf"(?:是|为|有)\s*(?:一个)?\s*(?:几|多少)\s*位\s*的?\s*小数{_END}"
        ),
    ),
    (
        DIGITS,
        re.compile(rf"^\s*how\s+many\s+digits\s+(?:does|do)\s+{_THE_NUMBER}{_E}\s+have{_END}", _I),
    ),
    (
        DIGITS,
        re.compile(
            rf"^\s*how\s+many\s+digits\s+are\s+(?:there\s+)?in\s+{_THE_NUMBER}{_E}{_END}", _I
        ),
    ),
    (DIGITS, re.compile(rf"^\s*{_E}\s+has\s+how\s+many\s+digits{_END}", _I)),
    (
        DIGITS,
        re.compile(
            rf"^\s*(?:what\s+is\s+|find\s+)?the\s+number\s+of\s+digits\s+(?:of|in)\s+"
            rf"{_THE_NUMBER}{_E}{_END}",
            _I,
        ),
    ),
    (
        DIGITS,
        re.compile(
            rf"^\s*(?:计算\s*)?{_E}\s*[，,]?\s*的?\s*(?:乘积|积|计算结果|结果|得数)?\s*"
            rf"(?:是\s*(?:一个)?\s*(?:几|多少)\s*位\s*数|(?:共)?有\s*(?:几|多少)\s*位(?:数字)?){_END}"
        ),
    ),
    (
        DIGIT_SUM,
        re.compile(
            r"^\s*(?:(?:what\s+is|find|calculate|compute|determine)\s+)?the\s+"
            r"(?:sum\s+of\s+(?:all\s+)?(?:the\s+)?digits|digit\s+sum)\s+(?:of|in)\s+"
            rf"{_THE_NUMBER}{_E}{_END}",
            _I,
        ),
    ),
    (
        DIGIT_SUM,
        re.compile(
            rf"^\s*(?:求\s*)?{_E}\s*的?\s*"
            r"(?:各\s*(?:个)?\s*(?:数)?\s*位\s*(?:上)?\s*的?\s*数字\s*(?:之|的)?\s*和|数字之和|数字和)"
            rf"\s*(?:是|为|等于)?\s*(?:多少|几)?{_END}"
        ),
    ),
    (
        UNITS_DIGIT,
        re.compile(
            r"^\s*(?:(?:what\s+is|find|determine|compute|give)\s+)?the\s+(?:units?|ones)\s+"
            rf"digit\s+(?:of|in)\s+{_THE_NUMBER}{_E}{_END}",
            _I,
        ),
    ),
    (
        UNITS_DIGIT,
        re.compile(
            rf"^\s*(?:求\s*)?{_E}\s*的\s*个位\s*(?:上\s*的?\s*)?(?:数字|数)?\s*(?:是|为)\s*"
            rf"(?:多少|几){_END}"
        ),
    ),
    (
        FACTOR_COUNT,
        re.compile(
            # "integer factors": the negative ones too? not read
            r"^\s*how\s+many\s+(?:positive\s+)?(?:whole[-\s]number\s+)?"
            rf"(?:factors|divisors)\s+(?:does|do)\s+{_THE_NUMBER}{_E}\s+have{_END}",
            _I,
        ),
    ),
    (
        FACTOR_COUNT,
        re.compile(
            r"^\s*(?:what\s+is\s+|find\s+)?the\s+number\s+of\s+(?:positive\s+)?"
            rf"(?:factors|divisors)\s+of\s+{_THE_NUMBER}{_E}{_END}",
            _I,
        ),
    ),
    (
        FACTOR_COUNT,
        re.compile(rf"^\s*{_E}\s*(?:有|的因数有)\s*(?:几|多少)\s*个\s*(?:因数)?{_END}"),
    ),
]

# Two operands of math characters only: words inside ("the sum of 3 and 4") are not read here.
_OPERAND = r"((?:[\d.+\-*/^()%\s]|sqrt|pi)+?)"
_BIGGER = r"larger|greater|bigger|more"
_SMALLER_WORDS = r"smaller|less|lesser"
_COMPARISONS: list[tuple[str, re.Pattern[str]]] = [
    (
        "which",
        re.compile(
            r"^\s*which\s+(?:number\s+|one\s+)?is\s+(?:the\s+)?"
            rf"({_BIGGER}|{_SMALLER_WORDS})(?:\s+number|\s+one)?\s*[,:：]?\s*"
            rf"{_OPERAND}\s+or\s+{_OPERAND}{_END}",
            _I,
        ),
    ),
    (
        "which",
        re.compile(
            r"^\s*(?:(?:what\s+is|find|which\s+is)\s+)?the\s+"
            rf"(larger|greater|bigger|{_SMALLER_WORDS})\s+(?:number\s+)?of\s+"
            rf"{_OPERAND}\s+and\s+{_OPERAND}{_END}",
            _I,
        ),
    ),
    (
        "which",
        re.compile(
            rf"^\s*{_OPERAND}\s*(?:和|与|跟|同)\s*{_OPERAND}\s*[，,]?\s*(?:比较\s*[，,]?\s*)?"
            r"(?:哪个|哪一个|谁)\s*(?:数)?\s*(?:更|比较)?\s*(大|小)\s*(?:一些|些)?\s*[？?。.]?\s*$"
        ),
    ),
    (
        "relation",
        re.compile(rf"^\s*compare\s+{_OPERAND}\s+(?:and|with|to)\s+{_OPERAND}{_END}", _I),
    ),
    (
        "relation",
        re.compile(
            rf"^\s*比较\s*(?:大小\s*[:：]?)?\s*{_OPERAND}\s*(?:和|与|跟|同|○|〇|◯|\(\s*\))\s*"
            rf"{_OPERAND}\s*(?:的大小)?\s*[。.]?\s*$"
        ),
    ),
    (
        "relation",
        re.compile(
            rf"^\s*{_OPERAND}\s*(?:和|与|跟|同|○|〇|◯|\(\s*\))\s*{_OPERAND}\s*[，,]?\s*"
            r"(?:比较大小|比大小)\s*[。.]?\s*$"
        ),
    ),
]


def read_property_question(text: str) -> PropertyQuestion | None:
    """The counting question the whole text asks, and the expression it asks about."""
    for kind, pattern in _PROPERTY_PATTERNS:
        match = pattern.match(text)
        if match is not None:
            return PropertyQuestion(kind, match.group("e").strip())
    return None


def read_comparison(text: str) -> Comparison | None:
    """'Which is larger, 3/4 or 5/7?', '3/4和5/7哪个大？', '比较大小：3/4和5/7'."""
    for style, pattern in _COMPARISONS:
        match = pattern.match(text)
        if match is None:
            continue
        groups = match.groups()
        if style == "relation":
            first, second = groups
            return Comparison(LARGER, style, first.strip(), second.strip())
        if len(groups) == 3 and groups[2] in ("大", "小"):
            first, second, word = groups
        else:
            word, first, second = groups
        direction = LARGER if word.lower() in ("大", *_BIGGER.split("|")) else SMALLER
        return Comparison(direction, style, first.strip(), second.strip())
    return None


def has_top_level_sum(text: str) -> bool:
    """'99 + 1', '2^10 - 1': a + or - outside brackets, after the first character."""
    depth = 0
    for i, ch in enumerate(text.strip()):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and ch in "+-" and i > 0:
            return True
    return False


_PLAIN_DECIMAL = re.compile(r"\d+(?:\.\d+)?")
_DECIMAL_PRODUCT = re.compile(r"\s*\d+(?:\.\d+)?(?:\s*\*\s*\d+(?:\.\d+)?)*\s*")


def decimal_places_of_product(text: str) -> int | None:
    """'1.1*1.2*1.3*1.4*10.1' → 5: the factors' places added, when the exact product has
    exactly that many (no trailing zero cancelled: 0.25*0.4 = 0.1 is refused) and at least one."""
    if not _DECIMAL_PRODUCT.fullmatch(text):
        return None
    factors = [f.strip() for f in text.split("*")]
    places = 0
    product = Fraction(1)
    for factor in factors:
        fraction = factor.partition(".")[2]
        if fraction.endswith("0"):
            return None  # "1.10": written with a trailing zero; the rule counts it, the value not
        places += len(fraction)
        product *= Fraction(factor)
    if places == 0 or exact_decimal_places(product) != places:
        return None
    return places


def exact_decimal_places(value: Fraction) -> int | None:
    """Places of a terminating decimal (0.125 → 3); None when it does not terminate."""
    places = 0
    while value.denominator != 1:
        value *= 10
        places += 1
        if places > 2000:
            return None
    denominator = value.denominator
    return places if denominator == 1 else None


def digit_count(value: int) -> int:
    return len(str(value))


def digit_sum(value: int) -> int:
    return sum(int(d) for d in str(value))


def factor_count(value: int) -> int | None:
    """How many positive whole numbers divide `value` (None past MAX_FACTORED)."""
    if value > MAX_FACTORED:
        return None
    count = 1
    for power in sympy.factorint(value).values():
        count *= power + 1
    return count


def counted(kind: str, value: int) -> int | None:
    """What a property question asks of the positive whole number `value`."""
    if kind == DIGIT_SUM:
        return digit_sum(value)
    if kind == UNITS_DIGIT:
        return value % 10
    if kind == FACTOR_COUNT:
        return factor_count(value)
    return digit_count(value)


_COUNT_SUFFIX = {
    DIGITS: r"(?:位数|位|个数字|digits?)",
    DIGIT_SUM: r"",
    UNITS_DIGIT: r"",
    FACTOR_COUNT: r"(?:个因数|个|factors?|divisors?)",
    DECIMAL_PLACES: r"(?:位小数|位|decimal\s+places?|places?|digits?)",
}
_CHINESE_NUMERALS = {
    "一": 1,
    "两": 2,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}


def read_count(kind: str, candidate: str) -> int | None:
    """'5', '5位小数', '五位小数', '4 digits', '四位数' → the count; None when it is not one."""
    text = candidate.strip().rstrip(".。").strip()
    suffix = _COUNT_SUFFIX[kind]
    pattern = rf"(\d+|[一两二三四五六七八九十])\s*(?:{suffix})?" if suffix else r"(\d+)"
    match = re.fullmatch(pattern, text, _I)
    if match is None:
        return None
    number = match.group(1)
    return int(number) if number.isdigit() else _CHINESE_NUMERALS[number]


def plain_number_text(text: str) -> bool:
    """'3/4', '0.75', '-3', '12', '50%', '2^10': a number shown as written in an answer."""
    return bool(re.fullmatch(r"-?\d+(?:\.\d+)?(?:\s*[/^]\s*\d+|\s*%)?", text.strip()))
