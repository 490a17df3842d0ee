"""Read a problem statement: its equations, side conditions and the question it asks — or None.

The reader accounts for every mathematical token. Each maximal run of math in the text must be
read as an equation, a condition (x > 5, 0 <= x < 2pi), the target of the question ("what is
the value of 8x + 2"), or a bare mention of a variable ("solve for x"); the prose around it may
only hold words that do not change the mathematics. A number, symbol or math word left over
("3/4 of the class", "x is even", "the remainder", "≠") means None: an abstention, not a guess.
A claimed answer ("The answer is x = 5", "答案是…") is stripped: it is never part of the problem.
Every expression is read twice (our parser and sympy's) and must agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

import sympy as sp

from app.symbolic.arrangements import read_arrangements
from app.symbolic.claims import Claim, read_claim
from app.symbolic.conditions import Condition, bind_interval, read_relation, word_conditions
from app.symbolic.congruences import Congruence, read_congruence
from app.symbolic.crosscheck import both_undefined, readings_agree
from app.symbolic.ellipsis import ELLIPSIS
from app.symbolic.evaluation import (
    UndefinedValue,
    evaluate,
    format_value,
    has_no_value,
    is_plain_number,
    real_throughout,
)
from app.symbolic.exclamation import exclamation_in_problem
from app.symbolic.expressions import ASK_TASK, TASKS, is_rational_expression
from app.symbolic.functions import function_values
from app.symbolic.letters import KNOWN_NAME, space_products
from app.symbolic.normalize import (
    FUNCTION_NAMES,
    ParseError,
    ellipsis_decimals,
    has_exercise_number,
    normalize,
    squeeze_space,
)
from app.symbolic.parsing import expand_mixed_numbers, parse_expression
from app.symbolic.prose import (
    accepts_arithmetic,
    find_aggregate,
    leftover_is_harmless,
    question_tail_is_plain,
    strip_claims,
    strip_instructions,
    target_after,
    target_before,
)
from app.symbolic.questions import (
    DECIMAL_PLACES,
    counted,
    decimal_places_of_product,
    has_top_level_sum,
    plain_number_text,
    read_comparison,
    read_property_question,
)
from app.symbolic.remainders import RemainderQuestion, read_remainder_question
from app.symbolic.rounding import find_rounding, find_significant
from app.symbolic.target import Target
from app.symbolic.units import read_conversion
from app.symbolic.wording import ask_form, ask_percent, percent_chain_story, spell_out

MAX_EQUATIONS = 4  # a formula and the three values it is given
MAX_VARIABLES = 4


@dataclass(slots=True)
class MathProblem:
    # "equations" | "arithmetic" | "inequality" | "expression" | "membership" (is x = 4 a
    # solution of …? — `expression` holds the value asked about) | "claim" (`claim`) |
    # "remainder" (`division`) | "congruence" (`congruence`)
    kind: str
    equations: list[sp.Eq] = field(default_factory=list)
    variables: list[sp.Symbol] = field(default_factory=list)
    expression: sp.Expr | None = None
    conditions: list[Condition] = field(default_factory=list)
    target: Target = field(default_factory=lambda: Target("solutions"))
    uses_decimals: bool = False
    source: str = ""
    rounding: int | None = None  # decimal places the question asks the answer rounded to
    # The form of answer asked: percent_number (24 for "what percent of 50 is 12"), decimal,
    # fraction, percent ("3/8 as a percent": 37.5%); None: any.
    form: str | None = None
    unit: str | None = None  # the unit the answer is asked in ("Convert 72 km/h to m/s")
    # "property": what is asked about `expression` (digits | digit_sum | units_digit |
    # factor_count | decimal_places) and
    # the answer, counted when the problem is read.
    asked: str | None = None
    count: int | None = None
    # "comparison": the two numbers as written and their values; `target` is max or min and
    # `form` the answer's style (which: a number; relation: "3/4 > 5/7").
    operands: tuple[tuple[str, sp.Expr], ...] = ()
    # "to 3 significant figures" (digits, False); "to a maximum of 12 significant digits"
    # (12, True): trailing zeros dropped. Arithmetic only.
    significant: tuple[int, bool] | None = None
    # Arithmetic whose expression both readings find divides by zero (12 ÷ 0 = ?): no value.
    undefined: bool = False
    # "claim": the relation between numbers asked to be judged ("True or false: 2 + 2 = 5").
    claim: Claim | None = None
    # "remainder": a division of whole numbers with a remainder ("17 ÷ 5 = ? 余 ?").
    division: RemainderQuestion | None = None
    # "congruence": 30x ≡ 42 (mod 47) or 7⁻¹ modulo 398, and the one residue asked.
    congruence: Congruence | None = None


# "15% of 80", "3 1/2 % of 200", "1/2 % of 200": the whole number before % is the percent;
# not before another operation. A chain ("20% of 50% of 80") is a product of its percents.
_PERCENT = r"(?<!\d)(?:\d+\s+)?\d+(?:\.\d+)?(?:\s*/\s*\d+)?"
_PERCENT_OF = re.compile(
    rf"(?<![\d./])((?:{_PERCENT}\s*%\s*of\s*)+)(\d+(?:\.\d+)?)"
    r"(?![\d./]|\s*[+\-*/^])",  # "25% of 80 + 20": of 80, or of 100?
    re.IGNORECASE,
)
_ONE_PERCENT_OF = re.compile(rf"({_PERCENT})\s*%\s*of\s*", re.IGNORECASE)


def _percents_of(match: re.Match[str]) -> str:
    percents = _ONE_PERCENT_OF.findall(match.group(1))
    return "".join(f"((({p})/100)*" for p in percents) + f"({match.group(2)})" + ")" * len(percents)


_DEGREES = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)\s*degrees?\b", re.IGNORECASE)
_TIMES_X = re.compile(r"(?<=\d)\s+[xX]\s+(?=\d)")
_MATH_CHARS = set("0123456789 +-*/^()=<>!|%°_\t")


def _prepare(text: str) -> tuple[str, str | None]:
    """The text in plain notation, and the form of answer it asks for (a number of percent,
    a decimal, a fraction, a percent), if any."""
    written, text = text, normalize(text)
    if exclamation_in_problem(written) or exclamation_in_problem(text):
        raise ParseError("'5 × 4!', '计算：5×4！': a factorial, or an exclamation?")
    if re.search(r"!=|\s!\s*=", text):
        raise ParseError("'x!=24': x! = 24 or x ≠ 24?")
    text = ellipsis_decimals(text)  # "0.333... as a fraction"; never in an answer (ellipsis.py)
    text = strip_instructions(strip_claims(text))
    if ELLIPSIS.search(text):  # left after the repeating decimals: "17÷5=？……？" asks for a
        raise ParseError("an ellipsis: a quotient and remainder, or something left out")
    percent, text = ask_percent(expand_mixed_numbers(text))
    form, text = ask_form(text)
    if percent and form:
        raise ParseError("two forms asked")
    text = spell_out(text)
    text = _PERCENT_OF.sub(_percents_of, text)
    text = _DEGREES.sub(r"\1°", text)
    if _TIMES_X.search(text):
        if re.search(r"=\s*[^\s?]", text):
            raise ParseError("'3 x 4' next to an equation: a product or the unknown x?")
        text = _TIMES_X.sub(" * ", text)
    if form is None and not percent and _only_percents_added(text):
        form = "percent"  # "15% + 5%": 20%, as the question writes its numbers
    form = "percent_number" if percent else form
    return space_products(expand_mixed_numbers(text)), form  # again: "3 1/2 %" above


_PERCENT_TERM = r"(?<!\d)\d+(?:\.\d+)?\s*%"
_PERCENTS_ADDED = re.compile(rf"{_PERCENT_TERM}(?:\s*[-+]\s*{_PERCENT_TERM})+")


def _only_percents_added(text: str) -> bool:
    """Is the text's only arithmetic a sum or difference of percents ("What is 15% + 5%?")?"""
    found = _PERCENTS_ADDED.search(text)
    if found is None:
        return False
    rest = text[: found.start()] + text[found.end() :]
    return not re.search(r"\d|%", rest)


