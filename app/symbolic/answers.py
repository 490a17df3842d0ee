"""Read a candidate answer: 'x = 2 or x = 3', '{2, 3}', 'x = ±√2', '(6, 4)', '1 7/12', '50%'.

Anything that is not read with certainty raises ParseError (the checker then abstains: a right
answer in an unfamiliar notation must never be rejected). Intervals and inequalities
('x > 2', '[2, ∞)') are not read at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import sympy as sp

from app.symbolic.ellipsis import ELLIPSIS
from app.symbolic.evaluation import evaluate
from app.symbolic.exclamation import exclamation_in_answer
from app.symbolic.normalize import READ_ERRORS, ParseError, normalize
from app.symbolic.parsing import expand_mixed_numbers, parse_expression
from app.symbolic.units import split_unit
from app.symbolic.worked_out import worked_out

_ANSWER_PREFIX = re.compile(
    r"^(?:解得|解之得|所以|因此)\s*[:：,，]?\s*"
    r"|^(?:the\s+)?(?:final\s+)?(?:answer|result|solution|root)s?\s*(?:is|are|:|=)?\s*"
    r"|^(?:方程的)?(?:两个|两|一个)?(?:实数)?(?:解|根|答案?)\s*(?:分别)?\s*[:：是为]?\s*"
    r"|^so\s+|^therefore\s*,?\s*",
    re.IGNORECASE,
)
_LIST_SPLIT = re.compile(r"\s*(?:,|;|\bor\b|\band\b|或|和|、)\s*", re.IGNORECASE)
_UNIT = re.compile(r"(?<=\d)\s*([a-zA-Z\u4e00-\u9fff]{2,})\.?$")
_CURRENCY = re.compile(r"^\s*([$¥￥€£])")
# The signs a problem may count its money in; "¥" and "￥" are one (yuan or yen).
CURRENCY_SIGNS = frozenset("$¥€£")
# Words after a number that change its value: "4 thousand", "4 squared", "4 tenths", "4万".
_MULTIPLIER = re.compile(
    r"^(?:thousand|million|billion|trillion|hundred|lakh|crore|dozen|score|gross|grand|k"
    r"|percent|pct|squared?|cubed?|half|halves|third|quarter|pair|couple|twice|times|fold"
    r"|power|factorial|[a-z]*ths?|[a-z]*illion)s?$"
    r"|[十百千万亿倍成分半双对打]",
    re.IGNORECASE,
)
_SUBSCRIPT_INDEX = re.compile(r"([a-zA-Z])_\(?\d+\)?")  # x₁ = 2, x₂ = 3 name roots of one x
_PLAIN_INDEX = re.compile(r"(?<![\w.])([a-zA-Z])[12](?=\s*=)")  # x1 = 2, x2 = 3 as well
_LETTER_E = sp.Symbol("e")
_BOLD = re.compile(r"\*\*(.+)\*\*|__(.+)__")  # Markdown: **x = 4**
# x = +/- 2, x = 2 +- sqrt(3) (ASCII for ±; never 2 + (-√3), which drops a root); "-+" is ∓.
_PLUS_MINUS = re.compile(r"\+\s*/\s*-|\+-")
_MINUS_PLUS = re.compile(r"-\s*/\s*\+|-\+")
_NONE = re.compile(  # the whole answer: "no solution except 0" is not "none"
    r"^(?:(?:there\s+(?:is|are)\s+)?no\s+(?:real\s+)?(?:solutions?|roots?)(?:\s+exists?)?"
    r"|无(?:实数)?解|∅|(?:the\s+)?empty\s+set|none|no\s+real\s+numbers?)\s*$",
    re.IGNORECASE,
)
_ALL = re.compile(  # the whole answer: "all real numbers except 0" is another set
    r"^(?:all\s+real\s+numbers|infinitely\s+many(?:\s+solutions)?|every\s+real\s+number"
    r"|any\s+real\s+number|(?:x\s*∈\s*)?R|全体实数|任意实数|无数(?:个)?解)\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Candidate:
    kind: str  # none | all | values | assignments
    values: tuple[sp.Expr, ...] = ()
    assignments: tuple[dict[str, sp.Expr], ...] = ()
    text: str = ""  # the cleaned text, for the rounding rule
    tuple_form: bool = False  # "(6, 4)": values in the order of the variables
    # Every value as written is worked out (worked_out.py): "7 * 8" has the value of 56 but
    # is not an answer to "7 × 8 = ?"; only an approval looks at it.
    worked_out: bool = True


def _expand_plus_minus(text: str) -> str:
    """'x = ±√2' → 'x = √2 or x = -(√2)'; 'x = 2 ± √3' → 'x = 2 + (√3) or x = 2 - (√3)'.
    A ± anywhere else ('(2 ± √3)/2', two of them) is refused."""
    m = re.fullmatch(r"\s*(?:([a-zA-Z])\s*=\s*)?([^±∓=,;]*?)\s*±\s*([^±∓=,;]+)", text)
    if not m or "∓" in text or not _balanced(m.group(2)) or not _balanced(m.group(3)):
        if "±" in text or "∓" in text:
            raise ParseError("± inside an expression")
        return text
    prefix = f"{m.group(1)} = " if m.group(1) else ""
    centre, value = m.group(2).strip(), m.group(3).strip()
    if re.search(r"\b(?:or|and)\b|或|和", f"{centre} {value}"):
        raise ParseError("± in a list")
    return f"{prefix}{centre} + ({value}) or {prefix}{centre} - ({value})"


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def clean(text: str) -> str:
    text = text.replace("\\pm", "±").strip()
    bold = _BOLD.fullmatch(text)
    if bold is not None:
        text = (bold.group(1) or bold.group(2)).strip()
    text = _MINUS_PLUS.sub("∓", _PLUS_MINUS.sub("±", text))
    if exclamation_in_answer(text):  # before normalize, which folds "！" into "!"
        raise ParseError("'x = 4!': a factorial, or an exclamation?")
    text = normalize(text).strip()
    if ELLIPSIS.search(text):
        raise ParseError("'0.666...': only a single value is read with an ellipsis")
    text = _ANSWER_PREFIX.sub("", text).strip().rstrip(".。").strip()
    text = re.sub(r"^\$+|\$+$", "", text).strip()
    text = _SUBSCRIPT_INDEX.sub(r"\1", text)
    text = _PLAIN_INDEX.sub(r"\1", text)
    return expand_mixed_numbers(_expand_plus_minus(text))


def _strip_unit(text: str, units: frozenset[str] | None) -> str:
    """'72 clips' → '72'; a multiplier ('4 thousand') or, when the problem is known, a word it
    does not use ('4 apples' for 2x + 3 = 11) is kept, and the reading then fails."""
    m = _UNIT.search(text)
    if m is None:
        return text
    word = m.group(1)
    if _MULTIPLIER.search(word) or (units is not None and word.lower() not in units):
        return text
    return text[: m.start()]


def value_text(text: str, units: frozenset[str] | None = None) -> str:
    """The number as written, its currency sign and a unit the problem uses gone. A sign goes
    only where the problem counts in it or in no currency at all: "£14" is not "$14"."""
    text = text.strip()
    sign = _CURRENCY.match(text)
    if sign is not None:
        named = sign.group(1).replace("￥", "¥")
        counted = CURRENCY_SIGNS & units if units is not None else frozenset()
        if not counted or named in counted:
            text = text[sign.end() :]
    number, unit = split_unit(text)
    if unit is not None and units is not None and unit in units:
        text = number  # "20 m/s" where the problem measures in m/s
    return _strip_unit(text, units).strip()


def parse_value(text: str, units: frozenset[str] | None = None, *, euler: bool = False) -> sp.Expr:
    """One numeric value: '-14', '1 7/12', 'sqrt(2)', '50%', '72 clips', '$72'. `euler`: the
    letter e is Euler's number (the answer to ln(x) = 1, where the problem has no letter e)."""
    text = value_text(text, units)
    if re.search(r"[<>∞\[\]]", text):
        raise ParseError("an interval or inequality")
    value = evaluate(parse_expression(text, answer=True))
    if euler and value.free_symbols == {_LETTER_E}:
        value = value.xreplace({_LETTER_E: sp.E})
    if value.free_symbols:
        raise ParseError("an answer value must be a number")
    if not value.is_real:
        raise ParseError("not a real number")
    return value


