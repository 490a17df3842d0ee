"""Is an answer a guess? "maybe 12", "about 12", "12 or 13", "12-13", "大约12", "12吧".

A hedge is never an answer a student may be shown as checked: a verifier that echoes "12 or
13" agrees with both halves at once. Refusing a right answer that looks like one costs an
honest "unverified"; letting a guess through can cost a wrong "verified", so the exceptions
below are narrow. Three kinds:

- unsure words ("maybe", "likely", "I think", "可能", "应该是", a "?"), unless the
  problem is about chance ("possible", "likely", "certain, …", "可能", "一定");
- approximation of a whole number ("about 12", "≈ 12", "12左右", "大约12"), unless the
  problem asks for an estimate or a rounding ("≈ 333.33" is a rounded value, which the checks
  judge as one);
- different values offered as alternatives or a range ("12 or 13", "12 (or 13)", "12-13",
  "between 12 and 13", "12 ± 1", "12到13", "不是12就是13"), unless the problem may have several
  answers: it is to be solved, or squares, roots, absolute values, inequalities, a distance
  on a number line; "5 to 3" and "3-2" are no range in a ratio or a score. The same value
  written twice ("3/4 or 0.75", "1/2 or 50%", "1/3 or 0.33") is one value. Values listed
  ("12, 13", "12和13") are alternatives too where the question asks for one value ("How many
  apples does he have?", not "How many apples and pears …", "… each …", 各, 分别); numbers
  spelled out ("twelve or thirteen", 十二或十三) count as written in digits.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from fractions import Fraction

from app.symbolic.normalize import normalized_or_as_written
from app.symbolic.number_words import as_digits
from app.symbolic.remainders import quotient_and_remainder, read_remainder_question
from app.symbolic.vocabulary import NO_VALUE_WORDS

_UNSURE = re.compile(
    r"\b(maybe|perhaps|probably|possibly|likely|i think|i guess|i believe|i would say|guess"
    r"|not sure|not certain|unsure|or so)\b|^\s*(?:not|isn'?t)\s+[-+]?\d"  # "not 13"
    r"|(?<!不)可能|应该|也许|或许|我猜|好像|不确定|吧\s*[.。]?\s*$|[?？]",
    re.IGNORECASE,
)
# An answer says what the value is, not what it is not: "not 13", "不是56", "12 is wrong".
_NEGATION = re.compile(
    r"\bnot\b|n't\b|\b(?:wrong|incorrect)\b|不是|不等于|并不|不会是|绝不|错", re.IGNORECASE
)
_NO_VALUE = re.compile(rf"\b(?:{NO_VALUE_WORDS})\b", re.IGNORECASE)
_YES_NO = re.compile(
    r"^\s*(?:is|are|does|do|did|can|could|will|would|was|were|has|have|should)\b"
    r"|\b(?:true\s+or\s+false|yes\s+or\s+no)\b|吗\s*[?？]?\s*$|是否|是不是|对不对|对吗|判断",
    re.IGNORECASE,
)
_CHANCE = re.compile(
    r"\b(possible|possibly|impossible|likely|unlikely|chances?|probabilit\w*|certain\s*[,，]"
    r"|certainly)"
    r"|可能|一定",
    re.IGNORECASE,
)
_APPROXIMATE = re.compile(
    r"\b(about|approx\w*|roughly|around|nearly|almost|give\s+or\s+take|estimat\w*)\b"
    r"|\d\s*-?ish\b|[~≈]\s*\d|约|大约|大概|估计|左右|差不多|上下|开外|出头"
    r"|\d\s*[多来]\s*[个只本人元米岁天次斤克条张块件位名辆棵]",  # 12多个, 12来个
    re.IGNORECASE,
)
# 七八个, 十二三个: two neighbouring numerals are a rough count.
_NEIGHBOURS = re.compile(r"([一二三四五六七八])([二三四五六七八九])")
_NUMERALS = "一二三四五六七八九"
# A bound is no value: "at least 12", "12 or more", "≥ 12", "12+", 至少12个, 12个以上.
_BOUND = re.compile(
    r"\b(?:at\s+(?:least|most)|or\s+(?:more|less|fewer|above|below)|(?:more|less|fewer|greater)"
    r"\s+than|no\s+(?:more|less|fewer)\s+than|up\s+to|plus\s*$)\b|(?<![A-Za-z])[<>≤≥]\s*[-+]?\d|\d\s*[<>≤≥](?![/A-Za-z])"
    r"|\d\s*\+\s*$"
    r"|至少|最多|最少|以上|以下|以内|不少于|不超过|不多于|不低于|不高于|超过|不到",
    re.IGNORECASE,
)
# A bound asked for, or two values compared ("Which is larger, 3/4 or 5/7?": "3/4 > 5/7").
_BOUND_ASKED = re.compile(
    r"\b(?:least|most|minimum|maximum|fewest|greatest|smallest|largest|up\s+to|no\s+more"
    r"|no\s+less|range|more\s+than|less\s+than|fewer\s+than|exceed\w*|larger|bigger"
    r"|greater|smaller|compar\w*)\b"
    r"|至少|最多|最少|最大|最小|不超过|不少于|范围|取值|以上|以下|超过|不到|比较|大小|哪个大",
    re.IGNORECASE,
)
_ESTIMATE = re.compile(
    r"\b(estimat\w*|approx\w*|roughly|round\w*|nearest|decimal\s+places?|significant)\b"
    r"|\babout\s+(?:how\b|[$¥€£]?\d)"  # "about how many", "about 50": not "a book about cats"
    r"|估算|估计|大约|大概|近似|保留|精确到|四舍五入",
    re.IGNORECASE,
)
# LaTeX and markdown around the words of an answer: "12 \text{ or } 13", "$12$", "**12**".
_MARKUP = re.compile(r"\\text\w*\s*\{|\\mathrm\s*\{|\\boxed\s*\{|[{}$*]|\\[,;!]")
# Letters that look Latin ("12 оr 13" with a Cyrillic о) and characters that show nothing.
_LOOKALIKES = str.maketrans(
    "аеорсхуіοαν", "aeopcxyioav", "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff"
)
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_SUPERSCRIPT = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_NUMBER_TEXT = r"(?<![A-Za-z0-9_.,])[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s*/\s*\d+)?%?"
_NUMBER = re.compile(_NUMBER_TEXT)
# "12-13 apples" alone is a range; "3√2 - 3" and "12 - 5 = 7" are not.
_DASH_RANGE = re.compile(
    rf"\s*{_NUMBER_TEXT}\s*[-–—]\s*{_NUMBER_TEXT}(?:\s+[^\W\d_]+|[^\W\d_A-Za-z]+)?\s*[.。]?\s*"
)  # "12-13 apples", "12-13个"; not "-1 - 5i"
_OR = (
    r"\bor\b|\beither\b|\\pm|±|\\lor|\s\|\s|(?<=\d)\|(?=\d)|或|还是|要么|就是|\bлиб\w\b|\bou\b"
    r"|\bo\b|\boder\b|\bvs\b|\bversus\b|\balternativ\w*|\botherwise\b|\bif\b|\bunless\b"
    r"|\binstead\b"
)
_RANGE = r"|\bto\b|\bbetween\b|到|至|[~～]"
_ALTERNATIVE = re.compile(_OR + _RANGE, re.IGNORECASE)
_ONLY_OR = re.compile(_OR, re.IGNORECASE)
_SEVERAL = re.compile(
    r"\b(solve|roots?|zeros?|solutions?\s+(?:of|to)|all\s+(?:the\s+)?values|possible\s+values"
    r"|square\s+(?:roots?|of)|squared|absolute|opposite|inequality|isosceles|which\s+two"
    r"|between\s+which|units?\s+(?:from|away))\b"
    r"|(?<![A-Za-z])(?![cdkm]?m\s*(?:\^\s*2|²))[a-z]\s*(?:\^\s*2|²)|√|\|"  # x², not m²
    r"|(?<![A-Za-z])[a-z]\s*[<>≤≥]|[<>≤≥]\s*[a-z](?![A-Za-z])"  # an inequality in an unknown
    r"|绝对值|平方根|平方等于|平方是|相反数|到原点|不等式|解方程|所有解|等腰|哪两个",
    re.IGNORECASE,
)
# "5 to 3", "21-14": a ratio or a score, not a range.
_PAIR = re.compile(r"\b(ratio|odds|simplest\s+form|simplify|score)\b|比分|最简", re.IGNORECASE)
# A question that asks for one value, and words in it that ask for more than one.
_ONE_VALUE = re.compile(
    r"\bhow\s+(?:many|much|old|long|far|tall|heavy|fast|high|wide|deep|big)\b|几|多少",
    re.IGNORECASE,
)
_MORE_THAN_ONE = re.compile(
    r"\b(and|each|both|respectively|every|numbers|dimensions|coordinates|pairs?|list|all"
    r"|which|ways)\b|分别|各|和|与|哪些|每",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?;。！？；\n]+")
# "12, 13", "12 and 13 apples", "12个、13个": values listed, each with at most a unit.
_LISTED = re.compile(
    r"\s*([-+]?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:\s*/\s*\d+)?%?)"
    r"\s*((?!and\b)[A-Za-z]+|[^\W\d_A-Za-z]{1,2})?"
    r"\s*([,;，；、&=()（）/]|\band\b|和|与|[.。]?\s*$|(?=\s+\d))",  # "12 13", "12\n13"
    re.IGNORECASE,
)
# One value, though written with a space: a mixed number (1 7/12), thousands (12 000).
_ONE_NUMBER = re.compile(r"\s*[-+]?(?:\d+\s+\d+\s*/\s*\d+|\d{1,3}(?:\s\d{3})+)\s*\S*\s*")


def _value(number: str) -> Fraction | None:
    text = number.replace(" ", "").replace(",", "")
    scale = Fraction(1, 100) if text.endswith("%") else Fraction(1)
    try:
        return Fraction(text.rstrip("%")) * scale
    except (ValueError, ZeroDivisionError):
        return None


def _places(number: str) -> int | None:
    """Decimal places of a number written as a decimal ("0.33": 2), else None."""
    match = re.fullmatch(r"[-+]?[\d,]*\.(\d+)", number.strip())
    return len(match.group(1)) if match else None


def different(numbers: list[str]) -> bool:
    """Do the numbers name more than one value? "1/3 or 0.33" does not (0.33 is 1/3 rounded)."""
    values = [(_value(n), _places(n)) for n in numbers]
    for (a, places_a), (b, places_b) in itertools.pairwise(values):
        if a is None or b is None or a == b:
            continue
        places = min(p for p in (places_a, places_b, 99) if p is not None)
        if places == 99 or round(a, places) != round(b, places):
            return True
    return False


# "If x = 5, …" only gives a value; "(x/2)^2 = 4" is an equation to solve.
_ASSIGNMENT = re.compile(
    r"(?<![A-Za-z])[a-z]\s*=\s*[-+]?\d[\d.]*(?![\d.]*\s*[-+*/^(])(?![\d.]*[a-z])"
)
_UNKNOWN = re.compile(
    r"(?<![A-Za-z])[a-z]\s*[-+*/^=()]|[-+*/^=(]\s*\(*\s*[a-z](?![A-Za-z])", re.IGNORECASE
)


def _equation_in_an_unknown(problem: str) -> bool:
    rest = _ASSIGNMENT.sub(" ", problem)
    return "=" in rest and _UNKNOWN.search(rest) is not None


def one_value_asked(problem: str) -> bool:
    """The problem's one question asks for one value ("How many apples does he have now?"),
    not several ("How many apples and pears …", "… each …", 分别, "(1) How many …? (2) How
    many …?")."""
    asked = [s for s in _SENTENCE_END.split(problem) if _ONE_VALUE.search(s)]
    return (
        len(asked) == 1
        and len(_ONE_VALUE.findall(asked[0])) == 1
        and not _MORE_THAN_ONE.search(asked[0])
    )


def listed(text: str) -> list[str] | None:
    """The values of an answer that only lists values, in one unit ("12, 13", "12 and 13
    apples"); None for anything else ("1 hour, 30 minutes" is one duration; "12, since 5 + 7
    = 12" is a reason)."""
    if _ONE_NUMBER.fullmatch(text):
        return None
    items = list(_LISTED.finditer(text.strip()))
    if len(items) < 2 or "".join(m.group() for m in items).strip() != text.strip():
        return None
    if any(m.group(3) == "/" and not m.group(2) for m in items):
        return None  # "8 / 9" is a fraction; "12个/13个" two counts
    units = {m.group(2).lower() for m in items if m.group(2)}
    return [m.group(1) for m in items] if len(units) <= 1 else None


def readable(answer: str) -> str:
    """The answer as its words read: NFKC, look-alike letters and zero-width characters
    undone, LaTeX and markdown markup gone, "8...9" a range."""
    # A superscript is an exponent, not a digit (NFKC would make "12²" 122).
    text = _SUPERSCRIPT.sub(lambda m: "^" + m.group().translate(_SUPERSCRIPTS), answer)
    text = unicodedata.normalize("NFKC", text.replace("\\!", "")).translate(_LOOKALIKES)
    text = re.sub(r"\\(?![A-Za-z])", "", _MARKUP.sub(" ", text))  # "\$1,\!348": $1,348
    return re.sub(r"(?<=\d)\s*\.{2,}\s*(?=\d)", " ~ ", text)


def numbers_in(text: str) -> list[str]:
    """The numbers written in `text` (digits; spell them out first with `as_digits`)."""
    return _NUMBER.findall(text)


def may_have_several_answers(problem: str) -> bool:
    """Solving, roots, squares, absolute values, inequalities, an equation in an unknown."""
    return _SEVERAL.search(problem) is not None or _equation_in_an_unknown(problem)


def hedges(answer: str, problem: str, *, approximations: bool = True) -> bool:
    """True when the answer is a guess or offers different values to a problem that asks for
    one. `approximations` False: an approximation alone ("≈ 333.33", "about 56") is not
    counted (the sandbox judges it as a rounded value)."""
    text = readable(answer)
    quotient = quotient_and_remainder(normalized_or_as_written(answer))
    if quotient and read_remainder_question(normalized_or_as_written(problem)):
        return False  # "3……2" for 17÷5=□……□: a quotient and a remainder, not a range
    if _UNSURE.search(text) and not _CHANCE.search(problem):
        return True
    said = _NO_VALUE.sub(" ", text)  # "not defined" says what the value is: there is none
    if _NEGATION.search(said) and not _YES_NO.search(problem) and not _CHANCE.search(problem):
        return True
    rounded = any(_places(n) for n in _NUMBER.findall(text))
    rough = _APPROXIMATE.search(text) or any(
        _NUMERALS.index(b) == _NUMERALS.index(a) + 1 for a, b in _NEIGHBOURS.findall(text)
    )
    if approximations and rough and not _ESTIMATE.search(problem) and not rounded:
        return True
    text = as_digits(text)  # "twelve or thirteen", 十二或十三
    if may_have_several_answers(problem):
        return False
    if _BOUND.search(text) and not _BOUND_ASKED.search(problem):
        return True
    values = listed(text)
    if values is not None and one_value_asked(problem) and different(values):
        return True
    pair = _PAIR.search(problem) is not None
    connective = (_ONLY_OR if pair else _ALTERNATIVE).search(text) is not None
    return (connective or (not pair and _DASH_RANGE.fullmatch(text) is not None)) and different(
        _NUMBER.findall(text)
    )