# "a" before a noun is the article ("Is x = 4 a solution of …"), not the unknown a; before a
# connective ("a and b", "a is 3", "a = 2") it is the letter.
_LETTER_A = re.compile(r"(?<![A-Za-z])[aA](?![A-Za-z])")
_CONNECTIVE = (
    r"(?:and|or|is|are|if|when|where|be|equals|to|then|in|for|satisfies|satisfy|so|such|with"
    rf"|{FUNCTION_NAMES}|pi)[a-zA-Z]?\b"
)
_ARTICLE_A = re.compile(rf"(?<![A-Za-z])[aA]\s+(?!{_CONNECTIVE})(?=[A-Za-z]{{2,}})", re.IGNORECASE)

_ONE_OF_SEVERAL = re.compile(r"\s+(?:solution|root|value|zero)s?\b", re.IGNORECASE)


def _articles(text: str) -> set[int]:
    """Positions of the article "a"; an "a" that is also a letter of the math elsewhere is
    one reading too many (abstain)."""
    articles = {m.start() for m in _ARTICLE_A.finditer(text)}
    if any(_ONE_OF_SEVERAL.match(text, i + 1) for i in articles):
        raise ParseError("'a solution': which one, when there are several?")
    if articles and any(m.start() not in articles for m in _LETTER_A.finditer(text)):
        raise ParseError("'a' is both an article and a letter here")
    return articles


