"""Check a candidate answer against the problem: substitution, exact evaluation, equivalence.

Pure functions that run inside the sandbox processes (app.symbolic.sandbox). Every result is
"approve", "reject" or "abstain". The problem is read twice (two parsers that must agree); the
candidate is substituted into every equation and condition as written, and compared with the
answer to the question asked, computed from the verified solution set. It is never compared
with the solver's answer text. Approve and reject both need certainty: a candidate that cannot
be read, or a disagreement between the checks, is an abstention.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import sympy as sp

from app.symbolic.answers import (
    CURRENCY_SIGNS,
    Candidate,
    clean,
    parse_value,
    read_candidate,
    value_text,
)
from app.symbolic.choices import Choices, choices_in, chosen
from app.symbolic.crosscheck import readings_agree, same_value
from app.symbolic.ellipsis import ellipsis_verdict
from app.symbolic.evaluation import (
    differ_numerically,
    evaluate,
    format_value,
    is_plain_number,
    terminating_decimal,
)
from app.symbolic.expressions import equivalent as expression_equivalent
from app.symbolic.expressions import factor_left_to_cancel, fully_factored, numbers_uncombined
from app.symbolic.expressions import in_form as in_expression_form
from app.symbolic.inequality import read_set, same_set, solution_set
from app.symbolic.letters import space_products
from app.symbolic.normalize import (
    READ_ERRORS,
    ParseError,
    normalize,
    normalized_or_as_written,
    squeeze_space,
)
from app.symbolic.number_words import as_digits
from app.symbolic.parsing import FUNCTIONS, expand_mixed_numbers, parse_expression
from app.symbolic.problem import MathProblem
from app.symbolic.questions import read_count
from app.symbolic.remainders import quotient_and_remainder, remainder_alone
from app.symbolic.rounding import round_half_up, significant_places, strip_approximate
from app.symbolic.solutionset import SolutionSet, satisfies, solve_problem_set, target_values
from app.symbolic.solver import Step, SymbolicSolution, read_and_solve, solve_reading
from app.symbolic.stated import refutes
from app.symbolic.units import (
    UNITS,
    asked_unit,
    convert,
    in_unit,
    measured,
    same_unit,
    split_unit,
    units_in,
)
from app.symbolic.vocabulary import NO_VALUE_WORDS
from app.symbolic.worked_out import worked_out

# math-verify warns on every call that we disabled its signal-based timeout; we bound time with
# the sandbox instead, so the warning is noise.
logging.getLogger("math_verify").setLevel(logging.ERROR)

MIN_ROUNDED_DECIMALS = 2  # 0.67 for 2/3: two places, two significant digits
MIN_SIGNIFICANT_DIGITS = 3  # 333.3 for 1000/3: one place, but four significant digits
_DEGREES = re.compile(r"°|\\circ|\bdeg(?:rees?)?\b|度", re.IGNORECASE)
_ROUNDED_UNASKED = "a rounded value where no rounding was asked (mark it ≈ if it is meant so)"
_NOT_WORKED_OUT = "the right value, not worked out (an operation is left to carry out)"
_PERCENT_SIGN = re.compile("[%％]")  # the full-width sign is how Chinese students type it
_PERCENT_SUFFIX = re.compile(r"\s*(?:[%％]|percent|per\s*cent)\s*\.?\s*$", re.IGNORECASE)


@dataclass(slots=True)
class CheckResult:
    verdict: str  # approve | reject | abstain
    method: str  # substitution | evaluation | equivalence | none
    detail: str
    expected: str | None = None
    # An abstention no other method may overturn: the right value, not worked out.
    conclusive: bool = False

    @property
    def score(self) -> float | None:
        return {"approve": 1.0, "reject": 0.0}.get(self.verdict)


@dataclass(frozen=True, slots=True)
class Rounding:
    """What a decimal answer may be: `places` asked by the problem, or marked approximate."""

    places: int | None = None
    approximate: bool = False
    # "to a maximum of 12 significant digits": fewer places may be written where they suffice
    at_most: bool = False


EXACT = Rounding()
MARKED_APPROXIMATE = Rounding(approximate=True)


def close_enough(
    candidate: sp.Expr, exact: sp.Expr, candidate_text: str, rounding: Rounding = MARKED_APPROXIMATE
) -> bool | None:
    """Exact equality, or a decimal that is the exact value correctly rounded — accepted only
    when the problem asks for that rounding or the student marks the answer approximate.

    Asked for `places`: the candidate must be the exact value rounded half up to that many
    places (an exact but unrounded answer is not judged: None). Marked approximate: 1.58 for
    19/12, 0.67 or .67 for 2/3 and 333.3 for 1000/3 pass; 1.59 does not, nor 1.6 or 0.01 for
    1/199 (too coarse: None). A terminating value (4, 0.875) is written exactly or not judged:
    ≈0.88 for 7/8 is rounded right but the exact decimal was there to write (None; ≈0.87 is
    wrong), and 0.88 unmarked is wrong. Neither: a correctly rounded decimal is None (right,
    or the wrong answer 6.33 to an exact question?).
    """
    if rounding.places is not None:
        if candidate.is_Rational and candidate == round_half_up(exact, rounding.places):
            # "保留两位小数" of 3.996: 4.00; "4" drops the places asked for (a teacher marks
            # it down), so it is not judged either way.
            # "2.30" for the nearest tenth writes a hundredths place it was not asked for: not
            # judged either way, as "4" is not.
            written = _places_written(candidate_text)
            enough = rounding.at_most or written == max(rounding.places, 0)
            return True if enough else None
        return None if same_value(candidate, exact) else False
    if same_value(candidate, exact):
        return True
    decimals = re.findall(r"(\d*)\.(\d+)", candidate_text)
    if not decimals and rounding.approximate:  # "about 6" for 19/3: a whole number, rounded
        decimals = [
            (whole, "") for whole in re.findall(r"(?<![\w.])(\d+)(?![\w.])", candidate_text)
        ]
    terminating = exact.is_Rational and terminating_decimal(exact)
    if not decimals or (terminating and not rounding.approximate):
        return False
    if not candidate.is_Rational or not exact.is_real:
        return False
    places = max(len(fraction) for _, fraction in decimals)
    digits = max(len((whole + fraction).lstrip("0")) for whole, fraction in decimals)
    enough = digits >= MIN_SIGNIFICANT_DIGITS or (
        places >= MIN_ROUNDED_DECIMALS and digits >= MIN_ROUNDED_DECIMALS
    )
    if sp.N(candidate, 50).round(places) != sp.N(exact, 50).round(places):
        return False
    return True if enough and rounding.approximate and not terminating else None


def _worked_out(cleaned: str, units: frozenset[str], percent: bool = False) -> bool:
    """The value as written has nothing left to carry out (worked_out.py); a percent sign
    only where a percent is asked: '1200%' is 12, but not an answer to 'what is 15% of 80'."""
    written = value_text(cleaned, units)
    if percent:
        written = _PERCENT_SUFFIX.sub("", written)
    return worked_out(written)


def _places_written(text: str) -> int:
    """The decimal places a written number shows: 2 for '4.00', 0 for '4' or '1230'."""
    return max((len(places) for places in re.findall(r"\d*\.(\d+)", text)), default=0)


@lru_cache(maxsize=256)
def _read(problem_text: str) -> tuple[MathProblem | None, SolutionSet | None, str | None]:
    problem, solution = read_and_solve(problem_text)
    if problem is None:
        return None, None, None
    expected = solution.final_answer if solution else None
    truth = solve_problem_set(problem) if problem.kind == "equations" else None
    return problem, truth, expected


def check_answer(problem_text: str, candidate: str, unread: bool = False) -> CheckResult:
    """The verdict on `candidate` as an answer to `problem_text`. `unread`: the reader is known
    to find no problem it reads in this text (the sandbox's solve said so), so it is not
    read again."""
    problem_text, candidate = squeeze_space(problem_text), squeeze_space(candidate)
    written = candidate
    if not unread and (choices := choices_in(problem_text)) is not None:
        return _check_choice(choices, candidate)
    problem, truth, expected = (None, None, None) if unread else _read(problem_text)
    if problem is None:
        # The words are not understood, so nothing is approved; a value that breaks the
        # equation the text states is still wrong (stated.py says when that is certain).
        broken = refutes(problem_text, candidate)
        if broken is not None:
            return CheckResult("reject", "substitution", broken)
        if _DIVIDES_BY_ZERO.search(normalized_or_as_written(problem_text)):
            # "Ann says 12 ÷ 0 = 0. What is 12 ÷ 0?": models agreeing on 0 verified it
            why = "the problem divides by zero, in words the checker does not read"
            return CheckResult("abstain", "none", why, conclusive=True)
        return CheckResult("abstain", "none", "the problem is not one the symbolic checker reads")
    if not candidate or not candidate.strip():
        return CheckResult("reject", "none", "empty answer", expected)
    if _DEGREES.search(candidate) and not _DEGREES.search(problem_text):
        return CheckResult("abstain", "none", "an angle given for a problem without one", expected)
    # A unit may follow a number only when the problem uses that word ("72 clips").
    units = _units(problem_text)
    approximate, candidate = strip_approximate(candidate)
    rounding = Rounding(problem.rounding, approximate)
    try:
        if _ANNOTATED.fullmatch(candidate):
            raise ParseError("'56 (7 × 8)': a value and a note, or a product?")
        if problem.kind == "arithmetic" and problem.undefined:
            return _check_no_value(candidate, units, expected)
        if problem.kind == "arithmetic":
            assert problem.expression is not None
            exact = evaluate(problem.expression)
            if not is_plain_number(exact if exact.is_Rational else sp.simplify(exact)):
                return CheckResult("abstain", "none", "the value is not a plain number", expected)
            if problem.unit is not None:
                return _check_quantity(problem.unit, exact, candidate, expected, rounding)
            if problem.significant is not None:  # "to 3 significant figures": places of the value
                digits, at_most = problem.significant
                places = significant_places(exact, digits)
                rounding = Rounding(places, approximate, at_most)
            if problem.form == "percent_number":  # "what percent …": 24 and 24% name it
                return _check_percent_number(exact, candidate, expected, units, rounding)
            if problem.form is not None:
                return _check_form(problem.form, exact, candidate, expected, units, rounding)
            return _check_value(exact, candidate, expected, None, units, rounding)
        if problem.kind == "inequality":
            return _check_inequality(problem, candidate, expected)
        if problem.kind == "expression":
            return _check_expression(problem, candidate, expected)
        if problem.kind == "membership":
            return _check_yes_no(candidate, expected)
        if problem.kind == "claim":
            return _check_claim(problem, candidate, expected)
        if problem.kind == "remainder":
            return _check_remainder(problem, candidate, expected)
        if problem.kind == "congruence":
            assert problem.congruence is not None
            exact = sp.Integer(problem.congruence.answer)
            return _check_value(exact, candidate, expected, None, units, rounding)
        if problem.kind in ("property", "comparison") and approximate:
            return CheckResult("abstain", "none", "an approximate answer to an exact question")
        if problem.kind == "property":
            return _check_count(problem, candidate, expected)
        if problem.kind == "comparison":
            return _check_comparison(problem, candidate, expected)
        if truth is None:
            # x⁵ = 32 is read but not solved with certainty: x = 3 still breaks it
            broken = _breaks_the_problem(problem, candidate, units, rounding) or (
                refutes(problem_text, candidate) if rounding == EXACT else None
            )  # "x ≈ 2" was stripped to "x = 2" above: a rounded root, not judged
            if broken is not None:
                return CheckResult("reject", "substitution", broken, expected)
            return CheckResult("abstain", "none", "the solution set is not certain", expected)
        if problem.target.kind != "solutions":
            values = target_values(problem, truth)
            if values is None:
                return CheckResult("abstain", "none", "the question has no single answer", expected)
            target = problem.target.expression
            return _check_value(values[0], candidate, expected, target, units, rounding)
        return _check_solutions(problem, truth, candidate, expected, units, rounding)
    except READ_ERRORS:
        pass
    # LaTeX our reader does not know (\dfrac{}, \tfrac{}...): math-verify may approve a single
    # value, never reject, and never judge lists, tuples or intervals, whose reading is open.
    single = expected is not None and not re.search(r",| or |=|no |all ", expected)
    readable = "\\" in candidate and _latex_number(candidate)  # not a sum of two fractions
    if single and expected and readable and math_verify_equivalent(expected, candidate):
        return CheckResult("approve", "equivalence", "equal to the exact answer", expected)
    if single and expected:
        spelled = as_digits(written)
        if spelled != written:  # "fifty-six", 五十六: read as the digits they spell
            return check_answer(problem_text, spelled, unread)
        stated = _stated_value(written, problem_text)
        if stated is not None:  # "7 × 8 = 56", "The product is 56.": the value stated last
            return check_answer(problem_text, stated, unread)
        # The exact value is known, so a right answer is one the reader can read: "56, 57",
        # "fifty-seven", "56 thousand" or "not 56" for 7 × 8 is never correct on a model's word
        # (an echoing verifier agrees with whatever it is shown).
        why = (
            _ANOTHER_VALUE if _states_another_value(candidate, expected, problem_text) else _UNREAD
        )
        return CheckResult("abstain", "none", why, expected, conclusive=True)
    return CheckResult("abstain", "none", "the answer could not be read with certainty", expected)


# "56 (7 × 8)", "56 (fifty-six)": read as a product, it was wrong; it is not read.
_ANNOTATED = re.compile(r"\s*[-+]?\d[\d,.]*\s+[(（][^()（）]*[)）]\s*")
_ANOTHER_VALUE = "the answer states a value other than the exact one"
_UNREAD = "the exact value is known, and the answer could not be read as it"
_PLAIN_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])\d+(?:\.\d+)?(?:\s*/\s*\d+)?")


def _option_verdicts(choices: Choices) -> tuple[dict[str, CheckResult], list[str]]:
    """Each option checked as an answer to the stem, and the letters of those that are right."""
    verdicts = {letter: check_answer(choices.stem, t) for letter, t in choices.options.items()}
    return verdicts, [letter for letter, v in verdicts.items() if v.verdict == "approve"]


def _check_choice(choices: Choices, candidate: str) -> CheckResult:
    """An answer to a multiple-choice problem: the letter of the one option that is the stem's
    exact value, or that value itself ("15" for "What is 7 + 8? A. 14 B. 15 …")."""
    letter = chosen(candidate, choices)
    if letter is None:
        return check_answer(choices.stem, candidate)
    verdicts, right = _option_verdicts(choices)
    expected = right[0] if len(right) == 1 else None
    if letter not in verdicts:
        return CheckResult("reject", "none", f"there is no option {letter}", expected)
    mine = verdicts[letter]
    if right == [letter]:
        return CheckResult("approve", "evaluation", f"option {letter} is the exact value", letter)
    if mine.verdict == "reject":
        return CheckResult("reject", "evaluation", f"option {letter}: {mine.detail}", expected)
    if expected is not None and _NONE_OF_THE_ABOVE.fullmatch(choices.options[letter]):
        return CheckResult(
            "reject", "evaluation", f"option {expected} is the exact value", expected
        )
    known = any(v.expected is not None for v in verdicts.values())
    why = "more than one option is right" if len(right) > 1 else f"option {letter} is not read"
    return CheckResult("abstain", "none", why, expected, conclusive=known)


_NONE_OF_THE_ABOVE = re.compile(
    r"\s*(?:none\s+of\s+(?:the\s+)?(?:above|these)|以上都不对|以上都不是|都不对)\s*[.。]?\s*",
    re.IGNORECASE,
)


def solve_reading_with_choices(text: str) -> tuple[bool, SymbolicSolution | None]:
    """`solver.solve_reading`, and for a multiple-choice problem the letter of the one option
    that is the stem's exact value (none when another option cannot be told apart)."""
    text = squeeze_space(text)
    choices = choices_in(text)
    if choices is None:
        return solve_reading(text)
    read, solution = solve_reading(choices.stem)
    if solution is None:
        return read, None
    verdicts, right = _option_verdicts(choices)
    if len(right) != 1 or any(v.verdict != "reject" for k, v in verdicts.items() if k != right[0]):
        return read, None
    letter = right[0]
    step = Step(f"Option {letter} is the value: {choices.options[letter]}", None)
    return read, SymbolicSolution(solution.kind, [*solution.steps, step], letter)


# "12 ÷ 0 = ?" answered as having no value, the expression restated or not ("12 ÷ 0 is
# undefined"). "Cannot be determined" is not among them: it says the problem gives too little.
_NO_VALUE = re.compile(
    r"(?:[\d\s.()+\-×*]*[÷/][\d\s.()+\-×*÷/]*(?:\bis\b|=|等于)\s*)?"
    r"(?:(?:it|this|the\s+(?:answer|value|result|quotient))\s+is\s+)?"
    rf"(?:{NO_VALUE_WORDS})\s*[.!。]?",
    re.IGNORECASE,
)
_INFINITY = re.compile(r"[-+]?\s*(?:∞|infinity|infinite|无穷大?)\s*[.。]?", re.IGNORECASE)


def _check_no_value(candidate: str, units: frozenset[str], expected: str | None) -> CheckResult:
    """The problem divides by zero: saying so is right, a number is wrong (∞ too: no real
    number, and K12 arithmetic has no other), anything else is not read, conclusively."""
    text = " ".join(normalize(candidate).split())
    if _NO_VALUE.fullmatch(text):
        return CheckResult("approve", "evaluation", "division by zero has no value", expected)
    if _INFINITY.fullmatch(text):
        return CheckResult("reject", "evaluation", _NO_VALUE_DETAIL, expected)
    try:
        parse_value(clean(candidate), units)
    except READ_ERRORS:
        return CheckResult("abstain", "none", _NO_VALUE_UNREAD, expected, conclusive=True)
    return CheckResult("reject", "evaluation", _NO_VALUE_DETAIL, expected)


_NO_VALUE_DETAIL = "it divides by zero: there is no value"
# A division by a literal zero anywhere (÷ is "/" once normalized): 12 ÷ 0, 5/0, "divided by
# zero", 除以0. Not 1/0.5 or 3/05.
_DIVIDES_BY_ZERO = re.compile(
    r"/\s*0(?![\d.,])|\bdivided\s+by\s+(?:0(?![\d.,])|zero\b)|除以\s*(?:0(?![\d.,])|零)",
    re.IGNORECASE,
)
_NO_VALUE_UNREAD = "it divides by zero, and the answer could not be read as saying so"


def _plain_numbers(text: str) -> set[sp.Rational]:
    return {sp.Rational(n.replace(" ", "")) for n in _PLAIN_NUMBER.findall(text)}


# "7 × 8 = 56", "The product is 56.", "答案是56": what is said of the problem's own numbers.
_STATED = re.compile(r"(.*)(?:=|\b(?:is|equals)\b|是|为|等于)\s*([^=]+?)\s*$", re.IGNORECASE)


_LETTER = re.compile(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])")


