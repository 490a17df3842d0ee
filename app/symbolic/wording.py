"""Operations said in words, between plain numbers: "the square root of 196", "3/4 of 60",
"the sum of 3 and 5", "50 increased by 10%", "48与12的差", "3.6除以0.4".

Each phrase is rewritten into the notation the parsers read, only when every operand is a plain
number written right there; a phrase around anything else ("half of the class", "the sum of
his savings") is left alone, and its words then make the reader abstain. Words whose meaning
differs between conventions are not read: "平方根" (± in Chinese schools), "A除B" (B ÷ A).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction

from app.symbolic.normalize import ParseError

# A plain number: 12, 0.45, 3/4 (written tight: "16 / 4" and "4÷2" are divisions), or a mixed
# number already rewritten as (1+1/2).
_N = r"(?:\d+(?:\.\d+)?(?:/\d+)?|\(\d+\+\d+/\d+\))"
_NUM = rf"({_N})"
# An operand stands alone: not inside a number, nor after one ("1 1/2 of 60") or after an
# operator ("2*3 加 4", "5^2 加 3", "1 - 3 加 4" would change which operation comes first).
_START = r"(?<![\d./^)*+\-=])(?<![\d./^)*+\-=]\s)"
_FRACTION = r"(\d+/\d+|\d*\.\d+)"
# It ends here: not "3/4 of 60x", "of 60%", "4 * 2", nor before another operation ("the square
# root of 196 + 4", "the quotient of 12 and 4 / 2", "3/4 of 60 + 4": which comes first?), nor
# before a factorial ("5 times 4!" is 5 × 24, not (5 × 4)!).
_END = r"(?![\d/]|\.\d|\s*[a-zA-Z(^%*/+\-!])"
# After the second operand of a sum, + and - change nothing: a + (b - c) = (a + b) - c.
_END_SUM = r"(?![\d/]|\.\d|\s*[a-zA-Z(^%*/!])"
_I = re.IGNORECASE
_IMPERATIVE = r"^\s*(?:please\s+)?"


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
    _sub(rf"(?<![\d.^)])算术平方根\s*{_NUM}{_END}|{_START}{_NUM}\s*的算术平方根", r"sqrt(\1\2)"),
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
    # "20% more than 80", "20% less than 80", "比80多20%的数", "比80少20%的数".
    _sub(
        rf"{_START}{_NUM}\s*%\s+(?:more|greater|higher|larger)\s+than\s+{_NUM}{_END}",
        r"((\2)*(1+(\1)/100))",
        _I,
    ),
    _sub(
        rf"{_START}{_NUM}\s*%\s+(?:less|fewer|lower|smaller)\s+than\s+{_NUM}{_END}",
        r"((\2)*(1-(\1)/100))",
        _I,
    ),
    _sub(rf"比\s*{_NUM}\s*多\s*{_NUM}\s*%\s*的数", r"((\1)*(1+(\2)/100))"),
    _sub(rf"比\s*{_NUM}\s*少\s*{_NUM}\s*%\s*的数", r"((\1)*(1-(\2)/100))"),
    # "3/4 of 60", "0.5 of 12", "60的3/4": a fraction of a number ("15% of 80" is read
    # elsewhere); "2 of 60" or "2的3次方" are not this.
    _sub(rf"{_START}{_FRACTION}\s+of\s+{_NUM}{_END}", r"((\1)*(\2))", _I),
    _sub(rf"{_START}{_NUM}\s*的\s*{_FRACTION}{_END}(?!\s*(?:次|倍|位|%))", r"((\2)*(\1))"),
    # "80的25%": 25% of 80 (the English "25% of 80" is read in problem.py).
    _sub(
        rf"{_START}{_NUM}\s*的\s*(\d+(?:\.\d+)?)\s*%(?![\d.]|\s*[a-zA-Z(^*/+\-]|\s*的)",
        r"((\1)*(\2)/100)",
    ),
    # Named results of two numbers.
    _sub(rf"\b(?:the\s+)?sum\s+of\s+{_NUM}\s+and\s+{_NUM}{_END_SUM}", r"((\1)+(\2))", _I),
    _sub(rf"\b(?:the\s+)?difference\s+of\s+{_NUM}\s+and\s+{_NUM}{_END}", r"((\1)-(\2))", _I),
    # "The difference between 10 and 3" (`_one_reading_of_gaps` refuses 3 and 10).
    _sub(
        rf"\b(?:the\s+)?difference\s+between\s+{_NUM}\s+and\s+{_NUM}{_END}",
        r"((\1)-(\2))",
        _I,
    ),
    _sub(rf"\b(?:the\s+)?product\s+of\s+{_NUM}\s+and\s+{_NUM}{_END}", r"((\1)*(\2))", _I),
    _sub(rf"\b(?:the\s+)?quotient\s+of\s+{_NUM}\s+and\s+{_NUM}{_END}", r"((\1)/(\2))", _I),
    _sub(rf"{_START}{_NUM}\s*(?:与|和)\s*{_NUM}\s*的和", r"((\1)+(\2))"),
    _sub(rf"{_START}{_NUM}\s*(?:与|和)\s*{_NUM}\s*的差", r"((\1)-(\2))"),
    _sub(rf"{_START}{_NUM}\s*(?:与|和)\s*{_NUM}\s*的积", r"((\1)*(\2))"),
    _sub(rf"{_START}{_NUM}\s*(?:与|和)\s*{_NUM}\s*的商", r"((\1)/(\2))"),
    # The task as an imperative, the whole text: "Multiply 2/3 by 4/7.", "Subtract 5 from 12."
    _sub(
        rf"{_IMPERATIVE}multiply\s+{_NUM}\s+(?:by|and)\s+{_NUM}{_END}", r"Compute ((\1)*(\2))", _I
    ),
    _sub(rf"{_IMPERATIVE}divide\s+{_NUM}\s+by\s+{_NUM}{_END}", r"Compute ((\1)/(\2))", _I),
    _sub(rf"{_IMPERATIVE}add\s+{_NUM}\s+(?:and|to)\s+{_NUM}{_END_SUM}", r"Compute ((\1)+(\2))", _I),
    _sub(rf"{_IMPERATIVE}subtract\s+{_NUM}\s+from\s+{_NUM}{_END}", r"Compute ((\2)-(\1))", _I),
    # Operations between two numbers.
    _sub(rf"{_START}{_NUM}\s+divided\s+by\s+{_NUM}{_END}", r"((\1)/(\2))", _I),
    _sub(rf"{_START}{_NUM}\s+multiplied\s+by\s+{_NUM}{_END}", r"((\1)*(\2))", _I),
    _sub(rf"{_START}{_NUM}\s+times\s+{_NUM}{_END}", r"((\1)*(\2))", _I),
    _sub(rf"{_START}{_NUM}\s+plus\s+{_NUM}{_END_SUM}", r"((\1)+(\2))", _I),
    _sub(rf"{_START}{_NUM}\s+minus\s+{_NUM}{_END}", r"((\1)-(\2))", _I),
    _sub(
        rf"{_START}{_NUM}\s+(?:to|raised\s+to)\s+the\s+(?:power|exponent)\s+of\s+{_NUM}{_END}",
        r"((\1)^(\2))",
        _I,
    ),
    _sub(rf"{_START}{_NUM}\s*除以\s*{_NUM}{_END}", r"((\1)/(\2))"),
    _sub(rf"{_START}{_NUM}\s*乘以?\s*{_NUM}{_END}", r"((\1)*(\2))"),
    _sub(rf"{_START}{_NUM}\s*加上?\s*{_NUM}{_END_SUM}", r"((\1)+(\2))"),
    _sub(rf"{_START}{_NUM}\s*减去?\s*{_NUM}{_END}", r"((\1)-(\2))"),
]
# "What percent of 50 is 12?", "12 is what percent of 50?", "12是50的百分之几？": the answer is
# a number of percent (24, or 24%).
_PERCENT_ASKED = [
    _sub(rf"\bwhat\s+(?:percent|percentage)\s+of\s+{_NUM}\s+is\s+{_NUM}{_END}", r"\2:\1", _I),
    _sub(rf"{_START}{_NUM}\s+is\s+what\s+(?:percent|percentage)\s+of\s+{_NUM}{_END}", r"\1:\2", _I),
    _sub(rf"{_START}{_NUM}\s*是\s*{_NUM}\s*的百分之几", r"\1:\2"),
]


# "100比80多百分之几？", "100 is what percent more than 80?", "By what percent is 80 less than
# 100?": the difference as a percent of the number compared with (the one after 比 / than).
# A difference the wrong way ("80比100多百分之几") is a false premise: not read.
_PLAIN = r"(\d+(?:\.\d+)?)(?![\d.]|\s*/)"
_MORE = r"more|greater|higher|larger|bigger"
_LESS = r"less|fewer|lower|smaller"
_PERCENT_DIFFERENCE = [
    re.compile(
        rf"{_START}{_PLAIN}\s+is\s+what\s+(?:percent|percentage)\s+({_MORE}|{_LESS})\s+than\s+"
        rf"{_PLAIN}{_END}",
        _I,
    ),
    re.compile(
        rf"\bby\s+what\s+(?:percent|percentage)\s+is\s+{_PLAIN}\s+({_MORE}|{_LESS})\s+than\s+"
        rf"{_PLAIN}{_END}",
        _I,
    ),
    re.compile(rf"{_START}{_PLAIN}\s*比\s*{_PLAIN}\s*(多|少)\s*百分之几"),
]


def _percent_difference(match: re.Match[str]) -> tuple[str, str]:
    first, middle, last = match.groups()
    # "A比B多": (A, B, 多); "A is what percent more than B": (A, more, B)
    second, word = (middle, last) if last in ("多", "少") else (last, middle)
    more = word == "多" or re.fullmatch(_MORE, word, _I) is not None
    a, b = Fraction(first), Fraction(second)
    if b == 0 or (a <= b if more else a >= b):
        raise ParseError("a difference the wrong way, or none")
    return (f"{first}-{second}" if more else f"{second}-{first}"), second


def ask_percent(text: str) -> tuple[bool, str]:
    """'What percent of 50 is 12?' → (True, 'What is ((12)*100/(50))?')."""
    for pattern, template in _PERCENT_ASKED:
        match = pattern.search(text)
        if match is None:
            continue
        part, whole = match.expand(template).split(":")
        asked = f"what is (({part})*100/({whole}))"
        return True, text[: match.start()] + asked + text[match.end() :]
    for pattern in _PERCENT_DIFFERENCE:
        match = pattern.search(text)
        if match is None:
            continue
        part, whole = _percent_difference(match)
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
# A repeating decimal is an exact fraction by now: "0.\overline{3}" is "(1/3)".
# "45% as a fraction": a percent written as such is a number too.
_FORM_NUM = rf"({_N}|\(\d+/\d+\)|\d+(?:\.\d+)?\s*%)"
_KIND_OF_FRACTION = r"(?:(?:common|improper)\s+)?"
_ASK_FORM = [
    re.compile(
        rf"\b(?:write|express|convert|change|rewrite)\s+{_FORM_NUM}\s+(?:as|to|into)\s+an?\s+"
        rf"{_KIND_OF_FRACTION}(decimal|fraction|percent|percentage)"
        r"(?:\s+in\s+(?:its\s+)?(?:lowest|simplest)\s+terms)?"
        r"(?=\s*[.?!]?\s*$)",
        _I,
    ),
    re.compile(
        rf"^\s*(?:what\s+is\s+)?{_FORM_NUM}\s+as\s+an?\s+(decimal|fraction|percent|percentage)"
        r"(?:\s+in\s+(?:its\s+)?(?:lowest|simplest)\s+terms)?(?=\s*[.?!]?\s*$)",
        _I,
    ),
    re.compile(
        rf"(?:把|将)\s*{_FORM_NUM}\s*(?:化成|化为|写成|改写成|改写为)\s*(小数|最简分数|分数|百分数)"
    ),
]


# "Find the prime factorization of 360", "Write 360 as a product of prime factors", "分解质因数：
# 36", "把36分解质因数": the answer is the product of primes (2 × 2 × 3), a form of the number.
_PRIME_FACTORS = [
    re.compile(
        r"^\s*(?:(?:find|what\s+is|give|write)\s+)?(?:the\s+)?prime\s+factori[sz]ation\s+of\s+"
        r"(\d+)(?!\d|\.\d)\s*[.?]?"
        # reasoning-gym: "Write the factors separated by × (Example: for 12 the answer would be:
        # 2 × 2 × 3)"
        r"(?:\s*write\s+the\s+factors\s+separated\s+by\s+[×*]\s*\(example:\s*for\s+\d+\s+the\s+"
        r"answer\s+would\s+be:\s*\d+(?:\s*[×*]\s*\d+)*\)\s*\.?)?\s*$",
        _I,
    ),
    re.compile(
        r"^\s*(?:write|express)\s+(\d+)(?!\d|\.\d)\s+as\s+(?:a|the)\s+product\s+of\s+(?:its\s+)?"
        r"prime\s+(?:factors|numbers)\s*[.?]?\s*$",
        _I,
    ),
    re.compile(r"^\s*(?:把|将)?\s*(\d+)(?!\d|\.\d)\s*分解质因数\s*[。.？?]?\s*$"),
    re.compile(r"^\s*分解质因数\s*[:：]?\s*(\d+)(?!\d|\.\d)\s*[。.]?\s*$"),
]


def ask_prime_factors(text: str) -> str | None:
    """The number whose prime factorization is asked (2 or more), or None."""
    for pattern in _PRIME_FACTORS:
        match = pattern.match(text)
        if match is not None and int(match.group(1)) >= 2:
            return match.group(1)
    return None


# MATH's closing sentence, "Express your answer as a common fraction.": the form of the answer
# to the question before it (a right value in another form is then not judged).
_ANSWER_AS = re.compile(
    r"(?<=[.?!])\s*express\s+your\s+answer\s+as\s+an?\s+"
    rf"{_KIND_OF_FRACTION}(fraction|decimal)(?:\s+in\s+(?:its\s+)?(?:lowest|simplest)\s+terms)?"
    r"\s*[.!]?\s*$",
    _I,
)


def ask_form(text: str) -> tuple[str | None, str]:
    """'Write 1/8 as a decimal.' → ('decimal', 'what is 1/8.'); 'Compute 1/2 + 1/3. Express
    your answer as a common fraction.' → ('fraction', 'Compute 1/2 + 1/3.')."""
    number = ask_prime_factors(text)
    if number is not None:
        return "prime_factors", f"what is {number}"
    closing = _ANSWER_AS.search(text)
    if closing is not None:
        form, rest = ask_form(text[: closing.start()])
        if form is not None:
            raise ParseError("two forms asked")
        return _FORMS[closing.group(1).lower()], rest
    for pattern in _ASK_FORM:
        match = pattern.search(text)
        if match is not None:
            asked = f"what is {match.group(1)}"
            form = _FORMS[match.group(2).lower()]
            return form, text[: match.start()] + asked + text[match.end() :]
    return None, text