def _math_mask(text: str) -> list[bool]:
    mask = [ch in _MATH_CHARS for ch in text]
    articles = _articles(text)
    for word in re.finditer(r"[A-Za-z]+", text):
        is_math = len(word.group()) == 1 or bool(KNOWN_NAME.fullmatch(word.group()))
        is_math = is_math and word.start() not in articles
        for i in range(word.start(), word.end()):
            mask[i] = is_math
    for i, ch in enumerate(text):  # a decimal point, not a full stop
        if ch == "." and i + 1 < len(text) and text[i + 1].isdigit():
            mask[i] = True
        if ch == "_" and not re.search(r"(?:log|root)\s*$", text[:i]):
            mask[i] = False  # "is_correct" is a word; only log_b and root_n use "_"
    return mask


def math_runs(text: str) -> list[tuple[int, int]]:
    mask = _math_mask(text)
    spans: list[tuple[int, int]] = []
    start = None
    for i, is_math in enumerate([*mask, False]):
        if is_math and start is None:
            start = i
        elif not is_math and start is not None:
            s, e = start, i
            while s < e and text[s].isspace():
                s += 1
            while e > s and text[e - 1].isspace():
                e -= 1
            if s < e:
                spans.append((s, e))
            start = None
    return spans


# Word problems repeat their numbers ("2", "3", "20": 216 distinct texts in 1,034 parses of
# 500 GSM8K questions); an expression is immutable, so one reading serves every repeat.
@lru_cache(maxsize=2048)
def _parse_checked(text: str, undefined: bool = False) -> sp.Expr:
    """Both readings of one expression, which must agree. `undefined`: both may find that it
    divides by zero (12 ÷ 0 = ?: read, with no value; only arithmetic takes it)."""
    expr = parse_expression(text, undefined=undefined)
    if not readings_agree(text, expr) and not (undefined and both_undefined(text, expr)):
        raise ParseError(f"two readings of {text!r} disagree")
    return expr


# "Solve for x", "solve for x and y", "… = 10. Find x.", "求 x": a bare letter anywhere else
# ("what is a:b", "x to the y") asks something the reader does not model.
_FOR = re.compile(r"\b(?:for|find|determine)\s*$|求\s*$", re.IGNORECASE)
_LIST_GAP = re.compile(r"\s*(?:,|and)?\s*", re.IGNORECASE)


def _is_mention(run: str) -> bool:
    return bool(re.fullmatch(r"[a-zA-Z](?:\s+[a-zA-Z])*", run))


def extract_problem(text: str) -> MathProblem | None:
    """The math problem in `text`, or None when it is not one this reader is sure about."""
    text = squeeze_space(text)
    try:
        problem = _read(text)
    except (ParseError, TypeError, ValueError, ZeroDivisionError, RecursionError):
        return None
    if problem is not None and not _angles_in_a_known_unit(problem, text):
        return None
    if problem is not None and _complex_unknown(problem):
        return None
    return problem


