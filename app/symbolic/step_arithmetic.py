"""Every arithmetic claim in a worked step (`18 - 6 = 12`, `1/3 × 18 = 6`, `$18 \\times 2 =
$36`), evaluated exactly with fractions.

Sound first: a claim is `wrong` only when it is read without doubt and false under every
reading a careful teacher would allow — rounding stated or plain (2/3 = 0.67, 100/3 ≈ 33),
rounded decimals carried from earlier steps (33.33 × 3 = 100), running totals written as one
chain (2 + 3 = 5 + 4 = 9), percent written loosely (0.25 × 100 = 25%). Sides in units one
reads without doubt (3 km = 3000 m, 1 h 30 min = 90 min) are put in one unit first
(step_units). A chain is `ok` only when every link in it is read and checks (3.5 = 9 1/2
leaves 7/2 = 3.5 = 9 1/2 unchecked), a rounding only as its last link (2/3 = 0.67 = 67/100
is unchecked). Anything touched by words that change a value (half of, dozen, 万), a ratio
or time (3:30), a subscript or an unknown command is skipped. Pure functions (sandboxed).
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

from app.symbolic.evaluation import terminating_decimal
from app.symbolic.normalize import ParseError
from app.symbolic.step_text import Token, to_plain, tokenize
from app.symbolic.step_units import read_sides, reads_as_unit, related_in, units_related_by
from app.symbolic.units import UNITS, convert, unit_name
from app.symbolic.vocabulary import word_set

Verdict = str  # ok | wrong | unchecked

# Words that change a value when read beside a number: never dropped as a unit.
_VALUE_WORDS = """
    of times half halves twice double doubled triple tripled dozen dozens score hundred
    hundreds thousand thousands million millions billion billions trillion percent percentage
    per quarter quarters third thirds fourth fourths fifth fifths sixth tenth tenths hundredth
    hundredths thousandth plus minus over divided multiplied by squared cubed less more fewer
    than and or to from mod modulo remainder remainders am pm o'clock oclock digit digits"""
VALUE_WORDS = frozenset(_VALUE_WORDS.split())
# Nouns a number right after names rather than counts (day 1, week 2, step 3, 第3天).
_INDEX_WORDS = """
    day days week weeks month months year years step steps part parts question questions
    problem problems page pages grade level round game chapter room row column line group
    team trip test quiz stage phase case option method way type number no item figure table
    equation eq lap floor bus route gate seat version"""
INDEX_WORDS = frozenset(_INDEX_WORDS.split())
# Prose, never a unit: "X = 9 because - 18/-2 = 9" is no "9 becauses".
_PROSE_WORDS = """
    because since so then thus hence therefore which that is are was were will would can
    could should must has have had be been being means gives makes equals get gets got the
    a an it its this these those we you he she they i if when where while as at in on for
    with into onto about after before during his her their our my your him them us"""
PROSE_WORDS = frozenset(_PROSE_WORDS.split())
# Units one converts between (2 × 1.5 hours = 180 minutes): a claim whose sides carry
# different ones of these is not judged. Singular, as a plural loses its "s" (inche-s).
_CONVERTIBLE_UNITS = """
    second minute hour day week month year decade century cent dime nickel penny pennie
    dollar buck euro yuan pound ounce oz lb kg kilogram gram ton tonne mg inch inche foot feet
    ft yard yd mile mi km kilometer kilometre meter metre cm centimeter centimetre mm
    millimeter millimetre liter litre ml milliliter millilitre gallon quart pint cup
    tablespoon teaspoon min sec hr mph 元 角 分 米 厘米 千米 克 千克 吨 升 毫升 小时 分钟 秒
    天 年 月 周"""
CONVERTIBLE_UNITS = frozenset(_CONVERTIBLE_UNITS.split())
# Money's two denominations: a value in one is no value in the other ($5 × 3 = 15 cents), and
# between them the factor is the currency's (100, 10, 5 for a nickel), so neither is judged.
_MAJOR_MONEY = word_set("dollar buck euro yuan pound quid 元 块")
_MINOR_MONEY = word_set("cent penny pennie pence dime nickel jiao fen 角 毛 分钱")
_CURRENCY_SIGN = re.compile(r"[$€£¥￥]")


def _money_in_text(words: frozenset[str]) -> re.Pattern[str]:
    """The denomination's words in a problem's text: a word (plural too), or a character after
    a number (5角, 一元); a currency sign stands for the major one."""
    latin = "|".join(sorted(w for w in words if w.isascii()))
    after_number = "".join(w for w in words if not w.isascii() and len(w) == 1)
    longer = "|".join(w for w in words if not w.isascii() and len(w) > 1)
    return re.compile(
        rf"\b(?:{latin})s?\b|[\d一二三四五六七八九十两]\s*[{after_number}]"
        + (f"|{longer}" if longer else ""),
        re.IGNORECASE,
    )


_MAJOR_IN_TEXT = _money_in_text(_MAJOR_MONEY)
_MINOR_IN_TEXT = _money_in_text(_MINOR_MONEY)
# Chinese characters that scale or relate a number (三万, 一半, 两倍, 八折, 七成).
_CJK_VALUE = re.compile(r"[万千百亿半倍折成分角秒时天周月年小之比和差积商]")
# Units written with those characters, each one unit to units.py (千米, 小时, 分钟, 秒): a
# unit when it is the whole word after a number. Not 时 (3时: three o'clock) nor 分 (a minute
# or a cent).
CJK_UNITS = frozenset(
    u for u in UNITS if not u.isascii() and "/" not in u and _CJK_VALUE.search(u) and u != "时"
)
# A scale said in words or money beside the numbers: "5 thousand dollars … 5 * 3 = $15,000".
_SCALE_WORDS = re.compile(
    r"thousand|million|billion|hundred|\bk\b|cents?\b|\$|千|万|百|亿|分钱", re.IGNORECASE
)
_ROUNDING_WORDS = re.compile(
    r"approx|about|around|roughly|round|nearest|estimate|约|大约|近似|四舍五入|取整",
    re.IGNORECASE,
)
MAX_DIGITS = 60
FLOAT_NOISE_PLACES = 8  # a decimal this long was printed by a machine, float error and all
# What makes a side unreadable: deep nesting, a value too large, a division by zero.
_NOT_JUDGED = (ValueError, ZeroDivisionError, OverflowError, RecursionError)
MAX_EXPONENT = 64


class Unreadable(ValueError):
    """A side that is not plain arithmetic (a variable, a fragment, a value too large)."""


@dataclass(frozen=True, slots=True)
class Claim:
    text: str  # the chain as written, e.g. "18 - 6 = 11"
    verdict: Verdict
    why: str


@dataclass(frozen=True, slots=True)
class _Side:
    tokens: tuple[Token, ...]
    units: tuple[str, ...]
    quotient_of_quantities: bool = False  # a unit divided by a number: 1 hour / 60 minutes
    quantities: tuple[Token, ...] = ()  # the tokens with their units, as written
    continues: bool = False  # its number is followed by "...": the digits go on (0.333...)

    @property
    def has_operator(self) -> bool:
        kinds = [t.kind for t in self.tokens]
        binary = any(
            t.kind == "op" and i > 0 and kinds[i - 1] in ("num", "rp", "pct", "var")
            for i, t in enumerate(self.tokens)
        )
        return binary or "sqrt" in kinds or "lp" in kinds

    @property
    def literal(self) -> Token | None:
        """The number, when the side is one number (a minus sign and a percent allowed)."""
        kinds = [t.kind for t in self.tokens if t.kind != "pct"]
        if kinds == ["num"]:
            return self.tokens[0]
        if kinds == ["op", "num"] and self.tokens[0].text == "-":
            return self.tokens[1]
        return None

    @property
    def negative(self) -> bool:
        return bool(self.tokens) and self.tokens[0].text == "-"


# ---------------------------------------------------------------- evaluation