def _stated_value(candidate: str, problem_text: str) -> str | None:
    """The value an unread answer states last, where what comes before it holds no number
    but the problem's own; else None."""
    match = _STATED.fullmatch(candidate.strip())
    if match is None:
        return None
    try:
        head, given = _plain_numbers(match.group(1)), _plain_numbers(problem_text)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    if _LETTER.search(match.group(1)) or "=" in match.group(1):
        return None  # "x = 1, y = 1" for xy: what is stated is not the value asked
    return match.group(2) if head <= given else None


def _states_another_value(candidate: str, expected: str, problem_text: str) -> bool:
    """Does the unread answer hold a number that is neither the exact value nor one of the
    problem's own ("7 × 8 = 56" restates 7 and 8)?"""
    try:
        exact = sp.Rational(expected)
        stated = _plain_numbers(candidate)
        given = _plain_numbers(problem_text)
    except (TypeError, ValueError, ZeroDivisionError):
        return False
    return any(value not in (exact, -exact) and value not in given for value in stated)


# "5-1/4": a mixed number as US rulers and lumber write it (5 1/4), or a difference?
_HYPHENATED_MIXED = re.compile(r"\s*\d+-\d+/\d+\s*")


def _check_percent_number(
    exact: sp.Expr, candidate: str, expected: str | None, units: frozenset[str], rounding: Rounding
) -> CheckResult:
    """ "What percent of 80 is 20?": 25 and 25% name it; 0.25 or 1/4 is the right share not
    written as a percent (not judged, as "7/8 as a percent": 0.875 is), not a wrong one."""
    result = _check_value(
        exact, _PERCENT_SUFFIX.sub("", candidate), expected, None, units, rounding
    )
    if result.verdict == "reject" and not _PERCENT_SIGN.search(candidate):
        share = _check_value(exact / 100, candidate, expected, None, units, rounding)
        if share.verdict == "approve":
            return CheckResult("abstain", "none", "the right value, not written as asked (percent)")
    return result


