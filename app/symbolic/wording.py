"""Operations said in words, between plain numbers: "the square root of 196", "3/4 of 60",
"the sum of 3 and 5", "50 increased by 10%", "48与12的差", "3.6除以0.4".

Each phrase is rewritten into the notation the parsers read, only when every operand is a plain
number written right there; a phrase around anything else ("half of the class", "the sum of
his savings") is left alone, and its words then make the reader abstain. Words whose meaning
differs between conventions are not read: "平方根" (± in Chinese schools), "A除B" (B ÷ A).
"""

from __future__ import annotations

import re

# A plain number: 12, 0.45, 3/4, or a mixed number already rewritten as (1+1/2).
_N = r"(?:\d+(?:\.\d+)?(?:\s*/\s*\d+)?|\(\d+\+\d+/\d+\))"
_NUM = rf"({_N})"
# An operand stands alone: not inside a number, nor after one ("1 1/2 of 60") or after an
# operator ("2*3 加 4", "5^2 加 3", "1 - 3 加 4" would change which operation comes first).
_START = r"(?<![\d./^)*+\-=])(?<![\d./^)*+\-=]\s)"
_FRACTION = r"(\d+\s*/\s*\d+|\d*\.\d+)"
_END = r"(?![\d/]|\.\d|\s*[a-zA-Z(^%*/])"  # it ends here: not "3/4 of 60x", "of 60%", "4 * 2"
_I = re.IGNORECASE


def _sub(pattern: str, template: str, flags: int = 0) -> tuple[re.Pattern[str], str]:
    return re.compile(pattern, flags), template


# Order matters: inner phrases ("square root of 196") first, then the phrases around them.
_REWRITES = [
    _sub(rf"\b(?:the\s+)?square\s+root\s+of\s+{_NUM}{_END}", r"sqrt(\1)", _I),
    _sub(rf"\b(?:the\s+)?cube\s+root\s+of\s+{_NUM}{_END}", r"root_(3)(\1)", _I),
    _sub(rf"\b(?:the\s+)?square\s+of\s+{_NUM}{_END}", r"(\1)^2", _I),
    _sub(rf"\b(?:the\s+)?cube\s+of\s+{_NUM}{_END}", r"(\1)^3", _I),
    _sub(rf"{_START}{_NUM}\s+squared\b", r"(\1)^2", _I),
    _sub(rf"{_START}{_NUM}\s+cubed\b", r"(\1)^3", _I),
    _sub(rf"(?<![\d.^)])算术平方根\s*{_NUM}{_END}|(?<![\d./]){_NUM}\s*的算术平方根", r"sqrt(\1\2)"),
    _sub(rf"{_START}{_NUM}\s*的立方根", r"root_(3)(\1)"),
    _sub(rf"{_START}{_NUM}\s*的平方(?![根])", r"(\1)^2"),
    _sub(rf"{_START}{_NUM}\s*的立方(?![根])", r"(\1)^3"),
    # Percent change: "50 increased by 10%", "increase 50 by 10%", "80减少25%".
    _sub(
        rf"\b(?:increase\s+{_NUM}\s+by|{_NUM}\s+(?:increased|raised)\s+by)\s+{_NUM}\s*%",
        r"((\1\2)*(1+(\3)/100))",
        _I,
    ),
    _sub(
        rf"\b(?:decrease\s+{_NUM}\s+by|{_NUM}\s+(?:decreased|reduced)\s+by)\s+{_NUM}\s*%",
        r"((\1\2)*(1-(\3)/100))",
        _I,
    ),
    _sub(rf"{_START}{_NUM}\s*(?:增加|提高|增长)了?\s*{_NUM}\s*%", r"((\1)*(1+(\2)/100))"),
    _sub(rf"{_START}{_NUM}\s*(?:减少|降低|下降)了?\s*{_NUM}\s*%", r"((\1)*(1-(\2)/100))"),
    # "3/4 of 60", "0.5 of 12", "60的3/4": a fraction of a number ("15% of 80" is read
    # elsewhere); "2 of 60" or "2的3次方" are not this.
    _sub(rf"{_START}{_FRACTION}\s+of\s+{_NUM}{_END}", r"((\1)*(\2))", _I),
    _sub(rf"{_START}{_NUM}\s*的\s*{_FRACTION}{_END}(?!\s*(?:次|倍|位|%))", r"((\2)*(\1))"),
    # Named results of two numbers.
    _sub(rf"\b(?:the\s+)?sum\s+of\s+{_NUM}\s+and\s+{_NUM}{_END}", r"((\1)+(\2))", _I),
    _sub(
        rf"\b(?:the\s+)?difference\s+(?:of|between)\s+{_NUM}\s+and\s+{_NUM}{_END}",
        r"((\1)-(\2))",
        _I,
    ),
    _sub(rf"\b(?:the\s+)?product\s+of\s+{_NUM}\s+and\s+{_NUM}{_END}", r"((\1)*(\2))", _I),
    _sub(rf"\b(?:the\s+)?quotient\s+of\s+{_NUM}\s+and\s+{_NUM}{_END}", r"((\1)/(\2))", _I),
    _sub(rf"{_START}{_NUM}\s*(?:与|和)\s*{_NUM}\s*的和", r"((\1)+(\2))"),
    _sub(rf"{_START}{_NUM}\s*(?:与|和)\s*{_NUM}\s*的差", r"((\1)-(\2))"),
    _sub(rf"{_START}{_NUM}\s*(?:与|和)\s*{_NUM}\s*的积", r"((\1)*(\2))"),
    _sub(rf"{_START}{_NUM}\s*(?:与|和)\s*{_NUM}\s*的商", r"((\1)/(\2))"),
    # Operations between two numbers.
    _sub(rf"{_START}{_NUM}\s+divided\s+by\s+{_NUM}{_END}", r"((\1)/(\2))", _I),
    _sub(rf"{_START}{_NUM}\s+multiplied\s+by\s+{_NUM}{_END}", r"((\1)*(\2))", _I),
    _sub(rf"{_START}{_NUM}\s+times\s+{_NUM}{_END}", r"((\1)*(\2))", _I),
    _sub(rf"{_START}{_NUM}\s*除以\s*{_NUM}{_END}", r"((\1)/(\2))"),
    _sub(rf"{_START}{_NUM}\s*乘以?\s*{_NUM}{_END}", r"((\1)*(\2))"),
    _sub(rf"{_START}{_NUM}\s*加上?\s*{_NUM}{_END}", r"((\1)+(\2))"),
    _sub(rf"{_START}{_NUM}\s*减去?\s*{_NUM}{_END}", r"((\1)-(\2))"),
]
# "What percent of 50 is 12?", "12 is what percent of 50?", "12是50的百分之几？": the answer is
# a number of percent (24, or 24%).
_PERCENT_ASKED = [
    _sub(rf"\bwhat\s+(?:percent|percentage)\s+of\s+{_NUM}\s+is\s+{_NUM}{_END}", r"\2:\1", _I),
    _sub(rf"{_START}{_NUM}\s+is\s+what\s+(?:percent|percentage)\s+of\s+{_NUM}{_END}", r"\1:\2", _I),
    _sub(rf"{_START}{_NUM}\s*是\s*{_NUM}\s*的百分之几", r"\1:\2"),
]