class _Evaluator:
    """Recursive descent over one side's tokens to an exact Fraction (no variables).

    `loose`: the readings a writer may have meant where the notation is ambiguous in
    practice: `a / b × c` and `a / b(c)` as a / (b × c), `-3^2` as (-3)^2, `2^3^2` as
    (2^3)^2, a typed `√16+9` as √(16+9) (the bar's reach). A calculation false in the
    standard reading but true in the loose one is never flagged."""

    def __init__(self, tokens: tuple[Token, ...], loose: bool = False) -> None:
        self.tokens = tokens
        self.pos = 0
        self.loose = loose

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> Token:
        token = self.peek()
        if token is None:
            raise Unreadable("unexpected end")
        self.pos += 1
        return token

    def parse(self) -> Fraction:
        value = self.expression()
        if self.peek() is not None:
            raise Unreadable(f"unexpected {self.peek()}")
        return value

    def expression(self) -> Fraction:
        value = self.term()
        while (t := self.peek()) is not None and t.kind == "op" and t.text in "+-":
            self.take()
            right = self.term()
            value = value + right if t.text == "+" else value - right
            _bounded(value)
        return value

    def term(self) -> Fraction:
        value = self.unary()
        divided = False
        while (t := self.peek()) is not None:
            if t.kind == "op" and t.text in "*/":
                if t.text == "/" and divided:
                    raise Unreadable("a / b / c: 25 / 1/3 means 25 ÷ ⅓ to its writer")
                divided = divided or t.text == "/"
                self.take()
                right = self.unary()
                if t.text == "/" and self.loose:
                    right = self._denominator_product(right)
                if t.text == "/":
                    if right == 0:
                        raise Unreadable("division by zero")
                    value /= right
                else:
                    value *= right
            elif t.kind in ("lp", "sqrt") and self.tokens[self.pos - 1].kind in ("num", "rp"):
                if t.start != self.tokens[self.pos - 1].end:
                    raise Unreadable("4 (15 minutes): a product only when written together")
                value *= self.unary()  # 2(3 + 4), (2)(3): written products
            else:
                break
            _bounded(value)
        return value

    def _denominator_product(self, value: Fraction) -> Fraction:
        """The loose reading of a / b × c: the products right after a division belong to
        the denominator."""
        while (t := self.peek()) is not None:
            touching = self.pos > 0 and t.start == self.tokens[self.pos - 1].end
            if t.kind == "op" and t.text == "*":
                self.take()
            elif not (t.kind in ("lp", "sqrt") and touching):
                break
            value *= self.unary()
            _bounded(value)
        return value

    def unary(self) -> Fraction:
        t = self.peek()
        if t is not None and t.kind == "op" and t.text in "+-":
            if t.text == "+" and self.pos > 0 and self.tokens[self.pos - 1].kind == "op":
                raise Unreadable("1 * +1: an operator typed twice")
            self.take()
            if self.loose and t.text == "-":
                return self.power(negate=True)  # -3^2 read as (-3)^2
            value = self.unary()
            return -value if t.text == "-" else value
        return self.power()

    def power(self, negate: bool = False) -> Fraction:
        base = self.postfix()
        if negate:
            base = -base
        while (t := self.peek()) is not None and t.kind == "op" and t.text == "^":
            self.take()
            if not self.loose:
                return _power(base, self.unary())  # right-associative: 2^3^2 = 2^9
            base = _power(base, self._exponent())  # (2^3)^2
        return base

    def _exponent(self) -> Fraction:
        t = self.peek()
        if t is not None and t.kind == "op" and t.text in "+-":
            self.take()
            value = self.postfix()
            return -value if t.text == "-" else value
        return self.postfix()

    def postfix(self) -> Fraction:
        value = self.atom()
        while (t := self.peek()) is not None and t.kind == "pct":
            self.take()
            value /= 100
        return value

    def atom(self) -> Fraction:
        t = self.take()
        if t.kind == "num":
            if len(t.text) > MAX_DIGITS:
                raise Unreadable("number too long")
            if len(t.text) > 1 and t.text[0] == "0" and t.text[1] != ".":
                raise Unreadable("0900: a time or a code, not a number")
            return Fraction(t.text)
        if t.kind == "lp":
            value = self.expression()
            if self.take().kind != "rp":
                raise Unreadable("unbalanced parentheses")
            return value
        if t.kind == "sqrt":
            following = self.peek()
            if self.loose and following is not None and following.kind != "lp":
                return _exact_sqrt(self.expression())  # √16+9 typed for √(16+9): the bar's reach
            return _exact_sqrt(self.postfix())
        raise Unreadable(f"not arithmetic: {t.text!r}")


def _bounded(value: Fraction) -> None:
    if max(abs(value.numerator), value.denominator).bit_length() > MAX_DIGITS * 4:
        raise Unreadable("value too large")


def _exact_sqrt(value: Fraction) -> Fraction:
    if value < 0:
        raise Unreadable("square root of a negative number")
    num, den = math.isqrt(value.numerator), math.isqrt(value.denominator)
    if num * num != value.numerator or den * den != value.denominator:
        raise Unreadable("irrational square root")  # not exact: not judged
    return Fraction(num, den)


def _power(base: Fraction, exponent: Fraction) -> Fraction:
    if exponent.denominator != 1 or abs(exponent) > MAX_EXPONENT:
        raise Unreadable("unsupported exponent")
    if base == 0 and exponent <= 0:
        raise Unreadable("undefined power")
    result = base ** int(exponent)
    assert isinstance(result, Fraction)
    _bounded(result)
    return result


def evaluate(tokens: tuple[Token, ...], loose: bool = False) -> Fraction:
    if any(t.kind == "var" for t in tokens):
        raise Unreadable("has a variable")
    return _Evaluator(tokens, loose).parse()


def _loose_readings_agree(left: tuple[Token, ...], right: tuple[Token, ...]) -> bool:
    """Is the claim true when either side is read the loose way (a / b × c as a / (b × c),
    -3^2 as (-3)^2)?"""
    try:
        strict = (evaluate(left), evaluate(right))
        loose = (evaluate(left, loose=True), evaluate(right, loose=True))
    except _NOT_JUDGED:
        return False
    return loose[0] == strict[1] or strict[0] == loose[1] or loose[0] == loose[1]


SCALES = (10, 100, 1000, 10**4, 10**6, 10**9)  # thousands, cents, 万: factors a scale may imply


def _read_otherwise(side: _Side, context: Context) -> set[Fraction]:
    """The values a calculation may mean besides its strict reading: the loose notation (a / b
    × c as a / (b × c), -3^2 as (-3)^2), a percent written as a number (7/9 as 77.78), a scale
    the words imply (thousands, cents)."""
    values: set[Fraction] = set()
    for loose in (False, True):
        try:
            values.add(evaluate(side.tokens, loose=loose))
        except _NOT_JUDGED:
            continue
    factors: tuple[int, ...] = (100,) if context.percent else ()
    factors += SCALES if context.scaled else ()
    return (
        values | {v * f for v in values for f in factors} | {v / f for v in values for f in factors}
    )


def _decimal_places(token: Token) -> int:
    return len(token.text.split(".")[1]) if "." in token.text else 0


def _interval(tokens: tuple[Token, ...]) -> tuple[Fraction, Fraction]:
    """The side's value range when every decimal in it may be a rounded value (half a unit
    of its last place either way): evaluated at every corner, exact for + - × ÷ of
    distinct literals (each appears once, and each operation is monotone in it)."""
    decimals = [i for i, t in enumerate(tokens) if t.kind == "num" and "." in t.text]
    if not decimals or len(decimals) > 6:
        value = evaluate(tokens)
        return value, value
    values: list[Fraction] = []
    for corner in range(1 << len(decimals)):
        changed = list(tokens)
        for bit, index in enumerate(decimals):
            t = tokens[index]
            half = Fraction(1, 2 * 10 ** _decimal_places(t))
            v = Fraction(t.text) + (half if corner >> bit & 1 else -half)
            changed[index] = Token("num", str(v), t.start, t.end)  # "p/q": Fraction reads it
        values.append(evaluate(tuple(changed)))
    return min(values), max(values)


# ---------------------------------------------------------------- claims in a line