def _complex_unknown(problem: MathProblem) -> bool:
    """An equation in z alone, beyond a linear one: z names a complex number (MATH's "Find
    all the solutions to z^4 = -4"), and its non-real solutions are asked; this reader
    solves over the reals only ("no solutions" for z^2 = -4 is wrong there)."""
    if problem.kind != "equations" or [v.name for v in problem.variables] != ["z"]:
        return False
    (z,) = problem.variables
    for equation in problem.equations:
        difference = sp.expand((equation.lhs - equation.rhs).doit())  # read unevaluated
        if not difference.is_polynomial(z) or sp.Poly(difference, z).degree() > 1:
            return True
    return False


# sin … csc and their inverses (asin 1/2: 30° or π/6?), wherever an angle's unit matters.
TRIGONOMETRIC = (
    sp.functions.elementary.trigonometric.TrigonometricFunction,
    sp.functions.elementary.trigonometric.InverseTrigonometricFunction,
)
_RADIANS = re.compile(r"π|(?<![a-z])pi\b|radians?|弧度", re.IGNORECASE)


def _angles_in_a_known_unit(problem: MathProblem, text: str) -> bool:
    """sin 30 or sin x = 1/2 with neither ° nor π: degrees or radians? In a K12 problem
    usually degrees; read as radians, x = 30 would be refuted. Only angles written in degrees
    (sin 30°: the parser turns them into multiples of π) or a problem stated in radians."""
    if _RADIANS.search(text):
        return True
    residuals = [_as_residual(eq) for eq in problem.equations]
    parts: list[sp.Basic] = [*residuals]
    parts += [side for c in problem.conditions for side in (c.lhs, c.rhs) if side is not None]
    if problem.expression is not None:
        parts.append(problem.expression)
    for part in parts:
        for angle in (a for f in part.atoms(TRIGONOMETRIC[0]) for a in f.args):
            if angle.free_symbols or not angle.has(sp.pi):
                return False
        if part.atoms(TRIGONOMETRIC[1]) and not (part in residuals and _angles_only_added(part)):
            return False  # arccos 0: 90 or π/2? Only an equation's residual can cancel it
    return True


def _as_residual(equation: sp.Eq) -> sp.Expr:
    return sp.Add(equation.lhs, -equation.rhs)


def _angles_only_added(residual: sp.Basic) -> bool:
    """arctan(1/x) + arctan(1/(x+2)) - arctan(4/(x+3)) = 0 has the same solutions in degrees
    and in radians: the residual is linear and homogeneous in the inverse functions' values,
    so the unit's factor cancels. arctan x = 1, sin(arcsin x): it does not."""
    if not isinstance(residual, sp.Expr):
        return False
    inverses = list(residual.atoms(TRIGONOMETRIC[1]))
    if any(a.has(*TRIGONOMETRIC) for f in inverses for a in f.args):
        return False  # arctan(arctan x): the inner angle's unit matters
    angles = [sp.Dummy() for _ in inverses]
    scale = sp.Dummy(positive=True)
    in_angles = residual.xreplace(dict(zip(inverses, angles, strict=True)))
    if in_angles.has(*TRIGONOMETRIC):
        return False  # an angle's function taken again: sin(arcsin x)
    scaled = in_angles.xreplace({a: scale * a for a in angles})
    return bool(sp.expand(scaled - scale * in_angles) == 0)


# "5 +- 3", "10 +/- 2": ASCII for ± (answers read it so), or plus a negative? Not read either
# way; "3 + -2", spaced, adds a negative number.
_PLUS_MINUS = re.compile(r"\+-|-\+|\+/-|±|∓")


