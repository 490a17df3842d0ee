"""Is an answer one plain value, the only kind a model's word may verify?

A verifier that echoes what it is shown agrees with any wording, so listing the wordings of a
guess never ends ("circa 12", "12 at minimum", "twelve-ish", 将近12个: three tester rounds each
found new ones). The rule is the other way round: where no proof decides, `verified` (and a
check's `correct`) is given only to an answer that plainly states one value —

- mathematics alone ("12", "x = 12", "3/4", "10 - 4\\sqrt{3}"), with no relation sign where the
  problem has no inequality, and no list of different values where one is asked;
- or one number with words a student would write around it: the problem's own nouns ("12
  apples"), a unit, a currency, and a few that only phrase an answer ("He has 12 apples in
  total."), in English or Chinese ("现在一共有12个苹果").

Anything else — a word the problem does not use, a modifier ("at", "least", "over", "about",
even where the problem says them), brackets, a second value — may still be shown, as
`unverified`: an honest badge, never a wrong `verified`.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

from app.llm.hedges import (
    different,
    hedges,
    listed,
    may_have_several_answers,
    one_value_asked,
    readable,
)
from app.symbolic.choices import choices_in, chosen
from app.symbolic.number_words import as_digits
from app.symbolic.units import UNITS, in_unit, same_unit, split_unit, units_in
from app.symbolic.vocabulary import word_set

# Words that only introduce an answer ("The answer is 12."); any other word must be the
# question's own: "He has 12 apples left" states something the question did not ask.
_FILLERS = word_set("the a an answer answers final result is so")
# One verb in two forms: "How many apples does he have?" is answered "He has 12 apples."
_LEMMAS = {
    "has": "have",
    "had": "have",
    "does": "do",
    "did": "do",
    "is": "be",
    "are": "be",
    "was": "be",
    "were": "be",
    "gets": "get",
    "got": "get",
    "takes": "take",
    "took": "take",
    "needs": "need",
    "costs": "cost",
    "makes": "make",
    "made": "make",
    "ate": "eat",
    "gave": "give",
    "bought": "buy",
    "sold": "sell",
    "spent": "spend",
    "paid": "pay",
    "ran": "run",
    "wrote": "write",
    "drove": "drive",
    "rode": "ride",
    "flew": "fly",
    "grew": "grow",
    "saw": "see",
    "won": "win",
    "lost": "lose",
    "caught": "catch",
    "built": "build",
    "kept": "keep",
    "sent": "send",
    "brought": "bring",
    "found": "find",
    "threw": "throw",
    "drank": "drink",
    "swam": "swim",
    "sang": "sing",
}
# Words that change a value, whoever uses them (the problem may: "at least 10 years old").
_MODIFIERS = word_set(
    """
    about above after again against almost along among and any approximately around as at
    away before below beneath besides between beyond both but by can could close do does down
    either else enough estimate estimated even ever every except few fewer for from give
    guess if into least less like many may maybe max maximum might min minimum more most much
    near nearly neither no nor not odd off on one only or other otherwise over perhaps plus
    possibly probably rather roughly round rounded several should since some something such
    take than that these this those though through to too under until up upon upwards versus
    very vs what when where whether which while with within without yet each per every half
    twice double triple thrice quarter times dozen dozens score pair pairs first second third
    """
)
_CURRENCY_WORDS = word_set("dollar dollars cent cents yuan jiao fen usd rmb")
# Chinese: characters that only phrase an answer, and measure words.
_CHINESE_FILLERS = frozenset("答案是为个")
# Characters that change a value even inside a problem's words: 多 (more), 余, 几, 约, 近 …
_CHINESE_MODIFIERS = frozenset(
    "多余几约近至少上下左右或不可能应该概估起码将接超过以内外来吧似乎差最半倍双打成折各每又再还"
)
_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[A-Za-z]+")
_LATEX_WORDS = word_set(
    """
    frac dfrac tfrac sqrt pi cdot times div left right sin cos tan cot sec csc log ln exp circ
    infty cup cap pm mp le ge leq geq neq begin end pmatrix bmatrix matrix mathbf bold mathrm
    text overline degree degrees alpha beta gamma delta epsilon theta lambda mu sigma phi omega
    """
)
_RELATION = re.compile(r"[<>≤≥≠]")
_ASSIGNMENT = re.compile(r"^\s*[A-Za-z]\s*=\s*")
# Signs a plain value may carry beside its number: currency, percent, a full stop.
_SIGNS = re.compile(r"[$¥￥€£%.,:：。，]")
# One value asked for several: "the two numbers", "each", "both", 分别, 各.
_SEVERAL_ASKED = re.compile(
    r"\b(?:numbers|values|dimensions|coordinates|each|both|respectively|what\s+are|which|all"
    r"|list|pairs?|ways|two|three|four|them|they)\b|分别|各|哪些|哪几|几种",
    re.IGNORECASE,
)
_QUESTIONS = re.compile(r"[?？]")
_PERCENT = re.compile(r"%|percent|百分", re.IGNORECASE)
_CURRENCY = re.compile(r"\b(?:" + "|".join(sorted(_CURRENCY_WORDS)) + r")\b", re.IGNORECASE)
_CURRENCY_SIGN = re.compile(r"[$¥￥€£¢元角]")
_MONEY_ASKED = re.compile(
    r"\bhow\s+much\b|\b(?:cost|price|spend|spent|pay|paid|earn|save|money|dollars?|cents?)\b"
    r"|钱|元|角",
    re.IGNORECASE,
)
_NUMBERS = re.compile(r"\d+(?:[.,]\d+)*(?:\s*/\s*\d+)?")  # "12,5个": two, unlike hedges' reading
_MAX_NAMING_WORDS = 4
_ZERO_DENOMINATOR = re.compile(r"/\s*0+(?![\d.])|\\[dt]?frac\s*\{?\s*[^{}]*\}?\s*\{?\s*0+\s*\}")
_FRACTION = re.compile(r"\\[dt]?frac\s*\{?\s*(\d+)\s*\}?\s*\{?\s*(\d+)\s*\}?")
_DEGREES = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|°")
_REMAINDER = re.compile(r"\s*\d+\s*(?:R|r|remainder|余)\s*\d+\s*[.。]?\s*")
_CLAUSE = re.compile(r"[.!?;,。！？；，]+")
_ASKS = re.compile(
    r"\b(?:how|what|which|find|calculate|compute|determine|enter|give|list|write|name)\b|多少|几|求"
    r"|[?？]",
    re.IGNORECASE,
)
_ASKING_WORDS = re.compile(r"多少|几")
_THOUSANDS = re.compile(r"(?<=\d) (?=\d{3}\b)")  # 12 000
_PART = re.compile(r"(\s*\d+(?:\.\d+)?\s*([A-Za-z]+|[\u4e00-\u9fff]+)\s*,?)")


@lru_cache(maxsize=1024)  # the judge asks of one answer several times a scan
def plainly_one_value(answer: str, problem: str) -> bool:
    """True when `answer` plainly states one value (or the several values the problem asks
    for) in words that cannot change it: what a model's word may verify."""
    if hedges(answer, problem):
        return False
    choices = choices_in(problem)
    if choices is not None and chosen(answer, choices) in choices.options:
        return True  # "B", "(B)", "选B": one of the options the problem lists
    text = readable(answer).strip()
    # Spelled out: "twelve", 十二个; but 一 in 一共 is no number beside a 12.
    text = _THOUSANDS.sub("", text if re.search(r"\d", text) else as_digits(text))
    if _compound(text, problem) or _REMAINDER.fullmatch(text):
        return True  # "1 hour 30 minutes", "2米50厘米": one quantity; "7 R 2", "7余2"
    number, unit = split_unit(text)
    if unit is not None and _measures(unit, units_in(problem)):
        text = number  # "60 km/h", "12 m²" where the problem measures so; not "8 m" for apples
    asked = _question(problem)
    several = (
        may_have_several_answers(problem)
        or _SEVERAL_ASKED.search(asked) is not None
        or len(_QUESTIONS.findall(problem)) > 1
    )
    values = listed(text)
    if values is not None and different(values) and not several:
        return False  # "12, 13" where one value is asked
    # Alone, single letters are unknowns ("x = 12"); LaTeX commands are mathematics.
    words = [w for w in _WORD.findall(text) if w.lower() not in _LATEX_WORDS]
    if not any(len(w) > 1 for w in words) and not _CJK.search(text):
        return _mathematics(text, problem, several)
    if "%" in text and not _PERCENT.search(problem):
        return False  # "12%" for a count
    numbers = {n.replace(",", "") for n in _NUMBERS.findall(text)}
    if not numbers and not _CJK.search(text):  # "circle", one of the problem's own words
        naming = len(words) <= _MAX_NAMING_WORDS
        return naming and all(w.lower() in _words_of(problem) - _MODIFIERS for w in words)
    if len(numbers) != 1 and not (several and numbers):
        return False
    sum_written = _CURRENCY_SIGN.search(answer) is not None or _CURRENCY.search(text) is not None
    return _english_words_plain(words, sum_written, problem, asked) and _chinese_plain(text, asked)