def _unit_words(tokens: list[Token], i: int, previous: Token | None) -> int:
    """How many tokens from i on are the unit of the number before them (0: none). A unit
    is at most two words (square feet, pounds/book) and is followed by an operator, an
    equals sign, a closing parenthesis or the end of the run: prose that goes on to more
    math ("4^3 can be written as (2^2)^3") is not a unit. A word touching the number
    (3xy, 5cQ) is algebra unless it is a unit one knows (5kg)."""
    if previous is None or previous.kind not in ("num", "rp", "pct"):
        return 0
    j = i
    while j < len(tokens) and j - i < 5:
        t = tokens[j]
        word = t.text.lower()
        if t.kind == "word" and (
            t.text in CJK_UNITS
            or not (word in VALUE_WORDS or word in PROSE_WORDS or _CJK_VALUE.search(t.text))
        ):
            j += 1
        elif t.kind == "op" and t.text == "/" and j > i and _is_word(tokens, j + 1):
            j += 1  # km/h
        else:
            break
    words = [t for t in tokens[i:j] if t.kind == "word"]
    if not words or len(words) > 2 or tokens[j - 1].kind != "word":
        return 0
    first = tokens[i]
    if (
        first.start == previous.end
        and first.text.lower().removesuffix("s") not in (CONVERTIBLE_UNITS)
        and first.text.isascii()
    ):
        return -1
    following = tokens[j] if j < len(tokens) else None
    if following is not None and following.text == "^":
        return -1  # 500cm³: the power belongs to the unit, not to the number
    if following is None or following.kind in ("op", "eq", "approx", "rp", "punct", "arrow"):
        return j - i
    return j - i if _written_out(tokens, i, j) else 0


def _written_out(tokens: list[Token], i: int, j: int) -> bool:
    """1 hour 30 minutes, 5 feet 6 inches: the unit tokens[i:j] of a length written out in
    two units, the larger first."""
    if j - i != 1 or j + 1 >= len(tokens) or tokens[j].kind != "num":
        return False
    try:
        return convert(Fraction(1), tokens[i].text, tokens[j + 1].text) > 1
    except ParseError:
        return False


_MATH = ("num", "op", "lp", "rp", "pct", "var", "sqrt", "eq", "approx")


def _is_word(tokens: list[Token], i: int) -> bool:
    """A plain word (no value word) at i."""
    if not 0 <= i < len(tokens) or tokens[i].kind != "word":
        return False
    word = tokens[i].text
    return word.lower() not in VALUE_WORDS and not _CJK_VALUE.search(word)


def _runs(tokens: list[Token]) -> list[tuple[int, int, list[Token]]]:
    """Maximal runs of math tokens (units after numbers included, marked `unit`)."""
    runs: list[tuple[int, int, list[Token]]] = []
    i = 0
    while i < len(tokens):
        if tokens[i].kind not in _MATH:
            i += 1
            continue
        start = i
        run: list[Token] = []
        while i < len(tokens):
            t = tokens[i]
            if t.text == "/" and run and run[-1].kind == "num" and _is_word(tokens, i + 1):
                # $6.00/plate: a price per unit, the unit is no divisor
                unit = tokens[i + 1]
                run.append(Token("unit", "/" + unit.text, t.start, unit.end))
                i += 2
                continue
            if t.kind in _MATH:
                run.append(t)
                i += 1
                continue
            count = _unit_words(tokens, i, run[-1] if run else None)
            if count < 0:  # algebra written beside a number: poison the run
                run.append(Token("other", t.text, t.start, t.end))
                i += 1
                continue
            if count == 0:
                break
            run.extend(Token("unit", u.text, u.start, u.end) for u in tokens[i : i + count])
            i += count
        runs.append((start, i, run))
    return runs


def _safe_edge(tokens: list[Token], index: int, step: int, run_edge: Token, plain: str) -> bool:
    """May the run end at tokens[index] (step -1: before the run, +1: after it)? Not beside
    a value word (half of 18 = 9, 2 and 1/2), a ratio or time (3:30), a factorial (5!), a
    list (1, 2 = …) or anything untranslated."""
    token = tokens[index] if 0 <= index < len(tokens) else None
    if token is None or token.kind == "arrow":
        return True
    if token.kind == "other":
        return False
    if (
        step < 0
        and token.text.lower() in ("and", ",")
        and _quantity_at(tokens, index - 2)
        and _quantity_at(tokens, index + 1)
    ):
        return False  # 1 hour and 30 minutes = …: the quantity goes on to the left
    if token.kind == "word":
        word = token.text.lower()
        if word == "and":  # "3 + 4 = 7 and 5 + 2 = 7" yes; "2 and 1/2 × 4", "7 and a half" no
            return not _mixed_number_around(tokens, index, step)
        if step < 0 and (word in INDEX_WORDS or word.endswith("第")):
            return False  # day 1 * 2 = 20 pages: "day 1" names the day
        if step < 0 and word in _SUPPOSITIONS:
            return False  # "if 2 + 2 = 5, …": supposed, not claimed
        if step < 0 and index > 0 and tokens[index - 1].kind in ("num", "op"):
            # 1 hour 20 minutes = …, Week 1 + Week 2 = …, 25 classmates + his 1 teacher + …:
            # the quantity goes on to the left, through words; "15 - 3 = 12 so 12 + 8 = 19"
            # is a second claim
            return word in _THEN and _ends_a_claim(tokens, index - 1)
        return word not in VALUE_WORDS and not _CJK_VALUE.search(word)
    if token.kind == "punct":
        beyond = tokens[index + step] if 0 <= index + step < len(tokens) else None
        if token.text == "." and step < 0 and beyond is not None and beyond.kind in ("num", "op"):
            return False  # .8 + . 84: a decimal broken by a space
        touching = token.start == run_edge.end or token.end == run_edge.start
        if token.text in ":!" and touching:
            return False
        if token.text == "?" and step > 0:
            return False  # "Is 3 × 7 = 20?": a question, not a claim
        if step > 0 and touching and _goes_on(token, beyond):
            return False  # "= 12,5%" (a decimal comma), "= 33.(3)%" (a repeating digit)
        if token.text in (",", "，") and step < 0:
            beyond = tokens[index - 1] if index > 0 else None
            # "1, 2 = …" lists numbers; "15 - 3 = 12, 12 + 8 = 19" is two claims
            listed = beyond is not None and beyond.kind in ("num", "rp", "pct")
            return not listed or _ends_a_claim(tokens, index - 1)
        return True
    return False


_THEN = frozenset({"so", "then", "thus", "hence", "therefore", "and"})


def _ends_a_claim(tokens: list[Token], index: int) -> bool:
    """Does tokens[index] end a run of math with an equals sign in it (… = 12)?"""
    while index >= 0 and tokens[index].kind in _MATH:
        if tokens[index].kind in ("eq", "approx"):
            return True
        index -= 1
    return False


def _quantity_at(tokens: list[Token], index: int) -> bool:
    """A number (or a parenthesis) and a unit one reads at tokens[index] (2 hours)."""
    if not 0 <= index < len(tokens) - 1 or tokens[index].kind not in ("num", "rp"):
        return False
    try:
        unit_name(tokens[index + 1].text)
    except KeyError:
        return False
    return True


def _mixed_number_around(tokens: list[Token], index: int, step: int) -> bool:
    def kind(i: int) -> str:
        return tokens[i].kind if 0 <= i < len(tokens) else ""

    def text(i: int) -> str:
        return tokens[i].text.lower() if 0 <= i < len(tokens) else ""

    if step < 0:  # "2 and" before a run that starts with a fraction
        return kind(index - 1) == "num" and text(index + 2) == "/" and kind(index + 1) == "num"
    beyond = index + 1
    fraction = kind(beyond) == "num" and text(beyond + 1) == "/"
    return fraction or text(beyond) in ("a", "an", "one") or text(beyond) in VALUE_WORDS