def _read(original: str) -> MathProblem | None:
    congruence = read_congruence(original)  # before normalize, which refuses \pmod
    if congruence is not None:  # "the smallest positive x with 30x ≡ 42 (mod 47)"
        return MathProblem("congruence", source=original, congruence=congruence)
    worked_in = function_values(normalize(original))
    if worked_in is not None:  # "If f(x) = 2x + 1, what is f(3)?": the question, f worked in
        return _read(worked_in)
    if has_exercise_number(normalize(original)):
        return None  # an exercise's number or a factor: not read either way
    if _PLUS_MINUS.search(normalize(original)):
        return None
    division = read_remainder_question(normalize(original))
    if division is not None:  # "17 ÷ 5 = ? 余 ?": before the ellipsis is refused
        return MathProblem("remainder", source=original, division=division)
    arrangements = read_arrangements(original)
    if arrangements is not None:  # "How many ways can the letters of ELEVEN be arranged?"
        return MathProblem("arithmetic", expression=arrangements, source=original)
    conversion = read_conversion(normalize(original))
    if conversion is not None:
        value, _, asked_unit = conversion
        return MathProblem("arithmetic", expression=value, source=original, unit=asked_unit)
    story = percent_chain_story(normalize(original))
    if story is not None:  # "先降价20%再提价20%，现价是原价的百分之几？"
        arithmetic, percent = story
        return MathProblem(
            "arithmetic",
            expression=_parse_checked(arithmetic),
            uses_decimals=True,  # a price
            source=original,
            form="percent_number" if percent else None,
        )
    is_question, question = _question(normalize(original), original)
    if is_question:
        return question  # the words change what is asked: read here, or not at all
    text, form = _prepare(original)
    expression_task = _expression_task(text)
    if expression_task is not None:
        return expression_task
    membership = _membership_question(text)
    if membership is not None:
        return membership
    claim = read_claim(text, _parse_checked, evaluate)
    if claim is not None:
        return MathProblem("claim", source=text, claim=claim)
    rounding, text = find_rounding(text)
    significant, text = find_significant(text)
    if significant is not None and rounding is not None:
        raise ParseError("decimal places and significant figures both asked")
    aggregate, text = find_aggregate(text)
    counting = aggregate is not None and aggregate.kind == "count"
    conditions, text = word_conditions(text)
    equations: list[sp.Eq] = []
    expressions: list[tuple[str, sp.Expr]] = []
    target: Target | None = aggregate
    consumed: list[tuple[int, int]] = []
    mentions: set[str] = set()
    joinable: list[tuple[int, int]] = []  # equations, conditions, mentions: "and" may join them
    previous_mention = False
    prev_end = 0
    runs = math_runs(text)
    for index, (start, end) in enumerate(runs):
        run = text[start:end]
        gap = text[prev_end:start]
        asked_before = target_before(gap)
        asked_after = target_after(text[end:])
        prev_end = end
        asked = asked_before or asked_after
        if asked is not None and "=" not in run.rstrip("= ") and not re.search("[<>]", run):
            if target is not None:
                raise ParseError("two questions")
            next_start = runs[index + 1][0] if index + 1 < len(runs) else len(text)
            if asked_before and not question_tail_is_plain(text[end:next_start]):
                raise ParseError("words after the asked expression may change it")
            kind, length = asked
            target = Target(kind, _parse_checked(run.rstrip("= "), undefined=True))
            consumed.append((start - length, end) if asked_before else (start, end + length))
            continue
        consumed.append((start, end))
        joinable.append((start, end))
        mention_follows, previous_mention = previous_mention, False
        if re.search(r"<|>", run):
            conditions.extend(read_relation(run, _parse_checked))
        elif "=" in run:
            sides = run.split("=")
            if len(sides) > 2:
                raise ParseError("chained equalities")
            lhs_text, rhs_text = sides[0].strip(), sides[1].strip()
            if not lhs_text:
                raise ParseError("an equation without a left side")
            if not rhs_text:  # "3/4 + 5/6 = ?": the expression is the question
                expressions.append((run, _parse_checked(lhs_text, undefined=True)))
                continue
            lhs, rhs = _parse_checked(lhs_text), _parse_checked(rhs_text)
            if not (lhs.free_symbols | rhs.free_symbols):
                raise ParseError("an equality between numbers is a claim, not a problem")
            equations.append(sp.Eq(lhs, rhs, evaluate=False))
        elif _is_mention(run):
            if not (_FOR.search(gap) or (mention_follows and _LIST_GAP.fullmatch(gap))):
                raise ParseError("a bare letter is only read in 'solve for x (and y)'")
            mentions.update(run.split())
            previous_mention = True
        else:
            expressions.append((run, _parse_checked(run, undefined=True)))
    leftover = _blank(text, consumed)
    if not leftover_is_harmless(leftover, text, joinable, counting):
        return None
    # A decimal or a percent in the problem: a decimal answer (7% of 80 is 5.6, not 28/5).
    uses_decimals = bool(re.search(r"\d\.\d", text) or "%" in normalize(original))
    if significant is not None and (equations or conditions or mentions or form):
        return None  # significant figures of each root, of a percent…: not read
    parts = [e for _, e in expressions] + ([target.expression] if target else [])
    if (equations or conditions or mentions) and any(
        e is not None and has_no_value(e) for e in parts
    ):
        return None  # "If x = 3, what is x/0?": only plain arithmetic may have no value
    if equations:
        problem = _equation_problem(equations, conditions, target, expressions, text)
        if problem is None or not mentions <= {v.name for v in problem.variables}:
            return None  # "solve for y" when there is no y, "find a solution": which one?
        if mentions and mentions != {v.name for v in problem.variables}:
            # "Solve for x: a x = 6 where a = 2": the answer is x, not every letter.
            if len(mentions) != 1 or problem.target.kind != "solutions":
                return None
            # Only letters given a value ("where a = 2") are not asked; "What is y = x + 10?"
            # asks for y (x was answered, verified, in its place).
            given = {
                side.name
                for eq in equations
                for side, other in ((eq.lhs, eq.rhs), (eq.rhs, eq.lhs))
                if isinstance(side, sp.Symbol) and not other.free_symbols
            }
            if not {v.name for v in problem.variables} - mentions <= given:
                return None
            problem.target = Target("value", sp.Symbol(next(iter(mentions))))
        problem.uses_decimals = uses_decimals
        problem.rounding = rounding
        return None if form else problem
    if conditions:
        if mentions or expressions or target is not None or not _ASKS_TO_SOLVE.search(original):
            return None
        return _inequality_problem(conditions, text)
    if mentions:
        return None
    if target is not None and target.kind == "value" and not expressions:
        assert target.expression is not None
        expressions.append(("", target.expression))
        target = None
    if target is not None or len(expressions) != 1:
        return None
    span, expression = expressions[0]
    expression = _euler_number(expression)
    if expression.free_symbols or not accepts_arithmetic(leftover, span, text):
        return None
    try:
        if not real_throughout(expression):
            return None
        undefined = False
    except UndefinedValue:
        undefined = True
    task = ASK_TASK.match(text)
    if task is not None:  # "Simplify 6/8", "化简：6/8": the answer in simplest form (3/4)
        if TASKS[task.group(1).lower()] != "simplify" or form or rounding is not None:
            return None  # "Factor 12", "Expand 6/8", "Simplify 6/8 as a decimal"
        if uses_decimals:
            return None  # "Simplify 0.5/1.5": a fraction or a decimal?
        form = "simplest"
        if significant is not None:
            return None
    if undefined and (form or rounding is not None or significant is not None):
        return None  # "12 ÷ 0 as a percent": a question about a value there is not
    return MathProblem(
        "arithmetic",
        expression=expression,
        uses_decimals=uses_decimals,
        source=text,
        rounding=rounding,
        form=form,
        significant=significant,
        undefined=undefined,
    )


