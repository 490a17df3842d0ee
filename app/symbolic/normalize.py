"""Turn what students, OCR and models write into one plain ASCII notation, losing nothing.

Every rewrite here is a character-level translation (² → ^(2), ½ → (1/2), \\frac{a}{b} →
((a)/(b))): anything that cannot be translated without guessing raises ParseError, so the
reader abstains instead of dropping it. A number broken by an invisible character ("1\\u200b1")
is one of those: silently joining it into 11 would be a guess.
"""

from __future__ import annotations

import math
import re
import unicodedata
from fractions import Fraction
from functools import lru_cache


class ParseError(ValueError):
    """The text is not something the symbolic reader accepts (it abstains)."""


# What reading a value may raise: ParseError, or sympy's own errors on text it cannot take.
READ_ERRORS = (ParseError, TypeError, ValueError, ZeroDivisionError, RecursionError)


_INVISIBLE = "\u200b-\u200f\u2060\ufeff\u202a-\u202e\u2066-\u2069\u061c\u00ad"
_INVISIBLE_RE = re.compile(f"[{_INVISIBLE}]")
_BROKEN_TOKEN = re.compile(f"[0-9A-Za-z.][{_INVISIBLE}]+[0-9A-Za-z.]")

_SUPER = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾ⁿˣʸ", "0123456789+-()nxy", strict=True))
_SUB = dict(zip("₀₁₂₃₄₅₆₇₈₉", "0123456789", strict=True))
_VULGAR = {
    "½": "1/2",
    "⅓": "1/3",
    "⅔": "2/3",
    "¼": "1/4",
    "¾": "3/4",
    "⅕": "1/5",
    "⅖": "2/5",
    "⅗": "3/5",
    "⅘": "4/5",
    "⅙": "1/6",
    "⅚": "5/6",
    "⅐": "1/7",
    "⅛": "1/8",
    "⅜": "3/8",
    "⅝": "5/8",
    "⅞": "7/8",
    "⅑": "1/9",
    "⅒": "1/10",
    "↉": "0/3",
}
# "2½", "2 ½": a whole number before a vulgar fraction makes a mixed number; after a decimal
# point or a power ("1.5½", "2^2½") it is no notation, and the ½ left over makes the reader abstain.
_VULGAR_RE = re.compile(f"(?<![\\d.^])(\\d*)(\\s*)([{''.join(_VULGAR)}])")
_VULGAR_LEFT = re.compile(f"[{''.join(_VULGAR)}]")
_SUPER_RE = re.compile(f"[{''.join(_SUPER)}]+")
_SUB_RE = re.compile(f"[{''.join(_SUB)}]+")

_SYMBOLS = {
    "×": "*",
    "·": "*",
    "∙": "*",
    "⋅": "*",
    "⁄": "/",
    "∕": "/",
    "−": "-",
    "–": "-",
    "—": "-",
    "√": " sqrt ",
    "∛": " root_(3) ",
    "∜": " root_(4) ",
    "≤": "<=",
    "⩽": "<=",
    "≥": ">=",
    "⩾": ">=",
    "π": " pi ",
    "∣": "|",
    "º": "°",
}