def _split_sides(run: list[Token]) -> tuple[list[_Side], list[str]] | None:
    sides: list[_Side] = []
    separators: list[str] = []
    current: list[Token] = []
    for t in [*run, Token("eq", "", -1, -1)]:
        if t.kind in ("eq", "approx"):
            if not current:
                return None
            units = tuple(u.text for u in current if u.kind == "unit")
            quotient = any(
                u.kind == "unit" and v.kind == "op" and v.text == "/"
                for u, v in itertools.pairwise(current)
            )
            numbers = tuple(u for u in current if u.kind != "unit")
            sides.append(_Side(numbers, units, quotient, tuple(current)))
            if t.start >= 0:
                separators.append(t.kind)
            current = []
        else:
            current.append(t)
    return sides, separators


def _strip_outer_parentheses(sides: list[_Side]) -> list[_Side]:
    """(5 + 3 = 8): the run's own parentheses wrap the whole chain, not a side."""
    first, last = sides[0].tokens, sides[-1].tokens
    opens = sum(t.kind == "lp" for t in first) - sum(t.kind == "rp" for t in first)
    closes = sum(t.kind == "rp" for t in last) - sum(t.kind == "lp" for t in last)
    if opens == 1 and closes == 1 and first[0].kind == "lp" and last[-1].kind == "rp":
        sides = list(sides)
        sides[0] = replace(sides[0], tokens=first[1:], quantities=sides[0].quantities[1:])
        quantities = sides[-1].quantities
        kept = quantities[:-1] if quantities and quantities[-1].kind == "rp" else ()
        sides[-1] = replace(sides[-1], tokens=sides[-1].tokens[:-1], quantities=kept)
    return sides


def _unit_names(side: _Side) -> set[str]:
    """The units a side's value carries: a rate's unit (/plate, pounds/book, km/h) cancels
    the same unit once (2 books × 2 pounds/book is pounds)."""
    names: list[str] = []
    rates: list[str] = []
    per = False
    for unit in side.units:
        for part in re.split(r"(/)", unit):
            for word in part.split():
                if word == "/":
                    per = True
                    continue
                name = word.lower().removesuffix("s")
                (rates if per else names).append(name)
                per = False
            if part == "/":
                per = True
    for rate in rates:
        if rate in names:
            names.remove(rate)
    return set(names)


def _units_may_differ(left: _Side, right: _Side) -> bool:
    """A conversion may hide in the claim (3 × 20 = 1 hour, 2 hours = 2 × 60, a map's
    1/2 inch = 20 miles): the two sides carry different units, and one of the differing units
    is one people convert. Both sides with units: never judged; one side bare: judged unless
    the two values differ by a conversion factor (60, 12, 100, …)."""
    a, b = _unit_names(left), _unit_names(right)
    return bool((a ^ b) & CONVERTIBLE_UNITS)


def _roundings(exact: Fraction, places: int) -> set[Fraction]:
    """The exact value correctly rounded to `places` decimal places (negative: to tens,
    hundreds …): half up, as school rounding (四舍五入) is, either way for a negative value.
    Not half to even: 1.5 × 1.5 = 2.2 is 2.25 cut off, the place-value slip it looks like."""
    unit = Fraction(10) ** -places
    scaled = exact / unit
    away = (1 if scaled >= 0 else -1) * math.floor(abs(scaled) + Fraction(1, 2))
    return {c * unit for c in (math.floor(scaled + Fraction(1, 2)), away)}


def _cut_or_raised(exact: Fraction, places: int) -> set[Fraction]:
    """The exact value cut off (去尾法) or raised (进一法) at `places` decimals."""
    scaled, unit = exact * 10**places, Fraction(1, 10**places)
    return {math.floor(scaled) * unit, math.ceil(scaled) * unit}


def _cut_off(exact: Fraction, written: Fraction, places: int) -> bool:
    """Is the written value the exact one cut off (toward zero) at `places` decimals?"""
    scaled = exact * 10**places
    return Fraction(math.floor(scaled) if scaled >= 0 else math.ceil(scaled), 10**places) == written


def _to_significant_figures(exact: Fraction, written: Fraction) -> bool:
    """Is the written value the exact one correctly rounded to some number of significant
    figures (290 for 2000/7 = 285.7…)?"""
    if not exact or not written:
        return False
    magnitude, size = 0, abs(exact)
    while size >= 10:
        size, magnitude = size / 10, magnitude + 1
    while size < 1:
        size, magnitude = size * 10, magnitude - 1
    return any(written in _roundings(exact, k - 1 - magnitude) for k in range(1, 16))


@dataclass(frozen=True, slots=True)
class Context:
    """What the step and its problem say around the numbers."""

    rounding_stated: bool = False  # ≈, "about", "round to the nearest tenth" (step or problem)
    scaled: bool = False  # thousands, cents, 万 … said beside the numbers (step or problem)
    percent: bool = False  # a percent is in play: 20 may be written for 0.2
    scale_drawing: bool = False  # a map, a scale, "represents": 1 cm = 5 km is no conversion
    places_asked: frozenset[int] = frozenset()  # "to 1 d.p.", 保留两位小数: decimals asked for
    significant_figures: bool = False  # "2 s.f.", 有效数字 (step or problem)
    directed_rounding: bool = False  # "round up", "truncate", 进一法, 去尾法 (step or problem)
    # Units the problem states quantities in, two or more of one dimension (1 cm on the plan
    # is 2 m, 8 hours a day): it may relate them itself, so a conversion there is not judged.
    related_units: tuple[str, ...] = ()
    currency_sign: bool = False  # $, €, £, ¥ in the step: a major denomination
    problem_major: bool = False  # the problem speaks of dollars, yuan … (a sign or a word)
    problem_minor: bool = False  # … or of cents, pence, 角


def _round_number(exact: Fraction, literal: Token) -> bool:
    """333,000 for 333,333.3: a whole number of at least two significant digits ending in at
    least three zeros that is a non-whole exact value rounded or cut off at that place (not
    1000 for 500 + 600, nor 15000 for 12000 + 3100: a sum of whole numbers is not rounded)."""
    text = literal.text
    digits = text.rstrip("0")
    zeros = len(text) - len(digits)
    if "." in text or zeros < 3 or len(digits) < 2 or exact.denominator == 1:
        return False
    scaled = abs(exact) / 10**zeros
    candidates = {math.floor(scaled + Fraction(1, 2)), math.ceil(scaled - Fraction(1, 2))}
    return int(digits) in candidates | {math.floor(scaled)}


def _measures_multiplied(side: _Side) -> bool:
    """30 cm × 20 cm, 5米 × 5米: a product of two measures, whose unit the numbers alone do
    not carry (600 cm², not 600 cm nor 600 dm²). Counts (5 boxes × 12 pencils), a measure
    per time (6 miles/day) and a conversion (15 minutes × 1 hour / 60 minutes) are not."""
    if any(t.kind == "op" and t.text != "*" for t in side.quantities):
        return False
    measured: list[bool] = []  # one entry a quantity: does a measure's unit follow it?
    for token in side.quantities:
        if token.kind == "num":
            measured.append(False)
        elif token.kind == "unit" and measured and reads_as_unit(token.text):
            measured[-1] = True
    return sum(measured) > 1


def _has_decimal(side: _Side) -> bool:
    """A decimal among the side's numbers: it may be a rounded value carried on."""
    return any(t.kind == "num" and "." in t.text for t in side.tokens)


def _two_denominations(left: _Side, right: _Side, context: Context) -> bool:
    """Money on this claim, and both denominations in it, its step or its problem ("50 × 3 =
    $150" where the pen costs 50 cents; "5 × 3 = 15元" where it costs 5角)."""
    names = _unit_names(left) | _unit_names(right)
    major = context.currency_sign or bool(names & _MAJOR_MONEY)
    minor = bool(names & _MINOR_MONEY)
    if not (major or minor):
        return False
    return (major or context.problem_major) and (minor or context.problem_minor)


# Between a currency's denominations: 100 cents, 10 jiao or dimes, 20 nickels, 4 quarters.
_MONEY_FACTORS = frozenset(Fraction(f) for f in (1, 4, 5, 10, 20, 25, 50, 100, 1000))