# Percent chains: "80 decreased by 20% and then increased by 20%", "100先降价20%再提价20%".
# Each change is of the value reached so far (80 → 64 → 76.8); "then increased by 20% of the
# original" is another question and is not read.
_UP = r"increased|raised|增加|提高|增长|上涨|上升|涨价|提价"
_DOWN = r"decreased|reduced|lowered|减少|降低|下降|降价|减价"
_STEP_EN = rf"(?:(?:is|was)\s+)?({_UP}|{_DOWN})\s+by\s+({_N})\s*%(?!\s*of\b)"
_STEP_ZH = rf"({_UP}|{_DOWN})了?\s*({_N})\s*%"
_CHAIN_EN = rf"(?:first\s+)?{_STEP_EN}(?:(?:\s*,)?\s+(?:and\s+)?then\s+{_STEP_EN})+"
_CHAIN_ZH = rf"先\s*{_STEP_ZH}(?:\s*[，,]?\s*(?:然后|接着)?\s*(?:再|又)\s*{_STEP_ZH})+"
_STEP = re.compile(rf"{_STEP_EN}|{_STEP_ZH}", _I)
_CHAINS = [
    re.compile(rf"{_START}{_NUM}\s+{_CHAIN_EN}(?![\d.%])", _I),
    re.compile(rf"{_START}{_NUM}\s*{_CHAIN_ZH}(?![\d.%])"),
]


