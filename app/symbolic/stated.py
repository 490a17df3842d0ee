"""A stated equation refutes a value that breaks it, even where the question is not read.

When the reader declines the wording ("Solve 2x + 3 = 11, then double it"), nothing is
approved: what is asked is not understood. But an answer "x = 5" claims the unknown's value,
and 2·5 + 3 ≠ 11: whatever the words ask of x afterwards, x = 5 is not x. Only this rejection
is made, and only where it cannot depend on the words:

- the text states exactly one equation in one unknown, or a system (up to three joined by
  "and" or commas, as many unknowns as equations), as given: after "solve", "given",
  "satisfies", "the equation", "解方程", "已知", or opening its sentence; a last sentence may
  ask for the unknowns themselves ("What is n?", "Find x and y.");
- no word that makes the equation hypothetical, a question or a claim to judge ("if",
  "whether", "is", "which", "false", "?", "如果", "吗"), nor one that changes what "=" or a
  number means ("mod", "base", "round", "nearest", "approximately", "decimal", "2 s.f.",
  "1 d.p.", "%", "≈"), nor
  one that gives the unknown another value afterwards ("becomes", "new", "increase", "let",
  "换成"), or another unit ("x in km, answer in m"), or another equation ("use 13 instead of
  11", "where 2x means 2^x"), nor a word right after the last equation ("= 11 squared",
  "= 2 dozen", "= 12的一半": its right side is another number),
  nor a reading problem.py refuses ("3 x 4 = 2x", "x!=24");
- nor a number in a phrase of the equation's own sentence ("= 11 with coefficient 4", "on a
  12-hour clock"), nor a word naming a part of it to alter ("the coefficient", "the sign of
  the constant", "系数扩大");
- the answer assigns one exact value to each unknown (x = 5; not "5", which may answer the
  follow-up, unless the last sentence asks for the unknowns: "What is n?" answered "6", "Find
  x and y." answered "(6, 4)", in the order asked; nor a decimal or "≈", which may be a
  rounded root), and the two sides of one of the equations at those values are numbers that
  differ.
"""

from __future__ import annotations

import itertools
import re

import sympy as sp

from app.symbolic.answers import read_candidate
from app.symbolic.crosscheck import readings_agree
from app.symbolic.evaluation import differ_numerically, evaluate
from app.symbolic.letters import space_products
from app.symbolic.normalize import READ_ERRORS, ParseError, has_exercise_number, normalize
from app.symbolic.parsing import parse_expression
from app.symbolic.problem import TRIGONOMETRIC, math_runs
from app.symbolic.prose import strip_claims, strip_instructions
from app.symbolic.rounding import strip_approximate