# LaTeX commands with a plain translation; anything else unknown makes the reader abstain.
_LATEX_WORDS = {
    "cdot": "*",
    "times": "*",
    "div": "÷",
    "pm": "±",
    "mp": "∓",
    "le": "<=",
    "leq": "<=",
    "leqslant": "<=",
    "ge": ">=",
    "geq": ">=",
    "geqslant": ">=",
    "lt": "<",
    "gt": ">",
    "ne": "≠",
    "neq": "≠",
    "circ": "°",
    "degree": "°",
    "pi": " pi ",
    "infty": "∞",
    "lvert": "|",
    "rvert": "|",
    "vert": "|",
    "mid": "|",
    "ln": " ln ",
    "lg": " lg ",
    "log": " log",
    "arcsin": " arcsin ",
    "arccos": " arccos ",
    "arctan": " arctan ",
    "sin": " sin ",
    "cos": " cos ",
    "tan": " tan ",
    "exp": " exp ",
    "left": "",
    "right": "",
    "bigl": "",
    "bigr": "",
    "Bigl": "",
    "Bigr": "",
    "displaystyle": "",
    "quad": " ",
    "qquad": " ",
    "in": "∈",
    "emptyset": "∅",
    "varnothing": "∅",
    "therefore": " ",
    "cup": "∪",
}
# The functions the readers know, longest first ("arcsin" before "sin"); a regex alternation.
FUNCTION_NAMES = "arcsin|arccos|arctan|sqrt|root|log|ln|lg|sin|cos|tan|exp|abs"
_LATEX_TEXT = {"text", "mathrm", "textbf", "mathbf", "operatorname", "textrm", "mbox", "boxed"}
# Marks a mixed number made here (2\\frac{1}{2}, 2½, 1又1/2 → (2+1/2)) until `normalize` checks
# what follows it: like "2 1/2^2" (`parsing.expand_mixed_numbers`), one before a power is
# refused: (2 + 1/2)^2 = 25/4 or 2 + (1/2)^2 = 9/4? ("2\\frac{1}{2}x" stays 2.5x, issue 27.)
_MIXED = "\ue000"
_MIXED_BEFORE_POWER = re.compile(_MIXED + r"\s*(?:\^|\*\*)")
_LATEX_ESCAPES = {"{": "{", "}": "}", ",": " ", ";": " ", ":": " ", "!": "", " ": " ", "%": "%"}
_LATEX_DELIMITERS = {"(": " ", ")": " ", "[": " ", "]": " "}  # \( … \), \[ … \]
# The whole number right before a \frac, as written: "2\frac{1}{2}" (not "x^2", "0.2").
_WHOLE_BEFORE = re.compile(r"(?<![\w.^_)])(\d+)\s*$")
_INTEGER = re.compile(r"\s*\d+\s*")


def _superscript(match: re.Match[str]) -> str:
    return "^(" + "".join(_SUPER[c] for c in match.group(0)) + ")"


def _vulgar(match: re.Match[str]) -> str:
    whole, space, frac = match.group(1), match.group(2), _VULGAR[match.group(3)]
    return f"({whole}+{frac}){_MIXED}" if whole else f"{space}({frac})"


def _group(text: str, pos: int) -> tuple[str, int]:
    """The {...} group (or single character) at `pos`, converted, and the position after it."""
    while pos < len(text) and text[pos] == " ":
        pos += 1
    if pos >= len(text):
        raise ParseError("a LaTeX command is missing its argument")
    if text[pos] != "{":
        if text[pos] == "\\":
            m = re.match(r"\\[a-zA-Z]+", text[pos:])
            if m:
                return latex_to_plain(m.group(0)), pos + m.end()
        return text[pos], pos + 1
    depth = 0
    for end in range(pos, len(text)):
        depth += {"{": 1, "}": -1}.get(text[end], 0)
        if depth == 0:
            return latex_to_plain(text[pos + 1 : end]), end + 1
    raise ParseError("unbalanced braces")


def _fraction(before: str, num: str, den: str) -> tuple[str, str]:
    """\\frac{b}{c} → ("(b)/(c)"), and what stays of the text before it: a whole number right
    before a proper fraction of integers is a mixed number (K12 convention: a\\frac{b}{c} is
    a + b/c) and moves inside. A number before an improper one ("2\\frac{5}{3}") is refused."""
    if re.search(r"\d\s*$", before):
        integers = _INTEGER.fullmatch(num) and _INTEGER.fullmatch(den)
        whole = _WHOLE_BEFORE.search(before)
        if integers and whole and 0 < int(num) < int(den):
            mixed = f"({whole.group(1)}+{num.strip()}/{den.strip()}){_MIXED}"
            return before[: whole.start()], mixed
        if integers:
            raise ParseError("a number right before a fraction: a mixed number or a product?")
    return before, f"(({num})/({den}))"