def _check_value(
    exact: sp.Expr,
    candidate: str,
    expected: str | None,
    target: sp.Expr | None,
    units: frozenset[str],
    rounding: Rounding = EXACT,
    percent: bool = False,
) -> CheckResult:
    """`percent`: the answer is asked as a percent ("3/8 as a percent": 37.5%)."""
    claim = ellipsis_verdict(exact, candidate)
    if claim is not None:
        verdict = "approve" if claim else "reject"
        return CheckResult(verdict, "evaluation", "the decimal expansion's digits", expected)
    cleaned = clean(candidate)
    if "=" in cleaned:
        left, _, right = cleaned.rpartition("=")
        left = left.split(",")[-1].strip()
        if left and target is None:
            raise ParseError("an assignment where a value is asked")
        if left and target is not None:
            from app.symbolic.crosscheck import second_reading

            if not same_value(second_reading(left), evaluate(target)):
                raise ParseError("the answer names a different expression")
        cleaned = right.strip()
    if _HYPHENATED_MIXED.fullmatch(cleaned):
        raise ParseError("'5-1/4': a mixed number (5 1/4) or a difference?")
    value = parse_value(cleaned, units)
    close = close_enough(value, exact, cleaned, rounding)
    if close and not _worked_out(cleaned, units, percent):
        return CheckResult("abstain", "none", _NOT_WORKED_OUT, expected, conclusive=True)
    if close:
        return CheckResult("approve", "evaluation", "the answer equals the exact value", expected)
    if close is None:
        return CheckResult("abstain", "none", _ROUNDED_UNASKED, expected)
    why = f"the exact value is {format_value(exact)}"
    if rounding.places is not None and expected is not None:
        why += f", {expected} rounded as asked"  # "Round 2.45 to the nearest tenth": 2.5
    return CheckResult("reject", "evaluation", why, expected)


_YES = re.compile(
    r"^(?:yes|yes,? it is|true|correct|是|是的|是它的解|对|正确|√|✓|✔)[.!。]?$", re.IGNORECASE
)
_NO = re.compile(
    r"^(?:no|no,? it is not|false|not|不是|否|不对|不是它的解|错|错误|不正确|×|✗|✘)[.!。]?$",
    re.IGNORECASE,
)


def yes_no(answer: str) -> bool | None:
    text = answer.strip()
    return True if _YES.match(text) else False if _NO.match(text) else None


def _check_yes_no(candidate: str, expected: str | None) -> CheckResult:
    """'Is x = 4 a solution of …?': a plain yes or no, compared with substitution's."""
    said = yes_no(candidate)
    if said is None or expected is None:
        return CheckResult("abstain", "none", "not a plain yes or no", expected)
    verdict = "approve" if said == (expected == "yes") else "reject"
    return CheckResult(verdict, "substitution", "substituting the value decides", expected)


def _check_claim(problem: MathProblem, candidate: str, expected: str | None) -> CheckResult:
    """ "True or false: 2 + 2 = 5": true / false, yes / no, 对 / 错, whichever word says it."""
    assert problem.claim is not None
    said = yes_no(candidate)
    if said is None:
        return CheckResult(
            "abstain", "none", "not a plain true or false", expected, conclusive=True
        )
    verdict = "approve" if said == problem.claim.holds else "reject"
    why = "the claim holds" if problem.claim.holds else "the claim does not hold"
    return CheckResult(verdict, "evaluation", why, expected)