def _money_may_convert(left: _Side, right: _Side) -> bool:
    """Equal numbers ("$5 × 3 = 15 cents"), or numbers a denomination apart ("$0.25 × 3 = 75
    cents"): the claim may be right or wrong by its units. "40/5 = 3 dollars" is wrong
    whatever the coins were."""
    try:
        a, b = evaluate(left.tokens), evaluate(right.tokens)
    except _NOT_JUDGED:
        return True
    return not (a and b) or abs(a / b) in _MONEY_FACTORS or abs(b / a) in _MONEY_FACTORS


def _judge_pair(
    left: _Side, right: _Side, separator: str, context: Context
) -> tuple[Verdict, str] | None:
    """ok / wrong / unchecked for `left = right`; None when a side is not arithmetic."""
    if _measures_multiplied(left) or _measures_multiplied(right):
        return "unchecked", "two measures multiplied (cm × cm): its unit is a square or a cube"
    if _two_denominations(left, right, context) and _money_may_convert(left, right):
        return "unchecked", "money in two denominations (dollars and cents)"
    converted = _judge_converted(left, right, separator, context)
    if converted is not None:
        return converted
    try:
        a, b = evaluate(left.tokens), evaluate(right.tokens)
    except _NOT_JUDGED:
        return None
    if a == b:
        return "ok", "exact"
    if any(t.kind == "pct" for t in (*left.tokens, *right.tokens)):
        return _judge_percent(left, right, separator, context)
    if _loose_readings_agree(left.tokens, right.tokens):
        return "unchecked", "true when the notation is read another way (a / b × c, -3^2)"
    if context.percent and a and b and abs(a / b) in (100, Fraction(1, 100)):
        return "unchecked", "a percent written as a number or a fraction (20 for 20%)"
    names_left, names_right = _unit_names(left), _unit_names(right)
    if left.units and right.units and names_left != names_right:
        # 4 daps / 7 = 7 yaps / 7, 20 daps = 35 yaps: sides in different units are a
        # conversion (units the reader does not know included), not a calculation
        return "unchecked", "different units on the two sides"
    approximate = separator == "approx" or context.rounding_stated
    for literal_side, exact, other in ((right, a, left), (left, b, right)):
        literal = literal_side.literal
        if literal is None:
            continue
        negative = literal_side.negative
        places = _decimal_places(literal)
        written = Fraction(literal.text) * (-1 if negative else 1)
        # Which way is asked is not read: a value rounded, cut off or raised at its own places
        # (to a whole number too: 100 ÷ 45 ≈ 2 where 进一法 asks 3) is not judged.
        directed = context.directed_rounding and (
            places in context.places_asked or not context.places_asked
        )
        if directed and written in _roundings(exact, places) | _cut_or_raised(exact, places):
            return "unchecked", "rounded up or down, as the problem may ask (进一法, 去尾法)"
        if places and written in _roundings(exact, places):
            if approximate or places in context.places_asked or not terminating_decimal(exact):
                return "ok", "rounded"
            # 0.5 × 0.5 = 0.3: the exact value has a few decimals of its own and no rounding
            # was asked or marked; a teacher may allow it (prices to the cent), so not wrong
            return "unchecked", "rounded, though the exact value ends and no rounding was asked"
        if context.significant_figures and _to_significant_figures(exact, written):
            return "ok", "rounded to significant figures"
        if literal_side.continues and places >= 2 and _cut_off(exact, written, places):
            return "ok", "its digits begin the exact value (0.333...)"
        if places and places in context.places_asked and not _has_decimal(other):
            if any(written in _roundings(v, places) for v in _read_otherwise(other, context)):
                return "unchecked", "rounded as asked when read another way (-3^2, 77.78 %)"
            correct = " or ".join(sorted({str(float(r)) for r in _roundings(exact, places)}))
            return "wrong", f"{_show(exact)} to {places} decimal places is {correct}"
        if places and _cut_off(exact, written, places):
            return "unchecked", "cut off, not rounded (5/9 = 0.5)"
        if places and abs(exact - written) <= Fraction(1, 10**places):
            return "unchecked", "rounded the other way"
        if places >= FLOAT_NOISE_PLACES and abs(exact - written) <= abs(exact) / 10**9:
            return "unchecked", "a computer's float (26.666666666666668)"
        if "." not in literal.text and exact.denominator != 1:
            if written in _roundings(exact, 0) and approximate:
                return "ok", "rounded"
            if written in (math.floor(exact), math.ceil(exact)):
                return "unchecked", "rounded to a whole"
        if _round_number(exact, literal):
            return "unchecked", "rounded to a round number (1000000 / 3 = 333,000)"
    if approximate:
        return "unchecked", "approximate"
    try:
        low_a, high_a = _interval(left.tokens)
        low_b, high_b = _interval(right.tokens)
    except _NOT_JUDGED:
        return "unchecked", "rounded inputs"
    if low_a <= high_b and low_b <= high_a:
        return "unchecked", "consistent with rounded inputs"
    if any(len(_unit_names(side) & CONVERTIBLE_UNITS) > 1 for side in (left, right)):
        return "unchecked", "mixed units on one side (4 pounds - 6 ounces)"
    if a and b and _conversion_factor(a / b):
        if _units_may_differ(left, right):
            return "unchecked", "different units on the two sides"
        if left.quotient_of_quantities or right.quotient_of_quantities:
            # 70 miles/hour × 1 hour/60 minutes: a conversion factor, worth 1, written
            # as a quotient of two quantities (numerically 1/60)
            return "unchecked", "a conversion factor written as a quotient of quantities"
    if a and b and context.scaled and _conversion_factor(a / b, SCALES):
        return "unchecked", "off by a power of ten (thousands or cents may be implied)"
    return "wrong", f"{_show(a)} ≠ {_show(b)}"


MAX_PERCENT_SIGNS = 4  # 2^4 readings of a claim's % signs


def _percent_readings(side: _Side) -> list[_Side]:
    """The side with each % read as hundredths or as a mark that changes nothing: "0.25 × 100
    = 25%" is how a percent is written. Hundredths are written as a decimal at the percent's
    own places ("66.67%" as 0.6667, "33%" as 0.33): a percent may be a rounded one, as a
    decimal may. "× 100%" in a calculation is × 1, exactly: the whole is never rounded."""
    signs = [i for i, t in enumerate(side.tokens) if t.kind == "pct"]
    alone = side.literal is not None  # the side is one percent (7/7 = 100%)
    readings = []
    for hundredths in itertools.product((True, False), repeat=len(signs)):
        tokens = list(side.tokens)
        for i, as_hundredths in reversed(list(zip(signs, hundredths, strict=True))):
            before = tokens[i - 1] if i else None
            if not as_hundredths:
                del tokens[i]
            elif before is not None and before.kind == "num":
                whole = before.text == "100" and not alone
                text = "1" if whole else f"{Decimal(before.text).scaleb(-2):f}"
                tokens[i - 1 : i + 1] = [replace(before, text=text)]
            else:  # (12 + 13)%: the bracket's value over 100
                sign = tokens[i]
                tokens[i : i + 1] = [
                    replace(sign, kind="op", text="/"),
                    replace(sign, kind="num", text="100"),
                ]
        readings.append(replace(side, tokens=tuple(tokens)))
    return readings


def _percent_of_a_whole(side: _Side) -> bool:
    """200 − 10% (ten percent off), $20 + 8% (tax): a percent added to or taken from a number
    that is no percent itself means that percent of it (100% − 20% is two percents)."""
    tokens = side.tokens
    return any(
        sign.kind == "pct"
        and i >= 3
        and tokens[i - 1].kind == "num"
        and tokens[i - 2].kind == "op"
        and tokens[i - 2].text in ("+", "-")
        and tokens[i - 3].kind in ("num", "rp")
        for i, sign in enumerate(tokens)
    )