def _comma_inside_brackets(text: str) -> bool:
    """A comma within parentheses: "(1, 2), (3, 4)"; not "((1 - √21)/(2)), ((1 + √21)/(2))"."""
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth > 0:
            return True
    return False


def read_candidate(
    text: str, variables: list[str], units: frozenset[str] | None = None, *, euler: bool = False
) -> Candidate:
    """Read the whole candidate answer; raises ParseError when unsure."""
    cleaned = clean(text)
    if not cleaned:
        raise ParseError("empty")
    if _NONE.search(cleaned):
        return Candidate("none", text=cleaned)
    if _ALL.search(cleaned):
        return Candidate("all", text=cleaned)
    if re.search(r"[<>∞\[\]∪]", cleaned) or re.search(r"\b(?:to|between)\b", cleaned, re.I):
        raise ParseError("an interval or inequality")
    if re.search(r"\d,\d", cleaned) and not re.search(r"[{(]", cleaned):
        raise ParseError("'4,0': a list or a decimal comma?")
    tuple_form = bool(re.fullmatch(r"\(([^()]|\([^()]*\))*,([^()]|\([^()]*\))*\)", cleaned))
    body = cleaned[1:-1] if tuple_form else cleaned.strip()
    if not tuple_form and _comma_inside_brackets(body):
        raise ParseError("unreadable grouping")  # "(1, 2), (3, 4)": pairs, for one unknown?
    body = re.sub(r"^[a-zA-Z]\s*∈\s*", "", body).strip()
    parts = [p for p in _LIST_SPLIT.split(body) if p.strip()]
    if not parts:
        raise ParseError("empty")
    # "x = -2, 2", "x = 2 or 3": the roots of the one unknown x.
    first = re.fullmatch(r"\s*([a-zA-Z])\s*=.*", parts[0])
    one_unknown = first is not None and variables == [first.group(1)]
    if first and one_unknown and not any("=" in p for p in parts[1:]):
        parts = [parts[0], *(f"{first.group(1)} = {p}" for p in parts[1:])]
    if any("=" in p for p in parts):
        return _assignments(parts, variables, cleaned, units, euler)
    values = tuple(parse_value(p, units, euler=euler) for p in parts)
    settled = all(worked_out(value_text(p, units)) for p in parts)
    return Candidate("values", values, text=cleaned, tuple_form=tuple_form, worked_out=settled)