def _check_remainder(problem: MathProblem, candidate: str, expected: str | None) -> CheckResult:
    """ "17 ÷ 5 = ? 余 ?": the quotient and the remainder, as a pair; the remainder alone where
    only it is asked. An answer not read as that ("3.4", "3 余") ends the check."""
    assert problem.division is not None
    quotient, remainder = problem.division.answer
    text = normalize(candidate)
    said: object = quotient_and_remainder(text) if problem.division.both else remainder_alone(text)
    if said is None:
        why = "not read as a quotient and a remainder"
        return CheckResult("abstain", "none", why, expected, conclusive=True)
    right = said == ((quotient, remainder) if problem.division.both else remainder)
    why = f"{problem.division.dividend} = {problem.division.divisor} × {quotient} + {remainder}"
    return CheckResult("approve" if right else "reject", "evaluation", why, expected)


def _check_count(problem: MathProblem, candidate: str, expected: str | None) -> CheckResult:
    """How many digits / decimal places, the digit sum: '5', '5位小数', '五位小数', '4 digits';
    any other number (the value itself, 24.26424) is wrong."""
    assert problem.asked is not None and problem.count is not None
    written = clean(candidate)
    count = read_count(problem.asked, written)
    if count is None:
        value = parse_value(written)
        count_value: sp.Expr = value
    else:
        count_value = sp.Integer(count)
    verdict = "approve" if same_value(count_value, sp.Integer(problem.count)) else "reject"
    return CheckResult(verdict, "evaluation", f"counted: {problem.count}", expected)


_RELATION = re.compile(r"(.+?)\s*(<=|>=|<|>|=|≠)\s*(.+)")


def _check_comparison(problem: MathProblem, candidate: str, expected: str | None) -> CheckResult:
    """'Which is larger, 3/4 or 5/7?': the larger one, in any notation ('0.75'), or the two
    ordered ('3/4 > 5/7', '5/7 < 3/4'); for '比较大小' only the ordered two (or the sign alone,
    between them as written). ≥/≤ between two different numbers is true but no comparison."""
    (_, a), (_, b) = problem.operands
    text = clean(candidate)
    relation = _RELATION.fullmatch(text)
    if relation is None and text in ("<", ">", "=") and problem.form == "relation":
        left, sign, right = a, text, b
    elif relation is not None:
        left, sign, right = (
            parse_value(relation.group(1)),
            relation.group(2),
            parse_value(relation.group(3)),
        )
        pairs = ((left, right), (right, left))
        if not any(same_value(x, a) and same_value(y, b) for x, y in pairs):
            return CheckResult("abstain", "none", "the sides are not the two numbers", expected)
    elif problem.form == "relation":
        return CheckResult("abstain", "none", "a number where an order is asked", expected)
    else:
        chosen = a if bool((a - b).is_positive) == (problem.target.kind == "max") else b
        same = same_value(parse_value(text), chosen)
        verdict = "approve" if same else "reject"
        return CheckResult(verdict, "evaluation", "the values compared exactly", expected)
    if sign in ("<=", ">="):
        return CheckResult("abstain", "none", "≤/≥ between two different numbers", expected)
    holds = {"<": (left - right).is_negative, ">": (left - right).is_positive, "=": False}
    held = holds.get(sign)
    if held is None:
        return CheckResult("abstain", "none", "the order could not be decided", expected)
    verdict = "approve" if held else "reject"
    return CheckResult(verdict, "evaluation", "the values compared exactly", expected)


def _check_expression(problem: MathProblem, candidate: str, expected: str | None) -> CheckResult:
    """Equal for every value of the letters, and written in the form asked."""
    assert problem.expression is not None and problem.form is not None
    written = clean(candidate).rpartition("=")[2].strip()  # "3x + 2x - x = 4x": the last side
    value = parse_value_expression(written)
    if not value.free_symbols <= problem.expression.free_symbols:
        raise ParseError("a letter the problem does not have")
    if not expression_equivalent(value, problem.expression):
        given = expected if expected is not None else "the expression given"
        return CheckResult("reject", "equivalence", f"not equal to {given}", expected)
    if numbers_uncombined(value) or factor_left_to_cancel(value):
        # "x(2 + 3)" for "Simplify 2x + 3x", "(x - 1)(x + 1)/(x - 1)": the work is left undone
        return CheckResult("abstain", "none", _NOT_WORKED_OUT, expected, conclusive=True)
    if problem.form == "factor":
        factored = fully_factored(value)
        if factored is False:  # x(2x + 4), (2x - 4)(2x + 4): a teacher marks it wrong
            return CheckResult(
                "reject", "equivalence", f"equal, but not fully factored ({expected})", expected
            )
        if factored is None:
            return CheckResult("abstain", "none", "equal, but not in the form asked (factor)")
    elif not in_expression_form(value, problem.form):
        return CheckResult("abstain", "none", f"equal, but not in the form asked ({problem.form})")
    return CheckResult(
        "approve", "equivalence", "equal for every value, in the form asked", expected
    )


def _check_inequality(problem: MathProblem, candidate: str, expected: str | None) -> CheckResult:
    """The answer read as a set of reals ('x > 2', '(2, ∞)') and compared as a set."""
    (x,) = problem.variables
    truth = solution_set(problem.conditions, x)
    if truth is None:
        return CheckResult("abstain", "none", "the solution set is not certain", expected)
    try:
        kind = read_candidate(candidate, [x.name]).kind
    except READ_ERRORS:
        kind = None  # "x > 2", "(2, ∞)": not a list of values
    if kind in ("none", "all"):
        answer: sp.Set = sp.S.EmptySet if kind == "none" else sp.S.Reals
    else:
        answer = read_set(candidate, x)
    same = same_set(answer, truth)
    if same is None:
        return CheckResult("abstain", "none", "the sets could not be compared", expected)
    if same and not _solved_for(clean(candidate), x.name):
        # "2x - 1 > 3" copied back, or "2x > 4": the same set, the work not done
        return CheckResult("abstain", "none", _NOT_WORKED_OUT, expected, conclusive=True)
    verdict = "approve" if same else "reject"
    return CheckResult(verdict, "evaluation", "the solution set, compared as a set", expected)


_RELATION_SIGN = r"(?:<=|>=|<|>|≤|≥|=)"
_JOINED = re.compile(r"\s*(?:,|;|\bor\b|\band\b|或|且|或者)\s*", re.IGNORECASE)


def _solved_for(text: str, name: str) -> bool:
    """Is every relation in the answer the unknown alone against a worked-out number (x > 2,
    -3 ≤ x < 5, x < 1 or x > 4; not 2x > 4 nor x > 4 ÷ 2)? An interval or a set without the
    letter is a solved form too."""
    letter = re.compile(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])")
    if not letter.search(text) or re.match(rf"\s*{re.escape(name)}\s*(?:∈|\bin\b)", text):
        return True  # (2, ∞), x ∈ (2, ∞)
    for part in _JOINED.split(text.strip().rstrip(".")):
        if not part.strip():
            continue
        pieces = [p.strip() for p in re.split(_RELATION_SIGN, part)]
        bounds = [expand_mixed_numbers(p) for p in pieces if p != name]  # x > 1 1/3
        if len(bounds) != len(pieces) - 1 or not bounds:
            return False
        if any(letter.search(b) or not worked_out(b) for b in bounds):
            return False
    return True


def _rounded_from(number: str, exact: sp.Expr) -> bool:
    """Is `number` a decimal that `exact` rounds to at its places, with two significant
    digits at least (1.61 or 1.6 for 1.609344; not 2)?"""
    written = re.fullmatch(r"\s*-?(\d*)\.(\d+)\s*", number)
    if written is None or not exact.is_Rational:
        return False
    if len((written[1] + written[2]).lstrip("0")) < MIN_ROUNDED_DECIMALS:
        return False
    return bool(parse_value(number) == round_half_up(exact, len(written[2])))