# "2{\\frac{1}{2}}", "{2}\\frac{1}{2}": braces are not shown, so the photo or page shows 2½;
# "2(\\frac{1}{2})", "2\\left(\\frac{1}{2}\\right)": Ape210K's 1(5/6). A whole number and a
# fraction of integers with only brackets between them: a mixed number or a product? Refused,
# as is a braced power before one ("x^{2}\\frac{1}{2}", as "x^2\\frac{1}{2}" is).
_NUMBER_THEN_BRACES = re.compile(r"\d[\s{}]*[{}][\s{}]*$|\^\(\s*\d+\s*\)\s*$")  # x^{2}\frac12
_NUMBER_THEN_OPEN = re.compile(r"(?<![\w.^_)])\d+\s*[(\[]\s*$")
_CLOSE_AFTER = re.compile(r"\s*(?:\\right\s*)?[)\]]")


def _bracketed_after_number(before: str, num: str, den: str, after: str) -> None:
    if not (_INTEGER.fullmatch(num) and _INTEGER.fullmatch(den)):
        return
    if _NUMBER_THEN_BRACES.search(before) or (
        _NUMBER_THEN_OPEN.search(before) and _CLOSE_AFTER.match(after)
    ):
        raise ParseError("a number, brackets, a fraction: a mixed number or a product?")


def _binomial(top: str, bottom: str) -> str:
    """\\binom{n}{k} of whole numbers k ≤ n as n!/(k!(n-k)!); letters, or k > n (0 by one
    convention, undefined by another), are refused."""
    n, k = top.strip(), bottom.strip()
    if not (n.isdigit() and k.isdigit() and int(k) <= int(n)):
        raise ParseError("a binomial coefficient of anything but whole numbers k ≤ n")
    return f" ({n}!/({k}!*{int(n) - int(k)}!)) "


def latex_to_plain(text: str) -> str:
    """\\frac, \\sqrt[n], \\log_{b}, \\left| ... into the plain notation the parsers read."""
    out: list[str] = []
    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch != "\\":
            if ch in "^_" and pos + 1 < len(text) and text[pos + 1] == "{":
                inner, pos = _group(text, pos + 1)
                out.append(f"{ch}({inner})")
                continue
            out.append(ch)
            pos += 1
            continue
        m = re.match(r"\\([a-zA-Z]+)", text[pos:])
        if not m:
            nxt = text[pos + 1 : pos + 2]
            if nxt == "\\":
                out.append("\n")
            elif nxt in _LATEX_ESCAPES:
                out.append(_LATEX_ESCAPES[nxt])
            elif nxt in _LATEX_DELIMITERS:
                out.append(_LATEX_DELIMITERS[nxt])
            else:
                raise ParseError(f"unknown LaTeX escape \\{nxt}")
            pos += 2
            continue
        name, pos = m.group(1), pos + m.end()
        if name in ("frac", "dfrac", "tfrac"):
            num, pos = _group(text, pos)
            den, pos = _group(text, pos)
            _bracketed_after_number("".join(out), num, den, text[pos:])
            before, fraction = _fraction("".join(out), num, den)
            out = [before, fraction]
        elif name in ("binom", "dbinom", "tbinom"):
            top, pos = _group(text, pos)
            bottom, pos = _group(text, pos)
            out.append(_binomial(top, bottom))
        elif name == "sqrt":
            index = None
            if text[pos : pos + 1] == "[":
                close = text.find("]", pos)
                if close < 0:
                    raise ParseError("unbalanced [")
                index, pos = latex_to_plain(text[pos + 1 : close]), close + 1
            arg, pos = _group(text, pos)
            out.append(f" root_({index})({arg})" if index else f" sqrt({arg})")
        elif name in _LATEX_TEXT:
            arg, pos = _group(text, pos)
            out.append(f" {arg} ")
        elif name in _LATEX_WORDS:
            out.append(_LATEX_WORDS[name])
        else:
            raise ParseError(f"unsupported LaTeX command \\{name}")
    return "".join(out)