def _factors(chain: str) -> str:
    """'decreased by 20% and then increased by 20%' → '*(1-(20)/100)*(1+(20)/100)'."""
    out = []
    for match in _STEP.finditer(chain):
        verb, percent = [g for g in match.groups() if g is not None]
        sign = "+" if re.fullmatch(_UP, verb, _I) else "-"
        out.append(f"*(1{sign}({percent})/100)")
    return "".join(out)


def _chain(match: re.Match[str]) -> str:
    return f"(({match.group(1)}){_factors(match.group(0)[match.end(1) - match.start() :])})"


_PRICE_EN = (
    r"^\s*(?:the|a|an)\s+price(?:\s+of\s+(?:(?:a|an|the)\s+[a-z]+|\$?\s*(?P<n1>@N@)))?\s+"
    r"(?P<chain>@CHAIN@)\s*[.,;]\s*(?P<ask>@ASK@)\s*$"
    r"|^\s*(?:the|a|an)\s+price\s+of\s+(?:a|an|the)\s+[a-z]+\s+is\s+\$?\s*(?P<n2>@N@)(?:\s+dollars)?"
    r"\s*\.\s*it\s+(?:is|was)\s+(?P<chain2>@CHAIN@)\s*[.,;]\s*(?P<ask2>@ASK@)\s*$"
)
_ASK_EN = (
    r"what\s+is\s+the\s+(?:new|final)\s+price\s*\??"
    r"|what\s+percent(?:age)?\s+of\s+the\s+original\s+price\s+is\s+(?:it|the\s+(?:new|final)\s+price)"
    r"(?:\s+now)?\s*\??"
)
_PRICE_ZH = (
    r"^\s*(?:一件|一种|一台|一辆|一本|某种|某件|某)?(?:商品|衣服|货物|东西|书|电视机|自行车)?"
    r"(?:的价格|的售价|的定价|价格)?\s*(?:原价(?:是|为)?\s*(?P<n1>@N@)\s*元\s*[，,]\s*)?"
    r"(?P<chain>@CHAIN@)\s*[，,]\s*(?P<ask>@ASK@)\s*$"
)
_ASK_ZH = (
    r"(?:现价|现在的价格|现在的售价|现在价格)是原价的百分之几\s*[？?。]?"
    r"|(?:现价|现在的价格|现在的售价|现在价格)(?:是)?多少元\s*[？?。]?"
)
_PRICE_STORIES = [
    re.compile(
        _PRICE_EN.replace("@N@", _N).replace("@CHAIN@", _CHAIN_EN).replace("@ASK@", _ASK_EN), _I
    ),
    re.compile(
        _PRICE_ZH.replace("@N@", _N).replace("@CHAIN@", _CHAIN_ZH).replace("@ASK@", _ASK_ZH)
    ),
]


