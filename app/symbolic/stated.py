"""A stated equation refutes a value that breaks it, even where the question is not read.

When the reader declines the wording ("Solve 2x + 3 = 11, then double it"), nothing is
approved: what is asked is not understood. But an answer "x = 5" claims the unknown's value,
and 2·5 + 3 ≠ 11: whatever the words ask of x afterwards, x = 5 is not x. Only this rejection
is made, and only where it cannot depend on the words:

- the text states exactly one equation, in exactly one unknown, as given: after "solve",
  "given", "satisfies", "the equation", "解方程", "已知", or opening its sentence;
- no word that makes the equation hypothetical, a question or a claim to judge ("if",
  "whether", "is", "which", "false", "?", "如果", "吗"), nor one that changes what "=" or a
  number means ("mod", "base", "round", "nearest", "approximately", "decimal", "2 s.f.",
  "1 d.p.", "%", "≈"), nor
  one that gives the unknown another value afterwards ("becomes", "new", "increase", "let",
  "换成"), or another unit ("x in km, answer in m"),
  nor a reading problem.py refuses ("3 x 4 = 2x", "x!=24");
- the answer assigns one exact value to that unknown (x = 5; not "5", which may answer the
  follow-up, nor a decimal or "≈", which may be a rounded root), and both sides at that value
  are rational numbers that differ.
"""

from __future__ import annotations

import re

import sympy as sp

from app.symbolic.answers import read_candidate
from app.symbolic.crosscheck import readings_agree
from app.symbolic.evaluation import evaluate
from app.symbolic.letters import space_products
from app.symbolic.normalize import ParseError, has_exercise_number, normalize
from app.symbolic.parsing import parse_expression
from app.symbolic.problem import TRIGONOMETRIC, math_runs
from app.symbolic.prose import strip_claims, strip_instructions
from app.symbolic.rounding import strip_approximate

_NOT_GIVEN = re.compile(
    r"\b(?:if|whether|is|are|was|were|isn'?t|aren'?t|does|do|did|can|could|would|should|not"
    r"|no|never|false|true|wrong|incorrect|correct|error|mistakes?|typo|which|suppose|assume"
    r"|unless|check|verify|prove|show\s+that|mod|modulo|base|binary|octal|hex\w*|round\w*"
    r"|nearest|approx\w*|about|estimat\w*|decimals?|places?|significant|digits?|percent"
    # the unknown given another value afterwards: "then x becomes", "the new x"
    r"|new|now|becomes?|became|replac\w*|increas\w*|decreas\w*|let|set|chang\w*|updat\w*"
    # or measured in another unit: "x in km, answer in m"
    r"|units?|convert\w*)\b"
    r"|\b[a-z]\s+in\s+(?!the\b|this\b|that\b|each\b|terms?\b)[a-z]+"
    r"|[?？≠≈≡<>≤≥%±]|如果|若|假如|假设|是否|吗|不|错|对|正确|近似|约|保留|取整|精确|进制|模|余|检验|验证"
    r"|换|改|变成|变为|单位"  # "再把方程中的11换成13": another equation
    r"|\bs\.\s?f\b|\bsf\b|\bsig\.?\s*figs?\b|\bd\.\s?p\b|\bdp\b",  # 2 s.f., 2 sig figs, 1 d.p.
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"(?:\bsolve(?:\s+for\s+[a-z])?|\bgiven|\bsatisf(?:y|ies)|\bsuch\s+that|\bequation|解方程|方程"
    r"|已知|满足)"
    r"\s*[:：,]?\s*$|^\s*$",
    re.IGNORECASE,
)
# "3 x 4 = 2x": times or the unknown? "x!=24": x! = 24 or x ≠ 24? (as problem.py refuses)
_AMBIGUOUS = re.compile(r"(?<=\d)\s+[xX]\s+(?=\d)|!")
_SENTENCE_END = re.compile(r"[.!;。！；\n](?!\d)")
_ASKS_FOR_A_LETTER = re.compile(
    r"(?<=[.。;；\n])\s*(?:what\s+is|what's|find|determine|求)\s+([a-z])\s*(?:的值)?"
    r"\s*[?？.。]?\s*$",
    re.IGNORECASE,
)
_HINT = re.compile(r"\((?:hint|提示)\s*[:：][^()]*\)", re.IGNORECASE)
_ERRORS = (ParseError, TypeError, ValueError, ZeroDivisionError, RecursionError)


def refutes(problem_text: str, candidate: str) -> str | None:
    """Why the candidate breaks the equation the text states ("substituting gives 13 ≠ 11"),
    or None: it holds, or the rule above does not apply."""
    try:
        return _refutes(problem_text, candidate)
    except _ERRORS:
        return None


def _refutes(problem_text: str, candidate: str) -> str | None:
    text = strip_instructions(strip_claims(normalize(problem_text)))
    text = _HINT.sub(" ", text)  # no hint makes a value that breaks the equation right
    # "… satisfies 7n - 4 = 24. What is n?": the last sentence asks for the unknown itself
    asked = _ASKS_FOR_A_LETTER.search(text)
    if asked is not None:
        text = text[: asked.start()]
    if text.count("=") != 1 or _NOT_GIVEN.search(text) or _AMBIGUOUS.search(text):
        return None
    if has_exercise_number(text):  # "(2) 2x + 3 = 11": 2·2x + 3 = 11, or exercise 2?
        return None
    equation = next(((s, e) for s, e in math_runs(text) if "=" in text[s:e]), None)
    if equation is None:
        return None
    start, end = equation
    sentence = text[:start]
    ends = list(_SENTENCE_END.finditer(sentence))
    if not _LEAD.search(sentence[ends[-1].end() :] if ends else sentence):
        return None
    lhs, rhs = (_read(side) for side in text[start:end].split("="))
    unknowns = lhs.free_symbols | rhs.free_symbols
    if len(unknowns) != 1:
        return None
    (x,) = unknowns
    if asked is not None and asked.group(1) != x.name:
        return None
    approximate, claimed = strip_approximate(candidate)
    if approximate or re.search(r"\d\s*\.\s*\d", claimed):
        return None
    read = read_candidate(claimed, [x.name])
    if read.kind != "assignments" or len(read.assignments) != 1:
        return None
    (value,) = read.assignments[0].values()
    left, right = evaluate(lhs.xreplace({x: value})), evaluate(rhs.xreplace({x: value}))
    if left.is_Rational and right.is_Rational:
        return None if left == right else f"substituting gives {sp.sstr(left)} ≠ {sp.sstr(right)}"
    if not _clearly_apart(left, right):
        return None
    return f"substituting gives {_shown(left)} ≠ {_shown(right)}"


def _clearly_apart(left: sp.Expr, right: sp.Expr) -> bool:
    """Two real numbers (2^1.5, e, √2) that differ beyond doubt: evaluated to 30 digits with
    sympy's error control (`strict`). Not across a trigonometric function: sin x = 1/2 with
    x = 30 is right in degrees, which the value cannot tell."""
    both = left.atoms(sp.Function) | right.atoms(sp.Function)
    if any(isinstance(f, TRIGONOMETRIC) for f in both):
        return False
    if not (left.is_number and right.is_number):
        return False
    try:
        difference = sp.N(left - right, 30, strict=True)
    except (sp.core.evalf.PrecisionExhausted, TypeError, ValueError):
        return False
    return bool(difference.is_real) and abs(difference) > sp.Float("1e-20")


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