def _check_quantity(
    target: str, exact: sp.Expr, candidate: str, expected: str | None, rounding: Rounding
) -> CheckResult:
    """'Convert 72 km/h to m/s': 20 or 20 m/s is right; a quantity in another unit is wrong
    when it is another quantity (2 m for 2000 m in km), and not judged when it is the same
    quantity unconverted (72 km/h)."""
    number, unit = split_unit(clean(candidate))
    if unit is None or same_unit(unit, target):
        result = _check_value(exact, number, expected, None, frozenset(), rounding)
        if result.verdict == "reject" and rounding == EXACT and _rounded_from(number, exact):
            # 1 mile is 1.609344 km exactly; "1.61 km" is how it is written, not a wrong value
            return CheckResult("abstain", "none", _ROUNDED_UNASKED, expected)
        return result
    value = parse_value(number)
    if not value.is_Rational:
        raise ParseError("a quantity that is not a plain number")
    converted = convert(Fraction(int(value.p), int(value.q)), unit, target)
    if sp.Rational(converted.numerator, converted.denominator) == exact:
        # not judged, and not left to a model either: it is not the answer asked
        return CheckResult(
            "abstain", "none", f"the same quantity, not in {target}", expected, conclusive=True
        )
    return CheckResult("reject", "evaluation", f"the exact value is {expected}", expected)


_FORM_PATTERNS = {
    "decimal": re.compile(r"-?(?:\d+|\d*\.\d+)"),
    "fraction": re.compile(r"-?(?:\d+|(\d+)\s*/\s*(\d+)|\(\((\d+)\)/\((\d+)\)\))"),
    "percent": re.compile(r"-?(?:\d+|\d*\.\d+)\s*%"),
}


_REPEATING_WRITTEN = re.compile(
    r"\d\.\d+(?:\.{3,}|…)|\\overline|\\dot|\d[\u0307\u0305]|\d\.\(\d+\)"
)


def _check_form(
    form: str,
    exact: sp.Expr,
    candidate: str,
    expected: str | None,
    units: frozenset[str],
    rounding: Rounding,
) -> CheckResult:
    """'Write 1/8 as a decimal': the value decides right or wrong; a right value in another
    form than asked (1/8 for 0.125, 45/100 for 9/20, 0.375 for 37.5%) is not judged."""
    if form == "prime_factors":
        return _check_prime_factors(exact, candidate, expected)
    asked_percent = form == "percent"
    result = _check_value(exact, candidate, expected, None, units, rounding, asked_percent)
    if result.verdict == "reject" and form == "percent" and not _PERCENT_SIGN.search(candidate):
        # "3/8 as a percent": 37.5 is the percent without its sign, not the value 37.5
        hundredfold = _check_value(100 * exact, candidate, expected, None, units, rounding)
        if hundredfold.verdict != "reject":
            return CheckResult("abstain", "none", "the percent without its sign", expected)
    if form == "simplest" and (result.verdict == "approve" or result.conclusive):
        # "4/2" for "Simplify 8/4": a division left is the value not simplified
        return _check_simplest(exact, candidate, expected, result)
    if result.verdict != "approve":
        return result
    repeating = exact.is_Rational and not terminating_decimal(exact)
    if form == "decimal" and repeating and _REPEATING_WRITTEN.search(candidate):
        return result  # 0.333..., 0.\overline{3}, 0.3̇, 0.(3): 1/3 written as a decimal
    written = clean(candidate).strip()
    match = _FORM_PATTERNS[form].fullmatch(written)
    numbers = [int(n) for n in (match.groups() if match else ()) if n is not None]
    if match is None or (len(numbers) == 2 and sp.gcd(*numbers) != 1):
        return CheckResult("abstain", "none", f"the right value, not written as asked ({form})")
    return result


_FACTOR = r"\(?\d+\)?(?:\^\(?\d+\)?)?"
_PRODUCT_OF_POWERS = re.compile(rf"{_FACTOR}(?:\s*\*\s*{_FACTOR})*")


def _check_prime_factors(exact: sp.Expr, candidate: str, expected: str | None) -> CheckResult:
    """'Find the prime factorization of 12': 2 × 2 × 3, 2^2 × 3, '12 = 2×2×3' are right; a
    product with a factor that is not prime (4 × 3, 1 × 2 × 2 × 3, or 12 itself) is what a
    teacher marks wrong, as is another number; another notation is not judged."""
    written = clean(candidate).strip()
    named = re.match(r"^\s*(\d+)\s*=\s*", written)
    if named is not None and int(named.group(1)) == exact:
        written = written[named.end() :]
    if _PRODUCT_OF_POWERS.fullmatch(written) is None:
        return CheckResult("abstain", "none", "not written as a product of numbers", expected)
    factors = [re.findall(r"\d+", f) for f in re.split(r"\s*\*\s*", written)]
    product = sp.Integer(1)
    for base, *power in factors:
        product *= sp.Integer(int(base)) ** int(power[0] if power else 1)
    if product != exact:
        return CheckResult(
            "reject", "evaluation", f"the product is {product}, not {exact}", expected
        )
    if not all(sp.isprime(int(base)) for base, *_ in factors):
        return CheckResult("reject", "evaluation", "a factor is not prime", expected)
    return CheckResult("approve", "evaluation", "a product of primes equal to the number", expected)


# c√n/d as written ("3\\sqrt{2}", "2√2", "\\frac{3\\sqrt{2}}{2}", "sqrt(2)/2"), brackets and
# spaces aside.
_SIMPLE_ROOT = re.compile(r"-?(?:(\d+)\*?)?sqrt(\d+)(?:/(\d+))?")


def _check_simplest(
    exact: sp.Expr, candidate: str, expected: str | None, right: CheckResult
) -> CheckResult:
    """'Simplify 6/8': 3/4 is right; 6/8 or 12/16, the right value not simplified, is not the
    answer to the question asked (incorrect); 0.75 or 1 1/2 (another form) is not judged. A
    root is simplest as c√n/d with n square-free and c/d in lowest terms (3√2 for √18)."""
    written = clean(candidate).strip()
    if exact.is_Rational:
        match = _FORM_PATTERNS["fraction"].fullmatch(written)
        if match is None:
            return CheckResult("abstain", "none", "the right value, not as a fraction", expected)
        numbers = [int(n) for n in match.groups() if n is not None]
        if len(numbers) == 2 and sp.gcd(*numbers) != 1:
            return CheckResult(
                "reject", "evaluation", f"not in lowest terms (simplest: {expected})", expected
            )
        return right
    root = _SIMPLE_ROOT.fullmatch(re.sub(r"[\s()]", "", written))
    if root is not None:
        outside, radicand, below = (int(n) if n else 1 for n in root.groups())
        square_free = radicand > 1 and all(power == 1 for power in sp.factorint(radicand).values())
        if square_free and sp.gcd(outside, below) == 1:
            return right
    return CheckResult("abstain", "none", "the right value, simplest form not certain", expected)


def _check_solutions(
    problem: MathProblem,
    truth: SolutionSet,
    candidate: str,
    expected: str | None,
    units: frozenset[str],
    rounding: Rounding = EXACT,
) -> CheckResult:
    names = [v.name for v in problem.variables]
    # "Solve ln(x) = 1": x = e, Euler's number, when the problem has no letter e.
    letters = {s.name for eq in problem.equations for s in eq.free_symbols}
    euler = "e" not in letters and any(
        value.has(sp.E, sp.exp) for solution in truth.assignments for value in solution.values()
    )
    read = read_candidate(candidate, names, units, euler=euler)
    if read.kind == "all":
        verdict = "approve" if truth.kind == "all" else "reject"
        return CheckResult(
            verdict, "evaluation", "whether every real number is a solution", expected
        )
    if truth.kind == "all":
        if read.kind == "none":
            return CheckResult("reject", "evaluation", "every real number is a solution", expected)
        return CheckResult("reject", "evaluation", "infinitely many solutions", expected)
    if read.kind == "none":
        verdict = "approve" if not truth.assignments else "reject"
        return CheckResult(verdict, "evaluation", "whether any real solution exists", expected)
    proposals = _as_assignments(read, problem, candidate)
    if _has_duplicates(proposals):
        return CheckResult("abstain", "none", "a solution is listed twice", expected)
    holds = [_holds(problem, proposal, read.text, rounding) for proposal in proposals]
    for proposal, held in zip(proposals, holds, strict=True):
        if held is False:  # one wrong value decides, whatever the others
            return CheckResult("reject", "substitution", _failure(problem, proposal), expected)
    if None in holds:
        return CheckResult("abstain", "none", "substitution could not decide", expected)
    if not read.worked_out:  # "x = 2 + 2", "x = 400%": the right value, not the answer asked
        return CheckResult("abstain", "none", _NOT_WORKED_OUT, expected, conclusive=True)
    if not truth.assignments:
        return CheckResult("abstain", "none", "the checks disagree", expected)
    for solution in truth.assignments:
        matches = [
            _all_true(
                [close_enough(p[v], solution[v], read.text, rounding) for v in problem.variables]
            )
            for p in proposals
        ]
        if not any(matches):
            if None in matches:
                return CheckResult("abstain", "none", _ROUNDED_UNASKED, expected)
            return CheckResult("reject", "substitution", "a solution is missing", expected)
    return CheckResult("approve", "substitution", "every equation and condition holds", expected)