def percent_chain_story(text: str) -> tuple[str, bool] | None:
    """'A price of 100 is decreased by 20% and then increased by 20%. What is the new price?',
    '一件商品先降价20%再提价20%，现价是原价的百分之几？': (the arithmetic, whether a percent of the
    original price is asked). The new price needs the old one; the percent does not."""
    for pattern in _PRICE_STORIES:
        match = pattern.match(text)
        if match is None:
            continue
        found = {k: v for k, v in match.groupdict().items() if v is not None}
        base, chain, ask = found.get("n1") or found.get("n2"), found.get("chain"), found.get("ask")
        chain = chain or found.get("chain2")
        ask = ask or found.get("ask2")
        if chain is None or ask is None:
            return None
        percent = bool(re.search(r"percent|百分之几", ask, _I))
        if not percent and base is None:
            return None
        arithmetic = f"(({base if not percent and base else 100}){_factors(chain)})"
        return _no_decrease_past_zero(arithmetic), percent
    return None


# The greatest common divisor and least common multiple of whole numbers written right there:
# "the GCD of 12 and 18", "the least common multiple of 4, 6 and 10", "12和18的最大公因数".
# Each is worked out here (the parsers have no gcd); an operand that is not a whole number
# ("the GCD of 1.5 and 3", "of x and 6"), or 0, leaves the words, which then make it abstain.
_WHOLE = r"\d+(?!\d|\.\d|\s*/)"
_LIST_EN = rf"({_WHOLE}(?:\s*,\s*{_WHOLE})*(?:\s*,?\s+and\s+{_WHOLE})?)"
_GCD_EN = r"greatest\s+common\s+(?:divisor|factor)|highest\s+common\s+factor|gcd|gcf|hcf"
_LCM_EN = r"(?:least|lowest)\s+common\s+multiple|lcm"
_OF = r"(?:\s*\((?:gcd|gcf|hcf|lcm)\))?\s+of\s+(?:the\s+numbers\s+|these\s+numbers\s*:?\s*)?"
_LIST_ZH = rf"({_WHOLE}(?:\s*[、，,和与]\s*{_WHOLE})+)"
_DIVISOR_MULTIPLE = [
    (re.compile(rf"\b(?:the\s+)?(?:{_GCD_EN}){_OF}{_LIST_EN}{_END}", _I), math.gcd),
    (re.compile(rf"\b(?:the\s+)?(?:{_LCM_EN}){_OF}{_LIST_EN}{_END}", _I), math.lcm),
    (re.compile(rf"{_START}{_LIST_ZH}\s*的\s*最大公(?:因|约)数"), math.gcd),
    (re.compile(rf"{_START}{_LIST_ZH}\s*的\s*最小公倍数"), math.lcm),
]
# The words the patterns need, looked for first: a list of 2,000 numbers and no such words is
# then one linear scan, not a list matched again from each of its numbers.
_DIVISOR_MULTIPLE_WORDS = re.compile(rf"{_GCD_EN}|{_LCM_EN}|最大公|最小公倍数", _I)