def _mathematics(text: str, problem: str, several: bool) -> bool:
    if _RELATION.search(text) and not several:
        return False  # "≥ 12", "11 < n < 13" where no inequality is asked
    if one_value_asked(problem) and not several:
        value = _FRACTION.sub(r"\1/\2", _DEGREES.sub("", _ASSIGNMENT.sub("", text)))
        number = re.fullmatch(r"\s*[-+]?[\d,]*\.?\d+(?:\s*/\s*(\d+))?\s*(%?)\s*\.?\s*", value)
        if number is None or (number[2] and not _PERCENT.search(problem)):
            return False
        return number[1] is None or int(number[1]) != 0  # "1/0" is no value
    return _ZERO_DENOMINATOR.search(text) is None


def _question(problem: str) -> str:
    """The clause that asks ("How many buses are needed at least", 现在一共有多少个苹果): its
    words may be in the answer, whatever they are (not "at least" elsewhere in the problem)."""
    clauses = [c for c in _CLAUSE.split(problem) if c.strip()]
    asking = [c for c in clauses if _ASKS.search(c)]
    return (asking or clauses or [""])[-1]


def _compound(text: str, problem: str) -> bool:
    """ "1 hour 30 minutes", "2 m 50 cm", "2米50厘米": one quantity in two units of one kind,
    which the problem measures in (not "8 m 12 kg", nor "2 hours 30 minutes" for apples)."""
    parts = _PART.findall(text)
    if len(parts) < 2 or "".join(p[0] for p in parts).strip() != text.strip():
        return False
    units = [unit for _, unit in parts]
    if not all(u in UNITS for u in units) or len({UNITS[u] for u in units}) != len(units):
        return False
    one_kind = all(in_unit(Fraction(1), u, units[0]) is not None for u in units)
    return one_kind and _measures(units[0], units_in(problem))