def _breaks_the_problem(
    problem: MathProblem, candidate: str, units: frozenset[str], rounding: Rounding
) -> str | None:
    """Where the solution set is not certain (arctan(1/x) + arctan(1/(x+2)) = arctan(4/(x+3)),
    x⁵ = 32), an exact value offered as a solution that breaks an equation or a condition is
    still wrong: why, or None. A decimal, or an answer marked or asked rounded, may be a root
    rounded (1.414 for √2): never judged here."""
    if problem.target.kind != "solutions" or rounding != EXACT:
        return None
    read = read_candidate(candidate, [v.name for v in problem.variables], units)
    if read.kind not in ("values", "assignments") or re.search(r"\d\s*\.\s*\d", read.text):
        return None
    for proposal in _as_assignments(read, problem, candidate):
        if set(proposal) != set(problem.variables):
            continue
        # Numerically a root of every equation (√(14+6√5) − 3 is √5): only the conditions are
        # checked, since simplify could run for minutes proving the equations exact.
        roots = all(
            differ_numerically(sp.Add(eq.lhs, -eq.rhs).xreplace(proposal)) is False
            for eq in problem.equations
        )
        if not roots and satisfies(problem, proposal) is False:
            return _failure(problem, proposal)
        if roots and any(c.holds(proposal) is False for c in problem.conditions):
            return _CONDITION_BROKEN
    return None


_CONDITION_BROKEN = "a condition of the problem does not hold"


def _has_duplicates(proposals: list[dict[sp.Symbol, sp.Expr]]) -> bool:
    """'2, 2, 3' for x² - 5x + 6 = 0: a typo, or a claim about multiplicity? Do not judge."""
    return any(
        set(a) == set(b) and all(same_value(a[v], b[v]) for v in a)
        for i, a in enumerate(proposals)
        for b in proposals[i + 1 :]
    )


def _failure(problem: MathProblem, proposal: dict[sp.Symbol, sp.Expr]) -> str:
    """Which equation or condition the proposal breaks, for the caution message."""
    if set(proposal) != set(problem.variables):
        return "not every variable has a value"
    for eq in problem.equations:
        try:
            lhs = evaluate(eq.lhs.xreplace(proposal))
            rhs = evaluate(eq.rhs.xreplace(proposal))
        except READ_ERRORS:
            continue
        if not same_value(lhs, rhs):
            return f"substituting gives {sp.sstr(lhs)} ≠ {sp.sstr(rhs)}"
    return _CONDITION_BROKEN


def _as_assignments(
    read: Candidate, problem: MathProblem, original: str
) -> list[dict[sp.Symbol, sp.Expr]]:
    variables = problem.variables
    if read.kind == "assignments":
        by_name = {v.name: v for v in variables}
        out = []
        for a in read.assignments:
            if set(a) != set(by_name):
                if len(variables) > 1 and set(a) < set(by_name):
                    assigned = {by_name[k]: v for k, v in a.items()}
                    given = _given_values(problem)
                    if set(variables) - set(assigned) <= set(given):
                        # "Solve 2x + 3 = 11y with y = 1": y's value is the problem's
                        out.append({**given, **assigned})
                        continue
                    return [assigned]  # incomplete: rejected below
                raise ParseError("assignment does not match the variables")
            out.append({by_name[k]: v for k, v in a.items()})
        return out
    values = list(read.values)
    if len(variables) == 1:
        if read.tuple_form and "{" not in original:
            raise ParseError("(a, b) for one unknown: a list or an interval?")
        return [{variables[0]: v} for v in values]
    if len(values) != len(variables) or "{" in original:
        raise ParseError("cannot match the answer to the variables (a set has no order)")
    alphabetical = sorted(variables, key=lambda s: s.name)
    if alphabetical != variables:
        raise ParseError("a tuple whose order is ambiguous")
    return [dict(zip(variables, values, strict=True))]


def _given_values(problem: MathProblem) -> dict[sp.Symbol, sp.Expr]:
    """The unknowns the problem itself fixes to a number (`y = 1` among its equations)."""
    given: dict[sp.Symbol, sp.Expr] = {}
    for eq in problem.equations:
        for letter, value in ((eq.lhs, eq.rhs), (eq.rhs, eq.lhs)):
            if isinstance(letter, sp.Symbol) and value.is_number:
                given[letter] = value
    return given


def _all_true(verdicts: list[bool | None]) -> bool | None:
    if all(v is True for v in verdicts):
        return True
    return False if False in verdicts else None


def _holds(
    problem: MathProblem,
    proposal: dict[sp.Symbol, sp.Expr],
    text: str,
    rounding: Rounding = EXACT,
) -> bool | None:
    if set(proposal) != set(problem.variables):
        return False  # a variable has no value: incomplete
    exact = satisfies(problem, proposal)
    if exact is not False or len(problem.variables) != 1:
        return exact
    truth = solve_problem_set(problem)  # a rounded root (1.414 for √2) is the root, rounded
    if truth is None:
        return None
    (x,) = problem.variables
    verdicts = [close_enough(proposal[x], s[x], text, rounding) for s in truth.assignments]
    if True in verdicts:
        return True
    return None if None in verdicts else False


_MONEY = re.compile(
    r"[$¢€£¥元角分]|\b(?:dollars?|cents?|money|cost\w*|price\w*|pa(?:y|id|ys)|spen[dt]\w*|earn\w*"
    r"|sav\w*|buy\w*|bought|sells?|sold|charg\w*|fee|wage\w*|salary|budget|profit|change"
    r"|how\s+much)\b|多少钱",
    re.IGNORECASE,
)


def _asked(problem: str) -> str:
    """The question's own sentence: the last one with words in it."""
    sentences = [s for s in re.split(r"(?<=[.?!。？！])\s+", problem.strip()) if s.strip()]
    return sentences[-1] if sentences else problem