def ask_percent(text: str) -> tuple[bool, str]:
    """'What percent of 50 is 12?' → (True, 'What is ((12)*100/(50))?')."""
    for pattern, template in _PERCENT_ASKED:
        match = pattern.search(text)
        if match is None:
            continue
        part, whole = match.expand(template).split(":")
        asked = f"what is (({part})*100/({whole}))"
        return True, text[: match.start()] + asked + text[match.end() :]
    return False, text


# "Write 1/8 as a decimal", "Express 3/8 as a percent", "0.45 as a fraction in lowest terms",
# "把 1/8 化成小数": the value is the number itself, the question is the form of the answer.
_FORMS = {
    "decimal": "decimal",
    "fraction": "fraction",
    "percent": "percent",
    "percentage": "percent",
    "小数": "decimal",
    "分数": "fraction",
    "最简分数": "fraction",
    "百分数": "percent",
}
_ASK_FORM = [
    re.compile(
        rf"\b(?:write|express|convert|change|rewrite)\s+{_NUM}\s+(?:as|to|into)\s+an?\s+"
        r"(decimal|fraction|percent|percentage)(?:\s+in\s+(?:its\s+)?(?:lowest|simplest)\s+terms)?"
        r"(?=\s*[.?!]?\s*$)",
        _I,
    ),
    re.compile(
        rf"(?:把|将)\s*{_NUM}\s*(?:化成|化为|写成|改写成|改写为)\s*(小数|最简分数|分数|百分数)"
    ),
]


def ask_form(text: str) -> tuple[str | None, str]:
    """'Write 1/8 as a decimal.' → ('decimal', 'what is 1/8.')."""
    for pattern in _ASK_FORM:
        match = pattern.search(text)
        if match is not None:
            asked = f"what is {match.group(1)}"
            form = _FORMS[match.group(2).lower()]
            return form, text[: match.start()] + asked + text[match.end() :]
    return None, text


def spell_out(text: str) -> str:
    """The text with each operation said in words between numbers written as notation."""
    for _ in range(3):  # nested phrases: "the sum of the square of 3 and 4"
        before = text
        for pattern, template in _REWRITES:
            text = pattern.sub(template, text)
        if text == before:
            break
    return text