_NOT_GIVEN = re.compile(
    r"\b(?:if|whether|is|are|was|were|isn'?t|aren'?t|does|do|did|can|could|would|should|not"
    r"|no|never|false\w*|true|wrong\w*|incorrect\w*|correct\w*|errors?|erroneous\w*|mistak\w*"
    r"|typo\w*|which|suppose|assume"
    r"|unless|check|verify|prove|show\s+that|mod|modulo|base|binary|octal|hex\w*|round\w*"
    r"|nearest|approx\w*|about|estimat\w*|decimals?|places?|significant|digits?|percent"
    # the unknown given another value afterwards: "then x becomes", "the new x"
    r"|new|now|becomes?|became|replac\w*|increas\w*|decreas\w*|let|set|chang\w*|updat\w*"
    # or measured in another unit: "x in km, answer in m"
    r"|units?|convert\w*"
    # or another equation: "but use 13 instead of 11", "where 2x means 2 to the power x"
    r"|instead|rather|swap\w*|in\s+place|means?|meaning|stands?\s+for|represents?|use[sd]?|using"
    # or names a part of the equation to alter ("with the coefficient of x tripled", "with
    # the sign of the constant reversed"), or a clock it is read on ("on a 12-hour clock")
    r"|coefficients?|constants?|terms?|signs?|sides?|exponents?|powers?|clocks?|hours?"
    # or a part of a number said in words after it ("= 11 and a half", "= 2 and one third")
    r"|halfs?|halves|quarters?|thirds?|fourths?|fifths?|sixths?|sevenths?|eighths?|ninths?"
    r"|tenths?|dozens?|hundreds?|thousands?|millions?)\b"
    r"|\b[a-z]\s+in\s+(?!the\b|this\b|that\b|each\b|terms?\b)[a-z]+"
    r"|[?？≠≈≡<>≤≥%±]|如果|若|假如|假设|是否|吗|不|错|对|正确|近似|约|保留|取整|精确|进制|模|余|检验|验证"
    r"|换|改|变成|变为|单位"  # "再把方程中的11换成13": another equation
    r"|系数|常数|项|符号|指数|钟|扩大|缩小"  # "x的系数扩大到原来的2倍": a part of it altered
    r"|\bs\.\s?f\b|\bsf\b|\bsig\.?\s*figs?\b|\bd\.\s?p\b|\bdp\b",  # 2 s.f., 2 sig figs, 1 d.p.
    re.IGNORECASE,
)
# "Mia wrote 2x + 3 = 11 on the board", "Solve the system x + y = 10, x - y = 2"
_LEAD = re.compile(
    r"(?:\bsolve(?:\s+for\s+[a-z])?|\bgiven|\bsatisf(?:y|ies)|\bsuch\s+that|\bequation|解方程|方程"
    r"|已知|满足|\bwr(?:ote|ites)(?:\s+down)?|\bshows?|\bsystem)"
    r"\s*[:：,]?\s*$|^\s*$",
    re.IGNORECASE,
)
# "3 x 4 = 2x": times or the unknown? "x!=24": x! = 24 or x ≠ 24? (as problem.py refuses)
_AMBIGUOUS = re.compile(r"(?<=\d)\s+[xX]\s+(?=\d)|!")
_SENTENCE_END = re.compile(r"[.!;。！；\n](?!\d)")
# What may follow the last equation: the sentence ends, or a word that cannot make its right
# side another number ("= 11 for x", "= 11 on the board", "= 11 with care"). Anything else
# may ("= 11 squared", "= 2 dozen", "= 20万", "= 11 times 3", "= 12的一半", "= 11 after
# adding 2", "= 20 pairs", "= 11 negated": all refuted a right value once).
_EQUATIONS_END = re.compile(
    r"\s*(?:$|[.!;,:。！；，：、)）\]\n]|(?:for|on|and|with|then|in|at|from|please|so)\b)",
    re.IGNORECASE,
)
# A phrase of the equation's own sentence that carries a number may restate a part of it
# ("with coefficient 4", "with constant 5", "on a 12-hour clock"); a "then" clause asks
# something afterwards ("then multiply it by 2": x is still x).
_NUMBER_IN_ITS_PHRASE = re.compile(
    r"\s*(?:with|on|in|at|from|for|and)\b[^.!;。！；\n]*?\d", re.IGNORECASE
)
_ASKS_FOR_A_LETTER = re.compile(
    r"(?<=[.。;；\n,，])\s*(?:what\s+(?:is|are)|what's|find|determine|give|求)\s+"
    r"([a-z](?:\s*(?:,|and|和)\s*[a-z])*)\s*(?:的值)?\s*(?:please)?\s*[?？.。]?\s*$",
    re.IGNORECASE,
)
_JOINER = re.compile(r"\s*(?:[,;，；、]\s*)?(?:and\s+|且|和|以及)?\s*")
_MAX_EQUATIONS = 3
_HINT = re.compile(r"\((?:hint|提示)\s*[:：][^()]*\)", re.IGNORECASE)


def refutes(problem_text: str, candidate: str) -> str | None:
    """Why the candidate breaks the equation the text states ("substituting gives 13 ≠ 11"),
    or None: it holds, or the rule above does not apply."""
    try:
        return _refutes(problem_text, candidate)
    except READ_ERRORS:
        return None