_E = sp.Symbol("e")


def _outside_logs(expr: sp.Expr) -> bool:
    if expr == _E:
        return True
    return not isinstance(expr, sp.log) and any(_outside_logs(a) for a in expr.args)


def _euler_number(expression: sp.Expr) -> sp.Expr:
    """'ln(e^2)', 'ln(e) + 1': with no equation and no other letter, an e inside a logarithm is
    Euler's number (read as a letter it would leave nothing to evaluate). An e anywhere else
    ('e^2 + ln(e)'), or beside an equation ('e + 2 = 5'), stays a letter."""
    if expression.free_symbols != {_E} or _outside_logs(expression):
        return expression
    return expression.xreplace({_E: sp.E})


def _plain_value(text: str) -> tuple[sp.Expr, sp.Expr]:
    """A number written alone (an operand, the expression a question is about), read by the
    whole reader as plain arithmetic: (the expression as written, its value), or ParseError."""
    read = extract_problem(text)
    if read is None or read.kind != "arithmetic" or read.expression is None:
        raise ParseError(f"{text!r} is not a plain number")
    if read.form or read.unit or read.rounding is not None:
        raise ParseError(f"{text!r} asks something of its own")
    value = evaluate(read.expression)
    if value.free_symbols or not value.is_real or not is_plain_number(value):
        raise ParseError(f"{text!r} is not a plain number")
    return read.expression, value