def _words_of(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def _english_words_plain(words: list[str], sum_written: bool, problem: str, asked: str) -> bool:
    """Every word introduces the answer or is the question's own ("Tom has 12 apples." for
    "How many apples does Tom have?"), a unit the problem uses, or a currency where money is
    asked. The rest of the problem lends none: "12 boxes" for apples, "half", "each", "He has
    12 apples left" for how many he ate, "12 cents" for a count."""
    known = {_LEMMAS.get(w, w) for w in _words_of(asked)} | _problem_units(problem)
    if _MONEY_ASKED.search(asked):
        # A sum: "$12", "12 dollars", not "12 pens" for "How much do 4 pens cost?"
        if not sum_written:
            return False
        known |= _CURRENCY_WORDS
    for word in words:
        if word.lower() in _FILLERS:
            continue
        lower = _LEMMAS.get(word.lower(), word.lower())
        if lower in known:
            continue
        if lower.rstrip("s") in known or lower + "s" in known:  # "apples" for "an apple"
            continue
        if lower.endswith("ed") and {lower[:-1], lower[:-2]} & known:  # "baked" for "bake"
            continue
        return False
    return True


def _measures(unit: str, units: frozenset[str]) -> bool:
    """Is `unit` one the problem measures in, or made of them ("km/h" from km and hours)?"""
    return all(any(same_unit(part, u) for u in units) for part in unit.split("/"))


def _problem_units(problem: str) -> set[str]:
    """The spellings of the units the problem measures in."""
    return {u.lower() for u in units_in(problem)}


def _chinese_plain(text: str, asked: str) -> bool:
    """Every character phrases the answer or is the question's own (还剩多少个: 还剩; 至少需要
    多少辆: 至少, 辆); the rest of the problem lends none ("又买了12个", 12盒 for apples)."""
    rest = _SIGNS.sub("", re.sub(r"[\dA-Za-z\s]+", "", text))
    allowed = (_CHINESE_FILLERS - _CHINESE_MODIFIERS) | set(
        _CJK.findall(_ASKING_WORDS.sub("", asked))
    )
    return all(c in allowed for c in rest)