def _refutes(problem_text: str, candidate: str) -> str | None:
    text = strip_instructions(strip_claims(normalize(problem_text)))
    text = _HINT.sub(" ", text)  # no hint makes a value that breaks the equation right
    # "… satisfies 7n - 4 = 24. What is n?": the last sentence asks for the unknown itself
    asked = _ASKS_FOR_A_LETTER.search(text)
    if asked is not None:
        text = text[: asked.start()]
    if _NOT_GIVEN.search(text) or _AMBIGUOUS.search(text):
        return None
    if has_exercise_number(text):  # "(2) 2x + 3 = 11": 2·2x + 3 = 11, or exercise 2?
        return None
    # One equation, or a system: equations joined by "and" or a comma, and no other "="
    equations = [(s, e) for s, e in math_runs(text) if "=" in text[s:e]]
    if not equations or text.count("=") != len(equations) or len(equations) > _MAX_EQUATIONS:
        return None
    if any(not _JOINER.fullmatch(text[e:s]) for (_, e), (s, _) in itertools.pairwise(equations)):
        return None
    if not _EQUATIONS_END.match(text, equations[-1][1]):
        return None
    if _NUMBER_IN_ITS_PHRASE.match(text, equations[-1][1]):
        return None  # "= 11 with coefficient 4", "= 11 on a 12-hour clock": another equation
    start = equations[0][0]
    sentence = text[:start]
    ends = list(_SENTENCE_END.finditer(sentence))
    if not _LEAD.search(sentence[ends[-1].end() :] if ends else sentence):
        return None
    sides = [tuple(_read(side) for side in text[s:e].split("=")) for s, e in equations]
    unknowns = sorted(set().union(*(side.free_symbols for pair in sides for side in pair)), key=str)
    if len(unknowns) != len(equations):
        return None  # one unknown per equation: x + y = 10 alone does not fix x
    names = [x.name for x in unknowns]
    letters = re.findall(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])", asked.group(1)) if asked else []
    if asked is not None and sorted(letters) != names:
        return None
    approximate, claimed = strip_approximate(candidate)
    if approximate or re.search(r"\d\s*\.\s*\d", claimed):
        return None
    read = read_candidate(claimed, names)
    if read.kind == "values" and letters and len(read.values) == len(letters):
        # "What is n?" answered "6", "Find x and y." answered "(6, 4)": in the order asked
        values = dict(zip(map(sp.Symbol, letters), read.values, strict=True))
    elif read.kind == "assignments" and len(read.assignments) == 1:
        values = {sp.Symbol(name): value for name, value in read.assignments[0].items()}
    else:
        return None
    if set(values) != set(unknowns):
        return None
    for lhs, rhs in sides:
        left, right = evaluate(lhs.xreplace(values)), evaluate(rhs.xreplace(values))
        if left.is_Rational and right.is_Rational:
            if left != right:
                return f"substituting gives {sp.sstr(left)} ≠ {sp.sstr(right)}"
        elif _clearly_apart(left, right):
            return f"substituting gives {_shown(left)} ≠ {_shown(right)}"
    return None


def _clearly_apart(left: sp.Expr, right: sp.Expr) -> bool:
    """Two real numbers (2^1.5, e, √2) that differ beyond doubt: evaluated to 30 digits with
    sympy's error control (`strict`). Not across a trigonometric function: sin x = 1/2 with
    x = 30 is right in degrees, which the value cannot tell."""
    both = left.atoms(sp.Function) | right.atoms(sp.Function)
    if any(isinstance(f, TRIGONOMETRIC) for f in both):
        return False
    if not (left.is_number and right.is_number):
        return False
    return differ_numerically(left - right) is True


def _shown(value: sp.Expr) -> str:
    return sp.sstr(value) if value.is_Rational else f"{sp.N(value, 6)}…"


def _read(side: str) -> sp.Expr:
    side = space_products(side.strip())
    if not side:
        raise ParseError("an equation without a side")
    expression = parse_expression(side)
    if not readings_agree(side, expression):
        raise ParseError("two readings of a side disagree")
    return expression