# Chinese fractions: "3分之2" is 2/3, "百分之20" is 20%, "1又1/2" and "1又3分之2" are mixed numbers.
_CHINESE_PERCENT = re.compile(r"百分之\s*(\d+(?:\.\d+)?)")
_CHINESE_FRACTION = re.compile(r"(?<!\d)(\d+)\s*分之\s*(\d+)")
_CHINESE_MIXED = re.compile(r"(?<!\d)(\d+)\s*又\s*\(?\s*(\d+)\s*/\s*(\d+)\s*\)?")
# "1(5/6)" (Ape210K writes mixed numbers so): 1 + 5/6, or 1 × 5/6 as elsewhere? Abstain.
_PAREN_FRACTION_AFTER_NUMBER = re.compile(r"(?<![\w.)])\d+\s*\(\s*\d+\s*/\s*\d+\s*\)")


def _chinese_mixed(match: re.Match[str]) -> str:
    whole, numerator, denominator = match.groups()
    if not 0 < int(numerator) < int(denominator):
        raise ParseError("又 before an improper fraction")
    return f"({whole}+{numerator}/{denominator}){_MIXED}"


# No group of thousands begins with 0: "0,125" is a decimal comma (1/8), not 125.
_THOUSANDS = re.compile(r"(?<![\d.])((?!0,)\d{1,3}(?:,\d{3})+)(?![\d,])")
# "1 000 000" (a space or thin space between exact groups of three), but not "2 125/1000".
_SPACED_THOUSANDS = re.compile(r"(?<![\d.])(?<!\d )(\d{1,3}(?: \d{3})+)(?![\d.]|\s*/|\s\d)")
# "48 ÷ 4 ÷ 2": in school, a chain of divisions goes left to right.
_DIVISION_CHAIN = re.compile(
    r"(?<![\d./)])(\d+(?:\.\d+)?|\([\d./]+\))\s*÷\s*(\d+(?:\.\d+)?)(?=\s*÷)"
)
# K12 reads "3/4 ÷ 1/2" and "5 ÷ 2/3" as dividing by the fraction, not left to right.
_DIVIDE_BY_FRACTION = re.compile(r"÷\s*((?:\d+\s+)?\d+\s*/\s*\d+)(?![\d.]|\s*[a-zA-Z(^%])")


# Repeating decimals: 0.\overline{3}, 0.1\dot{6}, 0.\dot{1}4285\dot{7}, 0.3̇ (a combining dot
# above), 0.(3). Each is an exact fraction. "0.1(6)" is refused: 0.1666… or 0.1 × 6?
_REPEAT_MARK = r"\\dot\s*\{\d\}|\\dot\s*\d|\\overline\s*\{\d+\}|\d[\u0307\u0305]"
# The whole part may be left out, as in "(.\overline{6})" (0.666…), but not after a letter.
_MARKED_DECIMAL = re.compile(rf"(?:(?<![\d.])(\d+)|(?<![\d.A-Za-z)]))\.((?:{_REPEAT_MARK}|\d)+)")
_PAREN_REPEAT = re.compile(r"(?<![\d.])(\d+)\.\(\s*(\d+)\s*\)")
_PAREN_AFTER_DECIMAL = re.compile(r"(?<![\d.])\d+\.\d+\(\s*\d+\s*\)")
_ELLIPSIS_DECIMAL = re.compile(r"(?<![\d.])(\d+)\.(\d+)(?:\.{3,}|…)")
MAX_PERIOD = 6