def _divisor_multiple(text: str) -> str:
    if _DIVISOR_MULTIPLE_WORDS.search(text) is None:
        return text
    for pattern, combine in _DIVISOR_MULTIPLE:

        def worked(match: re.Match[str], combine: Callable[..., int] = combine) -> str:
            numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
            if len(numbers) < 2 or 0 in numbers:
                return match.group(0)
            return f"({combine(*numbers)})"

        text = pattern.sub(worked, text)
    return text


# A decrease by more than 100% ("80 decreased by 120%", "120% less than 80") is no quantity a
# school problem means (-16 follows the formula, not the question): refused.
_DECREASE = re.compile(r"\(1-\(([\d.]+)\)/100\)")


def _no_decrease_past_zero(text: str) -> str:
    if any(Fraction(m.group(1)) > 100 for m in _DECREASE.finditer(text)):
        raise ParseError("a decrease by more than 100%")
    return text


_GAP = re.compile(rf"\bdifference\s+(?:between|of)\s+{_NUM}\s+and\s+{_NUM}", _I)


def _operand(text: str) -> Fraction:
    """A plain number of `_N`: 12, 0.45, 3/4 or (1+1/2)."""
    whole, _, part = text.strip("()").partition("+")
    return Fraction(whole) + (Fraction(part) if part else 0)