def _assignments(
    parts: list[str],
    variables: list[str],
    cleaned: str,
    units: frozenset[str] | None,
    euler: bool = False,
) -> Candidate:
    solutions: list[dict[str, sp.Expr]] = [{}]
    settled = True
    for part in parts:
        sides = [s.strip() for s in part.split("=")]
        if len(sides) != 2 or not re.fullmatch(r"[a-zA-Z]", sides[0]):
            raise ParseError("not a variable assignment")
        name = sides[0]
        if name not in variables:
            raise ParseError(f"unknown variable {name}")
        if name in solutions[-1]:
            solutions.append({})
        solutions[-1][name] = parse_value(sides[1], units, euler=euler)
        settled = settled and worked_out(value_text(sides[1], units))
    return Candidate("assignments", assignments=tuple(solutions), text=cleaned, worked_out=settled)


_ASSIGNED = re.compile(r"^\s*[A-Za-z](?:_\{?\d+\}?|[₀-₉]+)?\s*=\s*")  # "x = …", "x_1 = …"
_PERCENT_SIGN = re.compile(r"\s*\\?%\s*[.。]?\s*$")
# An angle in degrees, read in radians so that cos 13° is final and sin 30° (1/2) is not.
_DEGREES = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)\s*(?:°|\^\s*\{?\s*\\circ\s*\}?|\\degree\b)")


def _in_radians(match: re.Match[str]) -> str:
    turn = Fraction(match[1]) / 180
    if turn.denominator == 1:
        return f"({turn.numerator}*pi)"
    return f"({turn.numerator}*pi/{turn.denominator})"  # never "a/b" to read as a division


@lru_cache(maxsize=1024)  # the judge asks of one answer several times a scan
def work_left_undone(answer: str) -> bool:
    """The answer reads as numbers and leaves an operation to carry out: "2 + 2^{61}",
    "\\frac{14}{2}", "12^{10}", "√16", "180° - 45°" (worked_out.py's reading, a trailing
    percent sign aside). False when it is not read as numbers or is written in a final form:
    "19/12", "1 + √2", "3 × 10^8", "cos 13°", "45°"."""
    text = _DEGREES.sub(_in_radians, _PERCENT_SIGN.sub("", _ASSIGNED.sub("", answer)))
    try:
        read = read_candidate(text, [])
    except READ_ERRORS:
        return False
    return read.kind == "values" and not read.worked_out