_MATH_SPAN = re.compile(r"\$([^$]+)\$")


def _one_math_span(original: str, inner: str) -> bool:
    """Is `inner` (normalized) all of one $…$ of the original text? Its delimiters group it:
    "the units digit of $19^{19}+99^{99}$" asks about the sum."""
    wanted = re.sub(r"\s+", "", inner)
    for span in _MATH_SPAN.finditer(original):
        try:
            written = normalize(span.group(1))
        except ParseError:
            continue
        if re.sub(r"[\s]+", "", written) == wanted:
            return True
    return False


def _question(text: str, original: str) -> tuple[bool, MathProblem | None]:
    """How many digits, the digit sum, how many decimal places, which is larger: (whether the
    text asks one, the problem or None when it is not read with certainty)."""
    asked = read_property_question(text)
    if asked is not None:
        if has_top_level_sum(asked.inner) and not _one_math_span(original, asked.inner):
            return True, None  # "the sum of the digits of 99 + 1": 1 or 19? ($99 + 1$: 1)
        if re.search(r"[?？\u3400-\u9fff]", asked.inner):
            return True, None  # "2^10等于多少？是几位数？": two questions, or words read as math
        expression, value = _plain_value(asked.inner)
        if asked.kind == DECIMAL_PLACES:
            count = decimal_places_of_product(asked.inner)
        elif not (value.is_Integer and value > 0):
            return True, None  # digits of 3.14, of -12, of 0: not what school counts
        else:
            count = counted(asked.kind, int(value))
        if count is None:
            return True, None
        return True, MathProblem(
            "property",
            expression=expression,
            source=original,
            asked=asked.kind,
            count=count,
            uses_decimals=bool(re.search(r"\d\.\d", asked.inner)),
        )
    comparison = read_comparison(text)
    if comparison is None:
        return False, None
    operands = []
    for written in (comparison.first, comparison.second):
        shown = written if plain_number_text(written) else None  # "3/4", "2^10", "50%"
        _, value = _plain_value(written)
        operands.append((shown or format_value(value, "." in written), value))
    difference = operands[0][1] - operands[1][1]
    if difference.is_zero is not False or difference.is_positive is None:
        return True, None  # equal, or an order sympy cannot decide
    return True, MathProblem(
        "comparison",
        source=original,
        target=Target(comparison.direction),
        form=comparison.style,
        operands=tuple(operands),
    )


def _expression_task(text: str) -> MathProblem | None:
    """'Expand (x + 2)(x + 3)', '因式分解 x^2 - 9': the task word, then one expression with
    letters and nothing else. Numbers alone ('Simplify 6/8') are read as arithmetic."""
    task = ASK_TASK.match(text)
    if task is None:
        return None
    try:
        expression = _parse_checked(text[task.end() :].strip().rstrip(".。"))
    except ParseError:
        return None
    if not expression.free_symbols or not is_rational_expression(expression):
        return None
    if not _real_throughout(expression):
        return None  # x + (√-4)²: x - 4 only through ℂ
    kind = TASKS[task.group(1).lower()]
    return MathProblem("expression", expression=expression, source=text, form=kind)


# "Is x = 4 a solution of 3x - 5 = 8?", "x = 4 是方程 3x - 5 = 8 的解吗？": a yes/no question.
_IS_SOLUTION = [
    re.compile(
        r"^\s*is\s+([a-zA-Z])\s*=\s*([^=?]+?)\s+an?\s+(?:solution|root)\s+(?:of|to)\s+"
        r"(?:the\s+equation\s+)?([^?]+=[^?]+?)\s*\?\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*([a-zA-Z])\s*=\s*([^=?？]+?)\s*(?:是不是|是否是|是否为|是)\s*方程\s*"
        r"([^?？]+=[^?？]+?)\s*的(?:解|根)\s*吗?\s*[?？]?\s*$"
    ),
]