def repeating_fraction(whole: str, fixed: str, block: str) -> str:
    """whole.fixed(block) as '(p/q)': 0.1(6) → '(1/6)'. A block of 9s (0.(9) = 1) or of 0s is
    no repeating decimal in school: refused."""
    if set(block) <= {"9"} or set(block) <= {"0"}:
        raise ParseError("a repeating block of 9s or 0s")
    scale = 10 ** len(fixed)
    numerator = int(whole + fixed) * (10 ** len(block) - 1) + int(block)
    denominator = scale * (10 ** len(block) - 1)
    divisor = math.gcd(numerator, denominator)
    return f"({numerator // divisor}/{denominator // divisor})"


def _marked(match: re.Match[str]) -> str:
    whole, body = match.group(1) or "0", match.group(2)
    if not re.search(_REPEAT_MARK, body):
        return match.group(0)
    digits: list[tuple[str, bool]] = []  # (digit, in the repeating block as marked)
    overline = False
    for item in re.finditer(rf"{_REPEAT_MARK}|\d", body):
        token = item.group(0)
        if token.startswith("\\overline"):
            digits += [(d, True) for d in re.sub(r"\D", "", token[len("\\overline") :])]
            overline = True
        elif token.startswith("\\dot"):
            digits.append((re.sub(r"\D", "", token)[-1], True))
        else:
            digits.append((token[0], len(token) > 1))
            overline = overline or token.endswith("\u0305")
    marked = [i for i, (_, m) in enumerate(digits) if m]
    if not marked or marked[-1] != len(digits) - 1:
        raise ParseError("a repeating mark that is not on the last digit")
    if overline:  # every digit of the block is marked
        start = marked[0]
        if marked != list(range(start, len(digits))):
            raise ParseError("a broken overline")
    else:  # a dot on the first and the last digit of the block
        if len(marked) > 2:
            raise ParseError("more than two repeating dots")
        start = marked[0]
    plain = "".join(d for d, _ in digits)
    return repeating_fraction(whole, plain[:start], plain[start:])


def repeating_decimals(text: str) -> str:
    """Marked repeating decimals as exact fractions; a decimal followed by a bracket is refused."""
    if _PAREN_AFTER_DECIMAL.search(text):
        raise ParseError("'0.1(6)': a repeating decimal or a product?")
    text = _MARKED_DECIMAL.sub(_marked, text)
    return _PAREN_REPEAT.sub(lambda m: repeating_fraction(m.group(1), "", m.group(2)), text)


def ellipsis_decimals(text: str) -> str:
    """'0.333...', '0.1666…', '0.272727...' in a problem: the last block written again and again
    (one digit three times, a longer block twice) repeats. Anything else ('0.12...', '3.14...')
    could be digits cut short of an unknown number: refused."""

    def period(match: re.Match[str]) -> str:
        whole, digits = match.group(1), match.group(2)
        for length in range(1, MAX_PERIOD + 1):
            block = digits[-length:]
            times = 0
            while digits.endswith(block * (times + 1)):
                times += 1
            if len(block) == length and times >= (3 if length == 1 else 2):
                fixed = digits[: len(digits) - times * length]
                return repeating_fraction(whole, fixed, block)
        raise ParseError(f"{match.group(0)!r}: which digits repeat?")

    return _ELLIPSIS_DECIMAL.sub(period, text)


def read_repeating(text: str) -> Fraction | None:
    """'0.333...' → 1/3 by the rule of `ellipsis_decimals`; None when it is not one."""
    sign = -1 if text.startswith("-") else 1
    try:
        fraction = ellipsis_decimals(text.lstrip("-"))
    except ParseError:
        return None
    match = re.fullmatch(r"\((\d+)/(\d+)\)", fraction)
    return sign * Fraction(int(match.group(1)), int(match.group(2))) if match else None


# "(2) 12 + 8 = ?", "计算：(1) 12+8", "Solve 2x + 3 = 11 (3)": an exercise's number in
# brackets, or a factor? (2 × 12 + 8 = 32.) Both are plausible in school texts.
_EXERCISE_NUMBER = re.compile(
    r"(?:^|[\s:：])[(（]\s*\d{1,3}\s*[)）](?=\s|$)|^\s*[(（]\s*\d{1,3}\s*[)）](?=[\w(（])"
)