def _judge_percent(
    left: _Side, right: _Side, separator: str, context: Context
) -> tuple[Verdict, str]:
    """A claim with % signs (not equal as written): wrong only when it is false under every
    reading of them, each as hundredths or as a mark ((168.96 / 384) × 100% = 43.96% is
    wrong either way; 0.25 × 100 = 25% is how a percent is written)."""
    signs = sum(t.kind == "pct" for t in (*left.tokens, *right.tokens))
    if signs > MAX_PERCENT_SIGNS:
        return "unchecked", "percent written loosely"
    if _percent_of_a_whole(left) or _percent_of_a_whole(right):
        return "unchecked", "a percent added to a whole (200 - 10% for ten percent off)"
    why = None
    for one, other in itertools.product(_percent_readings(left), _percent_readings(right)):
        judged = _judge_pair(one, other, separator, context)
        if judged is None or judged[0] != "wrong":
            return "unchecked", "percent written loosely"
        why = why or judged[1]  # the first reading's: every % as hundredths
    return "wrong", f"{why}, whether its % means hundredths or not"


def _judge_converted(
    left: _Side, right: _Side, separator: str, context: Context
) -> tuple[Verdict, str] | None:
    """`3 km = 3000 m`, `2 × 1.5 hours = 180 minutes`: sides in different units of one
    dimension, judged in one unit with the rules for plain numbers (None: a unit not read,
    two dimensions, or one unit only). Wrong only when false both with its units and with its
    numbers alone when a number is written bare: 2 hours × 60 = 120 minutes writes the
    conversion factor so (1 hour + 30 minutes = 31 minutes, every number with its unit, is
    wrong)."""
    read = None if context.scale_drawing else read_sides(left.quantities, right.quantities)
    if read is None:
        return None
    try:
        sides = read.in_unit()
        a, b = evaluate(sides[0]), evaluate(sides[1])
        doubled = [evaluate(side) for side in read.in_unit(Fraction(2))]
    except (*_NOT_JUDGED, ParseError):
        return None
    if not a or not b or doubled != [2 * a, 2 * b]:
        return None  # not one quantity of the unit's dimension: 3 m × 2 m, 6 km / 2 km
    judged = _judge_pair(_Side(sides[0], ()), _Side(sides[1], ()), separator, context)
    if judged is None:
        return None
    verdict, why = judged
    if verdict == "ok":
        return "ok", "equal after converting units" if why == "exact" else f"{why} after converting"
    if verdict == "unchecked":
        return "unchecked", f"{why} (after converting units)"
    numbers = read.numbers_alone()
    bare = read.bare_numbers()
    if bare and numbers is not None:  # a number without a unit may be a conversion factor
        alone = _judge_pair(_Side(numbers[0], ()), _Side(numbers[1], ()), separator, context)
        factors = {a / b, b / a} & bare
        if alone is not None and alone[0] == "ok" and factors:
            # The factor must go the right way: 72 km/h ÷ 3.6 = 20 m/s, not × 3.6 = 259.2 m/s
            # (the numbers agree either way; the quantities only one way).
            factor = factors.pop()
            before = read.without_factor(factor).in_unit()
            try:
                applied_right = evaluate(before[0]) == evaluate(before[1])
            except _NOT_JUDGED:
                return "unchecked", "true for its numbers, not for its units"
            if applied_right:
                return "ok", "a conversion factor written as a bare number"
            return "wrong", f"the factor {_show(factor)} goes the other way for {read.unit}"
        if alone is not None and alone[0] != "wrong":
            return "unchecked", "true for its numbers, not for its units"
    if read.across_systems():
        return "unchecked", "an approximate conversion between metric and customary units"
    if related_in(read, context.related_units):
        return "unchecked", "the problem relates these units itself"
    if read.across_calendar():
        return "unchecked", "a day or a week may be a working one (a 40-hour week)"
    unit = read.unit
    return "wrong", f"{_show(a)} {unit} ≠ {_show(b)} {unit} after converting units"


# Ratios between units people convert (minutes/hour, inches/foot, quarts/gallon, cents…).
CONVERSION_FACTORS = (
    2,
    3,
    4,
    5,
    7,
    8,
    10,
    12,
    16,
    20,
    24,
    25,
    28,
    30,
    31,
    36,
    52,
    60,
    100,
    128,
    144,
    365,
    366,
    1000,
    1440,
    1760,
    2000,
    3600,
    5280,
    10**4,
    86400,
    10**6,
)


def _conversion_factor(ratio: Fraction, factors: tuple[int, ...] = CONVERSION_FACTORS) -> bool:
    ratio = abs(ratio)
    if ratio < 1:
        ratio = 1 / ratio
    return ratio.denominator == 1 and ratio.numerator in factors


def _show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


def _running_total(left: _Side, right: _Side) -> bool:
    """2 + 3 = 5 + 4, 5 + 3 = 8 × 2, or -25/2 = -25/2 + 30: the right side goes on from
    the left side's value (a running total written as one chain)."""
    try:
        value = evaluate(left.tokens)
    except _NOT_JUDGED:
        return False
    depth = 0
    for k, t in enumerate(right.tokens):
        depth += (t.kind == "lp") - (t.kind == "rp")
        if depth == 0 and k > 0 and t.kind == "op" and t.text in "+-*/":
            try:
                if evaluate(right.tokens[:k]) == value:
                    return True
            except _NOT_JUDGED:
                continue
    return False


@dataclass(frozen=True, slots=True)
class _Statement:
    """One run's chain of sides, and the name it was given ("Total cost = 10 + 24 = 50")."""

    name: str | None
    sides: list[_Side]
    separators: list[str]
    text: str
    after_words: bool = False  # words right before it: its first side may be a label
    span: tuple[int, int] = (0, 0)  # the tokens it was read from, its name included


def _name_before(tokens: list[Token], start: int) -> tuple[str | None, int]:
    """The words that name a quantity right before `= …` (Total fruits = 52 + 24), and the
    index of the first of them."""
    words: list[str] = []
    i = start - 1
    while i >= 0 and tokens[i].kind in ("word", "var") and len(words) < 6:
        words.insert(0, tokens[i].text.lower())
        i -= 1
    name = " ".join(" ".join(words).split())
    return (name, i + 1) if any(len(w) >= 3 for w in name.split()) else (None, start)


# Words right before a calculation that suppose it rather than claim it.
_SUPPOSING = "if suppose supposing assume assuming whether 假设 如果 若 假如"
_SUPPOSITIONS = frozenset(_SUPPOSING.split())
# Words right after a calculation that deny it ("5 + 3 = 9 is wrong", "= 22? No"): what the
# writer rejects is not a claim.
_DENYING = """not isn't isnt doesn't doesnt wrong incorrect false mistake error typo oops no
    不 不对 错 错了 不是"""
_DENIALS = frozenset(_DENYING.split())


def _denied_after(tokens: list[Token], end: int) -> bool:
    """`= 9 is wrong`, `= 9 isn't right`, `=11不对`: a denial right after the calculation
    (not `= 4 guests who did not get one`, `= 1, which is not prime`)."""
    words = [t.text.lower() if t.kind == "word" else "" for t in tokens[end : end + 2]]
    if words and words[0] in _DENIALS:
        return True
    return len(words) == 2 and words[0] in ("is", "was", "are", "that's") and words[1] in _DENIALS


def _goes_on(mark: Token, beyond: Token | None) -> bool:
    """The number before `mark` goes on past it, written so the reader does not read it: a
    decimal comma (12,5) or a repeating group in brackets (33.(3))."""
    if beyond is None or beyond.start != mark.end:
        return False
    return (mark.text == "," and beyond.kind == "num") or (mark.text == "." and beyond.kind == "lp")


def _ellipsis_at(plain: str, tokens: list[Token], index: int, number_end: int) -> bool:
    """Three full stops at tokens[index], right after the number (0.333..., or past the end
    of its formula: $0.142857$...)."""
    dots = tokens[index : index + 3]
    return (
        len(dots) == 3
        and all(t.kind == "punct" and t.text == "." for t in dots)
        and not plain[number_end : dots[0].start].strip(" $")
    )