def _membership_question(text: str) -> MathProblem | None:
    """The equation, its letter and the value asked about; None when not exactly that."""
    for pattern in _IS_SOLUTION:
        match = pattern.match(text)
        if match is None:
            continue
        letter, value_text, equation = match.groups()
        equation_problem = extract_problem(f"Solve {equation}")
        value = _parse_checked(value_text)
        if equation_problem is None or value.free_symbols or equation_problem.kind != "equations":
            return None
        if [v.name for v in equation_problem.variables] != [letter]:
            return None
        equation_problem.kind = "membership"
        equation_problem.expression = value
        return equation_problem
    return None


_ASKS_TO_SOLVE = re.compile(r"\bsolve\b|解不等式|解集|\bsolution\s+set\b", re.IGNORECASE)


def _inequality_problem(conditions: list[Condition], text: str) -> MathProblem | None:
    """'Solve 2x + 1 > 5': relations in one unknown, asked to be solved."""
    symbols = set().union(*(c.symbols for c in conditions))
    if len(symbols) != 1 or any(c.kind != "relation" for c in conditions):
        return None
    (x,) = symbols
    if x.name.startswith("_"):
        return None  # an interval with no unknown named
    sides = [side for c in conditions for side in (c.lhs, c.rhs) if side is not None]
    if not all(_real_throughout(side) for side in sides):
        return None  # x + (√-4)² > 1: no real x makes it defined
    return MathProblem("inequality", variables=[x], conditions=conditions, source=text)


def _real_throughout(expr: sp.Expr) -> bool:
    try:
        return real_throughout(expr)
    except UndefinedValue:
        return False


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        for i in range(max(start, 0), min(end, len(chars))):
            chars[i] = " "
    return "".join(chars)


def _equation_problem(
    equations: list[sp.Eq],
    conditions: list[Condition],
    target: Target | None,
    expressions: list[tuple[str, sp.Expr]],
    text: str,
) -> MathProblem | None:
    if len(expressions) == 1 and target is None and expressions[0][1].free_symbols:
        target = Target("value", expressions[0][1])  # "2x + 3 = 11, 4x - 1 = ?"
    elif expressions:
        return None  # an expression we cannot place
    variables = _variables_in_order(equations, text)
    if not variables or len(variables) > MAX_VARIABLES or len(equations) > MAX_EQUATIONS:
        return None
    if len(equations) != len(variables):
        return None  # under-determined, or one equation too many (a check or a claim?)
    conditions = bind_interval(conditions, variables)
    known = set(variables)
    if any(not c.symbols <= known for c in conditions):
        return None
    if target is not None and target.kind in ("max", "min") and target.expression is None:
        if len(variables) != 1:
            return None  # "the smaller solution" of a system
        target = Target(target.kind, variables[0])
    if target is None or (
        target.kind == "value" and len(variables) == 1 and target.expression == variables[0]
    ):
        target = Target("solutions")
    elif target.expression is not None and not (
        target.expression.free_symbols and target.expression.free_symbols <= known
    ):
        return None  # "Solve 2x + 3 = 11. What is 3 + 4?": two questions
    if target.kind in ("sum", "product", "count") and len(variables) != 1:
        return None
    return MathProblem(
        "equations",
        equations=equations,
        variables=variables,
        conditions=conditions,
        target=target,
        source=text,
    )


def _variables_in_order(equations: list[sp.Eq], text: str) -> list[sp.Symbol]:
    symbols: set[sp.Symbol] = set()
    for eq in equations:
        symbols |= eq.lhs.free_symbols | eq.rhs.free_symbols  # unevaluated: 0x still has x

    def first_use(symbol: sp.Symbol) -> int:
        m = re.search(rf"(?<![a-zA-Z]){symbol.name}(?![a-zA-Z])", text)
        return m.start() if m else len(text)

    return sorted(symbols, key=lambda s: (first_use(s), s.name))