def answers_equivalent(a: str, b: str, problem: str | None = None) -> bool | None:
    """Are two final answers the same value? None when the strict reader cannot read both.

    The same reader as the checker: a currency sign, and a trailing unit the problem itself
    uses, may go; "990k", "990 thousand", "not 990", "990 per day" are not read. math-verify is
    asked only about plain LaTeX numbers (\\dfrac{1}{2}), never about words or suffixes."""
    a, b = squeeze_space(a), squeeze_space(b)
    problem = None if problem is None else squeeze_space(problem)
    if problem is not None and (choices := choices_in(problem)) is not None:
        # "B" and "15" for "What is 7 + 8? A. 14 B. 15 …": the option's text is the answer
        a, b = (choices.options.get(chosen(x, choices) or "", x) for x in (a, b))
        problem = choices.stem
    a, b = as_digits(a), as_digits(b)  # "twelve", 十二: the digits they spell
    # A word after a number is read only as what the question asks ("12 apples" for "How many
    # apples …"): "12 boxes" or "12 weeks" is another count, however the problem uses the word.
    question = _asked(problem) if problem else ""
    counted = _counted(problem, question) if problem else ""
    units = _units(problem, counted) if problem else frozenset()
    a, b = _without_measure_word(a, counted), _without_measure_word(b, counted)
    if problem is not None and ("$" in a) != ("$" in b) and not _MONEY.search(question):
        return None  # "$43" for "How many marbles …?": a sum of money where none is asked
    if problem is not None:
        quantity = _same_quantity(a, b, problem, question)
        if quantity is None or isinstance(quantity, bool):
            return quantity
    pair_a = quotient_and_remainder(normalized_or_as_written(a))
    pair_b = quotient_and_remainder(normalized_or_as_written(b))
    if pair_a is not None and pair_b is not None:
        return pair_a == pair_b  # "3 余 2" and "3 R 2"
    said_a, said_b = yes_no(a), yes_no(b)
    if said_a is not None and said_b is not None:
        return said_a == said_b
    if (ordered := _same_order(a, b)) is not None:
        return ordered  # "3/4 > 5/7" and "5/7 < 3/4"
    if re.search(r"[<>≤≥∞∪]|\\infty", f"{a} {b}"):
        return _same_solution_set(a, b)
    # "x = 4" and "4" are the same answer when one variable is named (on either side).
    names = sorted(set(re.findall(r"(?<![a-zA-Z])([a-zA-Z])\s*=", f"{a} ; {b}")))
    try:
        ca, cb = read_candidate(a, names, units), read_candidate(b, names, units)
        if ca.worked_out != cb.worked_out:
            return None  # "3/4 + 5/6" is 19/12 in value, not the same answer
        # Both worked out, or both written alike ("24%" and "24%", "0.333..." twice): by value.
        # An answer with its work left undone is kept from approval by the check itself
        # (`conclusive`), not here: the grader and the bank compare what was written.
        if {ca.kind, cb.kind} & {"none", "all"}:  # "no real solution", "all real numbers"
            return ca.kind == cb.kind
        if len(names) > 1 and ca.kind == cb.kind == "assignments":  # "x = 6, y = 4"
            return _same_assignments(ca.assignments, cb.assignments)
        va, vb = _values_of(ca, names), _values_of(cb, names)
        if va is not None and vb is not None and len(va) == len(vb) == 1:
            return same_value(va[0], vb[0])
        if va is not None and vb is not None:
            point_a, point_b = (c.tuple_form and "{" not in t for c, t in ((ca, a), (cb, b)))
            if point_a and point_b:  # "(3, 2)" and "(2, 3)": two points
                return _in_order(va, vb)
            if ("{" in a and "{" in b) or "assignments" in (ca.kind, cb.kind):
                return _same_set(va, vb)  # two sets, or one unknown's values: in any order
            # "(3, 2)" and "2, 3", "4 and 7" and "7 and 4": an ordered pair, or roots listed?
            # In the same order they are the same answer either way.
            return True if _in_order(va, vb) else None
    except READ_ERRORS:
        pass
    if "=" not in a + b and (same := _same_expression(a, b)) is not None:
        return same
    if _plain_latex(a) and _plain_latex(b):
        same = math_verify_equivalent(a, b)
        numbers = _latex_number(a) and _latex_number(b)
        return None if same and not numbers and a.strip() != b.strip() else same
    return None


_UNMEASURED = object()  # neither answer is a measured quantity: read them as values
_TRAILING_WORD = re.compile(r"\d\s*([^\W\d_]+)\s*[.。]?\s*$")


def _same_quantity(a: str, b: str, problem: str, question: str) -> bool | object | None:
    """Two answers with units: the same quantity? "1200 kg" is not "1200 grams" (a unit the
    problem uses is no longer dropped when the other answer names another); "1.2 kg" is
    "1200 g"; a bare number is in the unit the question asks for ("1200" for "How many
    grams …" is "1200 g", not "1200 kg"), and where it asks for none while the problem
    measures in two units of that kind, it cannot be told (None). Two answers in words the
    unit table does not list ("30 yuan", "30 jiao") are the same only in the same word.
    `_UNMEASURED` when neither names a unit."""
    money = _money(a), _money(b)
    if money != (None, None):
        return _same_money(money, (a, b), problem, question)
    try:
        ma, mb = measured(normalize(a)), measured(normalize(b))
    except ParseError:
        return None
    asked = asked_unit(question)
    if ma is not None and mb is not None:
        converted = in_unit(ma[0], ma[1], mb[1])
        if converted is None or converted != mb[0]:
            return None if converted is None else False
        # "1.2 kg" and "1200 g" for "How many grams …": the same quantity, one not as asked
        return asked is None or (same_unit(ma[1], asked) and same_unit(mb[1], asked)) or None
    if ma is None and mb is None:
        words = [_TRAILING_WORD.search(x) for x in (a, b)]
        if words[0] and words[1] and _singular(words[0][1]) != _singular(words[1][1]):
            return None  # "30 yuan" and "30 jiao", "20个" and "20只"
        return _UNMEASURED
    quantity, bare = (ma, b) if ma is not None else (mb, a)
    assert quantity is not None
    try:
        value = Fraction(bare.replace(",", "").strip())
    except (ValueError, ZeroDivisionError):
        return None
    if asked is None:
        # The bare number is in that unit only where the question names it alone among its
        # kind: "72 hours" for clips, "12 weeks" for "How much money …", "3 km … 3000 m" no.
        kindred = [u for u in units_in(question) if in_unit(Fraction(1), u, quantity[1])]
        if not any(same_unit(u, quantity[1]) for u in kindred) or any(
            not same_unit(u, quantity[1]) for u in kindred
        ):
            return None
        return value == quantity[0]
    converted = in_unit(quantity[0], quantity[1], asked)
    if converted is None or converted != value:
        return None if converted is None else False
    return same_unit(quantity[1], asked) or None  # "2.5 m" for "… centimeters": not as asked


_AMOUNT = r"(\d+(?:\.\d+)?)"
_SUMS = (  # (pattern, unit)
    (re.compile(rf"\s*\$\s*{_AMOUNT}\s*(?:dollars?)?\s*\.?\s*", re.I), "dollars"),
    (re.compile(rf"\s*{_AMOUNT}\s*(?:dollars?|USD)\s*\.?\s*", re.I), "dollars"),
    (re.compile(rf"\s*{_AMOUNT}\s*(?:cents?|¢)\s*\.?\s*", re.I), "cents"),
    (re.compile(rf"\s*[¥￥]?\s*{_AMOUNT}\s*元\s*。?\s*"), "元"),
    (re.compile(rf"\s*{_AMOUNT}\s*角\s*。?\s*"), "角"),
)
# Each unit of money: its currency and its value in the currency's main unit.
_MONEY_UNITS = {
    "dollars": ("$", Fraction(1)),
    "cents": ("$", Fraction(1, 100)),
    "元": ("元", Fraction(1)),
    "角": ("元", Fraction(1, 10)),
}
_ASKED_MONEY = re.compile(
    r"\b(?:in|how\s+many)\s+(cents|dollars)\b|(?:多少|几)\s*(元|角)", re.IGNORECASE
)


def _money(text: str) -> tuple[Fraction, str] | None:
    """'$0.50', '50 cents', '7元', '70角': the amount and its unit."""
    for pattern, unit in _SUMS:
        if (match := pattern.fullmatch(text)) is not None:
            return Fraction(match[1]), unit
    return None


def _same_money(
    sums: tuple[tuple[Fraction, str] | None, tuple[Fraction, str] | None],
    texts: tuple[str, str],
    problem: str,
    question: str,
) -> bool | None:
    """Two sums ("50 cents" and "$0.50" are one), or a sum and a bare number, read in the
    unit the question asks for ("700" for "… in cents?" is not "$700"), else in the only one
    the problem uses; None when that cannot be told, or when a sum is the same but not in
    the unit asked ("50 cents" for "… in dollars?")."""
    named = _ASKED_MONEY.search(question)
    asked = None if named is None else (named[1] or named[2]).lower()
    first, second = sums
    if first is None or second is None:
        known, bare = (first, texts[1]) if first is not None else (second, texts[0])
        assert known is not None
        try:
            number = Fraction(bare.replace(",", "").strip())
        except (ValueError, ZeroDivisionError):
            return None
        if asked is None and not _MONEY.search(question):
            return None  # "12 cents" for "How many apples …": no sum is asked
        unit = asked or _money_unit_used(problem, known[1])
        if unit is None:
            return None
        first, second = known, (number, unit)
    (a, unit_a), (b, unit_b) = first, second
    (currency_a, scale_a), (currency_b, scale_b) = _MONEY_UNITS[unit_a], _MONEY_UNITS[unit_b]
    if currency_a != currency_b:
        return None
    if a * scale_a != b * scale_b:
        return False
    return asked is None or (unit_a == asked and unit_b == asked) or None


