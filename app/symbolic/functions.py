"""A function defined, then asked at numbers: "If f(x) = 2x + 1, what is f(3)?", "Let f(x) =
x^2. Find f(3) + f(-1).", "已知f(x)=2x+1，求f(3)的值".

The definition is read only when it opens the text and its right side is an expression in its
variable alone (no words, no condition such as "for x > 0"), and only the question that follows
it is left: each call at a number (`f(3)`, `f(f(2))`, `f(\\frac{1}{2})`) becomes the right side
with the number put in, bracketed, and the question is then read like any other. Anything else
— a second function, a call at a letter (`f(x + 1)`), an inverse (`f^{-1}(8)`), a piecewise
definition — leaves a letter or a word the reader refuses.
"""

from __future__ import annotations

import re

import sympy as sp

from app.symbolic.normalize import ParseError
from app.symbolic.parsing import parse_expression

_DEFINITION = re.compile(
    r"^\s*(?:(?:if|let|given|suppose|define|已知|设)\s*(?:that\s+)?)?(?:the\s+function\s+)?"
    r"(?P<f>[fgh])\s*\(\s*(?P<x>[a-z])\s*\)\s*=\s*(?P<body>[^=]+?)"
    r"\s*(?:,|;|，|；|。|\.(?=\s|$))\s*(?:then\s+)?"
    r"(?P<question>(?:what\s+is|what's|find|compute|evaluate|calculate|determine|求)\s*\S.*)$",
    re.IGNORECASE | re.DOTALL,
)
_MAX_CALLS = 8


def function_values(text: str) -> str | None:
    """The question with every call of the defined function worked in (normalized text in,
    plain notation out), or None when the text is not one definition and its question."""
    match = _DEFINITION.match(text)
    if match is None:
        return None
    name, variable, body = match.group("f"), match.group("x"), match.group("body").strip()
    try:
        if parse_expression(body).free_symbols - {sp.Symbol(variable)}:
            return None  # "f(x) = ax + 1": another letter
    except ParseError:
        return None  # words, a condition, notation the reader refuses
    question = match.group("question")
    for _ in range(_MAX_CALLS):
        call = _innermost_call(question, name)
        if call is None:
            break
        start, end, argument = call
        try:
            if parse_expression(argument).free_symbols:
                return None  # f(x + 1), f(a): not a value
        except ParseError:
            return None
        question = f"{question[:start]}({_put_in(body, variable, argument)}){question[end:]}"
    else:
        return None
    if re.search(rf"(?<![A-Za-z]){name}(?![A-Za-z])", question):
        return None  # f left over: an inverse f^(-1)(8), a derivative f'(2), f named bare
    return question


def _innermost_call(text: str, name: str) -> tuple[int, int, str] | None:
    """(start, end, argument) of a call `name(…)` whose argument calls nothing, or None."""
    for found in re.finditer(rf"(?<![A-Za-z]){name}\s*\(", text):
        depth, open_at = 0, found.end() - 1
        for index in range(open_at, len(text)):
            depth += {"(": 1, ")": -1}.get(text[index], 0)
            if depth == 0:
                argument = text[open_at + 1 : index]
                if re.search(rf"(?<![A-Za-z]){name}\s*\(", argument):
                    break  # a call inside: take that one first
                return found.start(), index + 1, argument
    return None


def _put_in(body: str, variable: str, argument: str) -> str:
    """The body with the argument, bracketed, for each standalone `variable` ("2x" → "2*(3)":
    a product written out, never "2(3)", which may read as a mixed number)."""

    def value(match: re.Match[str]) -> str:
        before = body[: match.start()].rstrip()
        joined = "*" if before and (before[-1].isdigit() or before[-1] == ")") else ""
        return f"{joined}({argument})"

    return re.sub(rf"(?<![A-Za-z]){variable}(?![A-Za-z])", value, body)