def _one_reading_of_gaps(text: str) -> str:
    """ "The difference between (or of) 3 and 10" is 7 to most teachers and −7 by the
    definition: not read unless both agree (the first number is not the smaller). "3与10的差"
    is read by its textbook definition, 3 − 10."""
    if any(_operand(m.group(1)) < _operand(m.group(2)) for m in _GAP.finditer(text)):
        raise ParseError("a difference between a smaller and a larger number: 7 or -7?")
    return text


# "-50 increased by 10%": -55 follows the formula, yet the value went down; an increase or a
# decrease of a negative number is no change a school problem means: refused.
_CHANGE_OF_A_NEGATIVE = re.compile(
    rf"-\s*{_N}\s*(?:(?:increased|raised|decreased|reduced|lowered)\s+by|(?:增加|提高|增长|减少|降低|下降))"
    rf"|\b(?:increase|decrease)\s+-",
    _I,
)


# A fraction of whole numbers written in LaTeX (\frac{2}{3}, normalized to ((2)/(3))) with only
# words around it is the plain number 2/3 an operation word takes ("Multiply \frac{2}{3} by
# \frac{4}{7}"). Beside an operator it stays as it is: the brackets then say what goes first.
_LATEX_FRACTION = re.compile(r"\(\((\d+)\)/\((\d+)\)\)")
# A word, not a letter: "\frac{1}{2}x" is a product with the unknown, never "1/2x".
_WORD_BEFORE = re.compile(r"(?:^|[A-Za-z]{2}|[\u4e00-\u9fff])\s*$")
_WORD_AFTER = re.compile(r"^\s*(?:$|[A-Za-z]{2}|[\u4e00-\u9fff]|[.?!,;:。？！，](?:\s|$))")


def _fractions_among_words(text: str) -> str:
    def plain(match: re.Match[str]) -> str:
        before, after = text[: match.start()], text[match.end() :]
        if _WORD_BEFORE.search(before) and _WORD_AFTER.match(after):
            return f"{match.group(1)}/{match.group(2)}"
        return match.group(0)

    return _LATEX_FRACTION.sub(plain, text)


def spell_out(text: str) -> str:
    """The text with each operation said in words between numbers written as notation."""
    if _CHANGE_OF_A_NEGATIVE.search(text):
        raise ParseError("a percent change of a negative number")
    text = _one_reading_of_gaps(_divisor_multiple(_fractions_among_words(text)))
    for chain in _CHAINS:
        text = chain.sub(_chain, text)
    for _ in range(3):  # nested phrases: "the sum of the square of 3 and 4"
        before = text
        for pattern, template in _REWRITES:
            text = pattern.sub(template, text)
        if text == before:
            break
    return _no_decrease_past_zero(text)