def _percent_after(plain: str, tokens: list[Token], index: int) -> bool:
    """A % sign at tokens[index], against what comes before it (66.66...%)."""
    mark = tokens[index] if index < len(tokens) else None
    return (
        mark is not None
        and mark.kind == "pct"
        and not plain[tokens[index - 1].end : mark.start].strip(" $")
    )


def _statements(plain: str, tokens: list[Token]) -> list[_Statement | None]:
    """Each run with an equals sign, as a statement; None where its edges are unsafe."""
    statements: list[_Statement | None] = []
    for start, end, run in _runs(tokens):
        if not any(t.kind in ("eq", "approx") for t in run):
            continue
        if (
            any(t.kind == "other" for t in run)
            or not _safe_edge(tokens, end, 1, run[-1], plain)
            or _denied_after(tokens, end)
        ):
            statements.append(None)
            continue
        name, first = None, start
        if run[0].kind == "eq":  # "Total cost = 10 + 24 = 50": a named quantity
            name, first = _name_before(tokens, start)
            run = run[1:]
        elif not _safe_edge(tokens, start - 1, -1, run[0], plain):
            statements.append(None)
            continue
        before = tokens[start - 1] if start > 0 else None
        if (
            run
            and run[0].kind == "op"
            and (run[0].text != "-" or (before is not None and before.kind == "word" and not name))
        ):
            statements.append(None)  # a fragment: "× 2 = 10", or "total - 5 = 12"
            continue
        split = _split_sides(run) if run else None
        if split is None:
            statements.append(None)
            continue
        sides, separators = split
        after = tokens[end] if end < len(tokens) else None
        if after is not None and after.kind == "word" and run[-1].kind in ("num", "pct"):
            # "= 26 cents more": the unit the run could not take still names the value
            sides[-1] = replace(sides[-1], units=(*sides[-1].units, after.text))
        text = plain[run[0].start : run[-1].end].strip()
        if run[-1].kind == "num" and _ellipsis_at(plain, tokens, end, run[-1].end):
            if _percent_after(plain, tokens, end + 3):
                statements.append(None)  # "= 66.66...%": the % was cut off the number
                continue
            sides[-1] = replace(sides[-1], continues=True)
            text += "..."  # quoted as written: 1 / 3 = 0.444... (not 0.444)
        labelled = name is None and before is not None and before.kind in ("word", "var")
        sides = _strip_outer_parentheses(sides)
        statements.append(_Statement(name, sides, separators, text, labelled, (first, end)))
    return statements


def _judge_chain(statement: _Statement, context: Context) -> Claim | None:
    sides, separators = statement.sides, statement.separators
    if len(sides) < 2:
        return None
    # No calculation ("Day 1 = 5"): judged only as a conversion ("1 hour = 60 minutes")
    judge = _judge_pair if any(s.has_operator for s in sides) else _judge_converted
    verdicts: list[tuple[Verdict, str]] = []
    unread: list[tuple[Verdict, str]] = []
    for i in range(len(sides) - 1):
        left, right = sides[i], sides[i + 1]
        if not left.tokens or not right.tokens:
            return None
        judged = judge(left, right, separators[i], context)
        if judged is None:
            if _numbers_only(left) and _numbers_only(right):
                # 3.5 = 9 1/2, 3 = 1 R 1, 2 h = 2 × 100: a pair of numbers not read keeps
                # the chain from `ok` (x = 3 + 4 = 7, 0.4 × A = 0.4 × 30 = 12 substitute)
                unread.append(
                    ("unchecked", f"not read: {_show_written(left)} = {_show_written(right)}")
                )
            continue
        if judged[0] == "wrong" and len(sides) > 2 and _running_total(left, right):
            judged = ("unchecked", "running total")
        if judged[0] == "wrong" and i == 0 and _label_like(statement):
            judged = ("unchecked", "the first side may be a label (8 batches = 5.5 × 8)")
        if judged[0] == "ok" and "rounded" in judged[1] and i < len(sides) - 2:
            # 2/3 = 0.6 = 3/5 claims 2/3 = 3/5: a rounded value carried on as if exact
            judged = ("unchecked", "a rounded value carried on in the chain")
        verdicts.append(judged)
    if not verdicts:
        return None  # nothing in the chain read: no claim
    verdicts += unread
    wrong = [why for v, why in verdicts if v == "wrong"]
    if wrong:
        return Claim(statement.text, "wrong", wrong[0])
    if all(v == "ok" for v, _ in verdicts):
        return Claim(statement.text, "ok", verdicts[0][1])
    return Claim(statement.text, "unchecked", next(w for v, w in verdicts if v != "ok"))


def _numbers_only(side: _Side) -> bool:
    """Numbers and no unknown: each letter in it is a unit (2 h) or a remainder (1 R 1)
    right after a number."""
    tokens = side.tokens
    if not any(t.kind == "num" for t in tokens):
        return False
    for k, t in enumerate(tokens):
        if t.kind != "var":
            continue
        if k == 0 or tokens[k - 1].kind != "num":
            return False
        following = tokens[k + 1] if k + 1 < len(tokens) else None
        remainder = t.text in "Rr" and following is not None and following.kind == "num"
        if not remainder and not _unit_letter(t.text, following):
            return False
    return True


def _unit_letter(letter: str, following: Token | None) -> bool:
    """2 h, 3 m: a unit one reads, not 2x or 3m² (a power), nor 3m(2) (a product)."""
    if following is not None and following.kind in ("num", "var", "lp", "sqrt"):
        return False
    if following is not None and following.text == "^":
        return False
    try:
        unit_name(letter)
    except KeyError:
        return False
    return True


def _show_written(side: _Side) -> str:
    return " ".join(t.text for t in side.quantities or side.tokens)


def _label_like(statement: _Statement) -> bool:
    """8 batches = 5.5 × 8 = 44, Remaining 10 = 62,300/10, Weeks 1-2 = 96 - 70 = 26: a
    number that names what the calculation is about, not a value it claims."""
    first, second = statement.sides[0], statement.sides[1]
    if first.literal is not None and second.has_operator:
        return bool(first.units) or statement.after_words
    t = first.tokens
    hyphen_range = (
        len(t) == 3
        and t[0].kind == t[2].kind == "num"
        and t[1].text == "-"
        and t[0].end == t[1].start
        and t[1].end == t[2].start
    )
    return hyphen_range and statement.after_words


def _named_pair(first: _Statement | None, second: _Statement | None) -> _Statement | None:
    """Total fruits = 52 + 24 + 44 + 48, then Total fruits = 178: one claim in two lines."""
    if first is None or second is None or first.name is None or first.name != second.name:
        return None
    last = first.sides[-1]
    if len(second.sides) != 1 or second.sides[0].literal is None or not last.has_operator:
        return None
    text = f"{first.text.split('=')[-1].strip()} = {second.text}"
    span = (first.span[0], second.span[1])
    return _Statement(first.name, [last, second.sides[0]], ["eq"], text, span=span)


@dataclass(frozen=True, slots=True)
class StepReading:
    claims: list[Claim]
    # The step says nothing but its calculations (18 - 6 = 12, Total = 3 + 4 = 7, 18-6=12
    # （个）): when they all check, nothing else in it is left unread. A step with prose
    # around right calculations may still hold the mistake (the reasoning).
    calculations_only: bool


# Words that only lead into a calculation: a line made of them and calculations says nothing
# else.
_CONNECTING = """so then thus therefore hence now first next finally and also
    所以 因此 则 得 即 那么 答 解"""