def has_exercise_number(text: str) -> bool:
    """A bracketed number that may be the exercise's number rather than a factor."""
    return _EXERCISE_NUMBER.search(text) is not None


_SPACE_RUN = re.compile(r"\s{2,}")


def squeeze_space(text: str) -> str:
    """Each run of white space as one space, or one line break where it breaks a line.

    Done first, where text enters the readers: their patterns put optional spaces side by side
    (`\\s*[，,]?\\s*的?\\s*`), and a run of 300 spaces between two letters took one of them
    265 s to refuse (the 4,000 of a text at the limit would take days). A reading never turns
    on how many spaces there are."""
    return _SPACE_RUN.sub(lambda run: "\n" if "\n" in run[0] else " ", text)


# A worksheet's answer blank after "=": "12+8=（ ）", "25×4=___", "7-2=□" ask what "= ?" asks.
# Only at the end of the equation (before punctuation or the end): a blank inside one
# ("（ ）+5=12") is an unknown, which is not read as one here.
_TRAILING_BLANK = re.compile(r"=\s*(?:\(\s*\)|\[\s*\]|_{2,}|□)\s*(?=$|[,;:?!，。；：？！\n])")


# One reading of a problem normalizes its text four or five times (conversion, percent story,
# question, stated equations): the same string, the same result.
@lru_cache(maxsize=512)
def normalize(text: str) -> str:
    """Unicode, full-width, superscripts, vulgar fractions and LaTeX into plain ASCII math."""
    if _BROKEN_TOKEN.search(text):
        raise ParseError("an invisible character splits a number or a name")
    text = _INVISIBLE_RE.sub("", text)
    text = repeating_decimals(text)
    text = _VULGAR_RE.sub(_vulgar, text)
    if _VULGAR_LEFT.search(text):
        raise ParseError("a vulgar fraction after a decimal or a power")
    text = _SUPER_RE.sub(_superscript, text)
    text = _SUB_RE.sub(lambda m: "_(" + "".join(_SUB[c] for c in m.group(0)) + ")", text)
    text = unicodedata.normalize("NFKC", text)
    text = _TRAILING_BLANK.sub("= ?", text)
    for src, dst in _SYMBOLS.items():
        text = text.replace(src, dst)
    text = latex_to_plain(text)
    text = _CHINESE_PERCENT.sub(r"\1%", text)
    text = _CHINESE_FRACTION.sub(r"(\2/\1)", text)
    text = _CHINESE_MIXED.sub(_chinese_mixed, text)
    if _PAREN_FRACTION_AFTER_NUMBER.search(text):
        raise ParseError("'1(5/6)': a mixed number or a product?")
    text = re.sub(r"\^\s*\(?\s*°\s*\)?", "°", text)  # 30^\circ
    text = text.replace("$", " ").replace("{", "(").replace("}", ")")
    text = _SPACED_THOUSANDS.sub(lambda m: m.group(1).replace(" ", ""), text)
    while _DIVISION_CHAIN.search(text):
        text = _DIVISION_CHAIN.sub(r"(\1/\2)", text, count=1)
    # Spaced: "4÷2" is a division, never the fraction 4/2 an operation word may take as its
    # operand ("the quotient of 12 and 4÷2").
    text = _DIVIDE_BY_FRACTION.sub(r"/ (\1)", text).replace("÷", " / ")
    if _MIXED_BEFORE_POWER.search(text):
        raise ParseError("a mixed number before a power: 2 1/2^2 is 25/4 or 9/4?")
    text = text.replace(_MIXED, "")
    return _THOUSANDS.sub(lambda m: m.group(1).replace(",", ""), text)


def normalized_or_as_written(text: str) -> str:
    """`normalize(text)`, or the text itself where normalize refuses it (an invisible
    character inside a number): for a look at its words, never for a reading."""
    try:
        return normalize(text)
    except ParseError:
        return text