def _money_unit_used(problem: str, unit: str) -> str | None:
    """The unit a bare number beside a sum in `unit` is in: the one unit of that currency the
    problem uses ("25 cents": cents), the sum's own where it uses none ("How much does he
    spend?"), else None."""
    if _MONEY_UNITS[unit][0] == "$":
        dollars = "$" in problem or re.search(r"\bdollars?\b", problem, re.I) is not None
        cents = re.search(r"\bcents?\b|¢", problem, re.I) is not None
        used = {(True, False): "dollars", (False, True): "cents", (False, False): unit}
        return used.get((dollars, cents))
    used = {(True, False): "元", (False, True): "角", (False, False): unit}
    return used.get(("元" in problem, "角" in problem))


def _singular(word: str) -> str:
    word = word.lower()
    return word[:-2] if word.endswith("es") else word[:-1] if word.endswith("s") else word


def parse_value_expression(text: str) -> sp.Expr:
    """An expression with letters, read by both parsers, which must agree."""
    expression = parse_expression(space_products(text), answer=True)
    if not readings_agree(space_products(text), expression):
        raise ParseError("two readings of the answer disagree")
    return expression


def _same_expression(a: str, b: str) -> bool | None:
    """'x^2 + 5x + 6' and '6 + 5x + x^2': equal for every value of the letters."""
    try:
        ea = parse_value_expression(clean(a))
        eb = parse_value_expression(clean(b))
        if not (ea.free_symbols or eb.free_symbols):
            return None
        return expression_equivalent(ea, eb)
    except READ_ERRORS:
        return None


def _order(text: str) -> tuple[sp.Expr, sp.Expr] | None:
    """'3/4 > 5/7' → (5/7, 3/4): two numbers, smaller first; None when not such a statement."""
    try:
        relation = _RELATION.fullmatch(clean(text))
        if relation is None or relation.group(2) not in ("<", ">"):
            return None
        left, right = parse_value(relation.group(1)), parse_value(relation.group(3))
    except READ_ERRORS:
        return None
    return (left, right) if relation.group(2) == "<" else (right, left)


def _same_order(a: str, b: str) -> bool | None:
    """Two statements ordering two numbers: the same order of the same numbers?"""
    first, second = _order(a), _order(b)
    if first is None or second is None:
        return None
    return all(same_value(x, y) for x, y in zip(first, second, strict=True))


def _same_solution_set(a: str, b: str) -> bool | None:
    """'x > 2' and '(2, ∞)': the same set of one unknown's values?"""
    letters = set(re.findall(r"(?<![a-zA-Z\\])([a-zA-Z])(?![a-zA-Z])", f"{a} {b}")) - {"U"}
    if len(letters) != 1:
        return None
    x = sp.Symbol(letters.pop())
    try:
        return same_set(read_set(a, x), read_set(b, x))
    except READ_ERRORS:
        return None


def _same_assignments(a: tuple[dict[str, sp.Expr], ...], b: tuple[dict[str, sp.Expr], ...]) -> bool:
    def same(x: dict[str, sp.Expr], y: dict[str, sp.Expr]) -> bool:
        return set(x) == set(y) and all(same_value(x[k], y[k]) for k in x)

    return all(any(same(x, y) for y in b) for x in a) and all(any(same(x, y) for x in a) for y in b)


def _values_of(candidate: Candidate, names: list[str]) -> tuple[sp.Expr, ...] | None:
    """The values of a candidate: its plain values, or those of one named variable."""
    if candidate.kind == "values":
        return candidate.values
    if candidate.kind == "assignments" and len(names) == 1:
        return tuple(solution[names[0]] for solution in candidate.assignments)
    return None


# What a question counts: "How many (red) apples …", "the (total) number of apples", 多少个苹果.
_ASKED_NOUNS = re.compile(
    r"\bhow\s+many\s+((?:[A-Za-z]+\s+){0,2}[A-Za-z]+)|\b(?:number|amount)\s+of\s+([A-Za-z]+)"
    r"|(?:多少|几)([\u4e00-\u9fff]{1,4})",
    re.IGNORECASE,
)


_HOW_MUCH = re.compile(r"\bhow\s+much\b|多少钱", re.IGNORECASE)
_COUNT_NOUN = re.compile(r"\d\s*([A-Za-z]{2,}|[\u4e00-\u9fff]{1,4})")


_MEASURE_WORD = re.compile(r"(.*\d)\s*([\u4e00-\u9fff])\s*")


def _without_measure_word(answer: str, counted: str) -> str:
    """ "12个" for "多少个苹果": the measure word the question counts in, gone ("12盒" stays)."""
    match = _MEASURE_WORD.fullmatch(answer)
    measures = {word[0] for word in counted.split() if "\u4e00" <= word[0] <= "\u9fff"}
    if match is None or match[2] not in measures or match[2] in UNITS:
        return answer  # 米 in "500米" is a unit of length, read as one
    return match[1]


def _counted(problem: str, question: str) -> str:
    """The words that may follow the number of an answer: what the question counts ("How many
    apples …" where the problem counts apples, boxes and weeks: apples); where it names
    nothing the problem counts ("How many sold?"), whatever the problem counts; after "how
    much" nothing (an amount: only units and currency follow it). `question`: its last
    sentence (`_asked`)."""
    if _HOW_MUCH.search(question):
        return ""
    asked = " ".join(" ".join(filter(None, m.groups())) for m in _ASKED_NOUNS.finditer(question))
    counts = set(_COUNT_NOUN.findall(problem))
    named = [w for w in asked.split() if w in counts]
    return " ".join(named) if named else f"{asked} {' '.join(counts)}"


_MATH_NAMES = frozenset({"pi", *FUNCTIONS})


def _units(problem_text: str, words_from: str | None = None) -> frozenset[str]:
    """The words a number may carry in an answer: the problem's (or those of `words_from`, its
    question), its units of measure, and dollars where it counts in $."""
    text = problem_text if words_from is None else words_from
    # Not a LaTeX command's name (\pi, \frac), nor a name of mathematics ("2 pi", "sqrt"):
    # an answer's "2\pi" is 2π, never 2 with a word the problem used.
    found = re.findall(r"(?<![\\\w])[^\W\d_]{2,}", text)
    words = frozenset(w.lower() for w in found) - _MATH_NAMES
    if "$" in problem_text:  # "$12 an hour": 10 dollars
        words |= {"dollar", "dollars"}
    # The currency signs it counts in: an answer in another one is not the amount asked for.
    words |= {sign for sign in CURRENCY_SIGNS if sign in problem_text.replace("￥", "¥")}
    try:
        return words | units_in(normalize(problem_text))
    except ParseError:
        return words | units_in(problem_text)


# One number in LaTeX: -\frac{3}{4}, \dfrac{19}{12}, 0.75 — no operation left to carry out.
_LATEX_NUMBER = re.compile(
    r"\$*\s*-?\s*(?:\d+(?:\.\d+)?|\\[dt]?frac\s*\{\s*\d+\s*\}\s*\{\s*\d+\s*\})\s*\$*"
)


def _latex_number(text: str) -> bool:
    return _LATEX_NUMBER.fullmatch(text.strip()) is not None


def _plain_latex(text: str) -> bool:
    return not re.search(r"[^0-9{}()+\-*/^., $\\]", re.sub(r"\\[a-zA-Z]+", "", text))


def _in_order(a: tuple[sp.Expr, ...], b: tuple[sp.Expr, ...]) -> bool:
    return len(a) == len(b) and all(map(same_value, a, b))


def _same_set(a: tuple[sp.Expr, ...], b: tuple[sp.Expr, ...]) -> bool:
    return all(any(same_value(x, y) for y in b) for x in a) and all(
        any(same_value(x, y) for x in a) for y in b
    )


def math_verify_equivalent(gold: str, candidate: str) -> bool | None:
    from math_verify import parse, verify  # heavy import, only inside the sandbox

    # math-verify extracts LaTeX from between delimiters; a bare "24\\sqrt{2}" is read only up
    # to what its fallback parser knows (24), so "24" would equal it. Delimited, it reads whole.
    gold, candidate = (text if "$" in text else f"${text}$" for text in (gold, candidate))
    try:
        gold_parsed = parse(gold, parsing_timeout=None)
        candidate_parsed = parse(candidate, parsing_timeout=None)
    except Exception:
        return None
    if not gold_parsed or not candidate_parsed:
        return None
    return bool(verify(gold_parsed, candidate_parsed, timeout_seconds=None))