_CONNECTIVES = frozenset(_CONNECTING.split())
# A step that takes back what it wrote ("12 × 2 = 22, oops, 24") or derives a false
# equation on purpose ("then 1/5 = 1/2, which is a contradiction"): its false calculation is
# one the writer rejects.
_CORRECTION = re.compile(
    r"\b(?:oops|mistake|typo|correction|corrected|actually|wait|recalculat\w*|re-?check\w*|"
    r"should (?:be|have been)|instead|contradict\w*|impossible|absurd)\b|"
    r"不对|错了|应为|应该是|更正|改正|矛盾|不可能|不成立",
    re.IGNORECASE,
)
# 3千米, 2千克: the 千 of a unit, no scale said in words.
_KILO_UNITS = re.compile(r"(?<=\d)\s*千[米克]")
# A map, a model or a drawing to scale: 1 cm = 5 km there is a correspondence, no conversion.
_SCALE_DRAWING = re.compile(
    r"\bscale|\bmaps?\b|represent|stands? for|blueprint|drawing|\bmodel|比例尺|图上|代表|表示",
    re.IGNORECASE,
)
_SIGNIFICANT_FIGURES = re.compile(
    r"\bs\.?\s?f\.?(?![a-z])|\bsig\.?\s*figs?\b|significant|有效数字", re.IGNORECASE
)
# Rounding in one direction: 20 ÷ 3 ≈ 6.6 "truncated to one decimal place" is no misrounding.
# The way may follow what is rounded ("round the price per kilogram down to …"): up to six
# words between, none of them "to" (so "round to the nearest tenth and write it down" is
# not). A question that needs a whole count ("how many buses are needed", 至少需要几辆, 最多能
# 装几瓶) asks a way too: 100 ÷ 45 ≈ 2 is the nearest rounding, and 3 buses are needed.
_DIRECTED_ROUNDING = re.compile(
    r"\bround(?:ed|ing)?[\s-]+(?:(?!to\b)[^\s.?!。，,;；]+\s+){0,6}?(?:up|down)\b|"
    r"\b(?:up|down)wards?\b|\btowards?\s+zero\b|\bfloor\b|\bceil(?:ing)?\b|\btruncat|"
    r"\bcut\b[^.?!。]{0,20}?\boff\b|\bchop|"
    r"\bdrop(?:s|ped|ping)?\s+(?:the\s+|all\s+)?(?:remaining|rest|extra|other|last)\b|"
    r"\bhow\s+many\b[^.?!。]{0,60}?\b(?:needed|need|required)\b|\bat\s+(?:least|most)\b|"
    r"\b(?:minimum|maximum|fewest|most)\s+number\b|"
    r"进一|去尾|收尾|向上取|向下取|舍[去掉弃]|截[取尾断]|去掉|不进位|不要?四舍五入|只入不舍|只舍不入|"
    r"至少|至多|最多|最少",
    re.IGNORECASE,
)
_PLACE_NAMES = {"tenth": 1, "hundredth": 2, "thousandth": 3, "十分位": 1, "百分位": 2}
_PLACE_NAMES |= {"千分位": 3, "0.1": 1, "0.01": 2, "0.001": 3}
_COUNT_NAMES = {"one": 1, "two": 2, "three": 3, "一": 1, "两": 2, "二": 2, "三": 3}
# The decimal places a rounding is asked to: "nearest tenth", "to 2 d.p.", 保留一位小数, 精确到0.1.
_PLACES_ASKED = re.compile(
    r"nearest\s+(tenth|hundredth|thousandth)|精确到\s*(十分位|百分位|千分位|0\.001|0\.01|0\.1)|"
    r"\b(\d|one|two|three)\s*(?:d\.\s?p\b\.?|dp\b|decimal places?)|保留\s*([一两二三\d])\s*位小数",
    re.IGNORECASE,
)


def _places_asked(text: str) -> frozenset[int]:
    asked: set[int] = set()
    for match in _PLACES_ASKED.finditer(text):
        place, count = match.group(1) or match.group(2), match.group(3) or match.group(4)
        if place:
            asked.add(_PLACE_NAMES[place.lower()])
        elif count:
            asked.add(int(count) if count.isdigit() else _COUNT_NAMES[count.lower()])
    return frozenset(asked)


_PERCENT_WORDS = re.compile(r"%|percent|百分|折", re.IGNORECASE)
# Rounding asked for by the problem ("to the nearest tenth", "estimate"): "about" and
# "around" there are prose (rotate around the sun).
_PROBLEM_ROUNDING_WORDS = re.compile(
    r"\bround(?:ed|ing)?\b|\bnearest\b|approximat|estimat|decimal places?|"
    r"significant (?:figures|digits)|四舍五入|精确到|保留.{0,6}(?:小数|位)|近似|约",
    re.IGNORECASE,
)
# Scale words in the problem (thousands, cents): its money signs say nothing of a scale.
_PROBLEM_SCALE_WORDS = re.compile(
    r"thousand|million|billion|hundred|cents?\b|千|万|百|亿", re.IGNORECASE
)


def read_step(step: str, problem: str = "") -> StepReading:
    """Every arithmetic claim in the step, judged; the problem tells whether rounding was
    asked for, a percent or a scale (thousands, cents) is in play."""
    plain = to_plain(step)
    tokens = tokenize(plain)
    context = Context(
        rounding_stated=bool(
            _ROUNDING_WORDS.search(step) or _PROBLEM_ROUNDING_WORDS.search(problem)
        ),
        scaled=bool(
            _SCALE_WORDS.search(_KILO_UNITS.sub("", step))
            or _PROBLEM_SCALE_WORDS.search(_KILO_UNITS.sub("", problem))
        ),
        percent=bool(_PERCENT_WORDS.search(step) or _PERCENT_WORDS.search(problem)),
        scale_drawing=bool(_SCALE_DRAWING.search(step) or _SCALE_DRAWING.search(problem)),
        related_units=units_related_by(problem),
        currency_sign=bool(_CURRENCY_SIGN.search(step)),
        problem_major=bool(_CURRENCY_SIGN.search(problem) or _MAJOR_IN_TEXT.search(problem)),
        problem_minor=bool(_MINOR_IN_TEXT.search(problem)),
        places_asked=_places_asked(step) | _places_asked(problem),
        directed_rounding=bool(
            _DIRECTED_ROUNDING.search(step) or _DIRECTED_ROUNDING.search(problem)
        ),
        significant_figures=bool(
            _SIGNIFICANT_FIGURES.search(step) or _SIGNIFICANT_FIGURES.search(problem)
        ),
    )
    statements = _statements(plain, tokens)
    claims: list[Claim] = []
    covered: set[int] = set()
    for i, statement in enumerate(statements):
        if statement is None:
            continue
        pair = _named_pair(statements[i - 1], statement) if i else None
        for chain in (statement, pair):
            claim = None if chain is None else _judge_chain(chain, context)
            if claim is not None and chain is not None:
                if claim.verdict == "wrong" and _true_across_a_full_stop(
                    plain, tokens, chain, problem
                ):
                    claim = Claim(
                        claim.text, "unchecked", "a full stop without a space (56.56 + 4)"
                    )
                claims.append(claim)
                covered.update(range(*chain.span))
    if _CORRECTION.search(step):
        claims = [
            Claim(c.text, "unchecked", "the step rejects it itself") if c.verdict == "wrong" else c
            for c in claims
        ]
    alone = bool(claims) and all(
        i in covered
        or t.kind in ("punct", "arrow")
        or (t.kind == "word" and t.text.lower() in _CONNECTIVES)
        for i, t in enumerate(tokens)
    )
    return StepReading(claims, alone)


def _true_across_a_full_stop(
    plain: str, tokens: list[Token], chain: _Statement, problem: str
) -> bool:
    """7 × 8 = 56.56 + 4 = 60: a decimal right after an equals sign and before an operator
    may be a result, a full stop typed without its space, and the next calculation. True
    when that reading makes no calculation false."""
    first, end = chain.span
    for k in range(first + 1, min(end, len(tokens) - 1)):
        t = tokens[k]
        if not (t.kind == "num" and "." in t.text and t.text[0] != "."):
            continue
        if tokens[k - 1].kind != "eq" or tokens[k + 1].kind not in ("op", "eq"):
            continue
        point = t.start + t.text.index(".")
        halves = [claims_in(plain[:point], problem), claims_in(plain[point + 1 :], problem)]
        if all(halves) and all(c.verdict != "wrong" for half in halves for c in half):
            return True
    return False


def claims_in(step: str, problem: str = "") -> list[Claim]:
    """Every arithmetic claim in the step, judged."""
    return read_step(step, problem).claims
