"""A claim between numbers to judge: "True or false: 2 + 2 = 5", "Is 3/4 > 5/7?", "判断：
2+2=5", "2 + 2 = 5 对吗？". It is answered as it is asked (true / false, yes / no, 对 / 错).

Only one relation between two rational values without letters, each side read by both
readers: a claim with an unknown ("Is x + 1 > x?"), a chain ("1 < 2 < 3"), words around it
("in base 3") or an irrational side (√2 < 1.415) is not one the reader is sure about.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

# (pattern, style): the claim is group 1.
_ASKED = [
    (r"(?:true\s+or\s+false|t\s*/\s*f)\s*[:：?？.]?\s*(.+?)", "true_false"),
    (r"(.+?)\s*[,，.]?\s*true\s+or\s+false", "true_false"),
    (r"is\s+(?:it\s+true\s+that\s+)?(.+?)", "yes_no"),
    (r"判断\s*[:：]?\s*(.+?)\s*(?:[（(]\s*[)）])?", "right_wrong"),
    (r"(.+?)\s*[,，]?\s*(?:对吗|对不对|是否正确|正确吗)", "right_wrong"),
]
_PATTERNS = [
    (re.compile(rf"^\s*{body}\s*[?？.。]?\s*$", re.IGNORECASE), style) for body, style in _ASKED
]
_RELATIONS: dict[str, Callable[[sp.Expr, sp.Expr], bool]] = {
    "≠": operator.ne,
    "≤": operator.le,
    "≥": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
    "=": operator.eq,
}
_SPLIT = re.compile(r"\s*(≠|≤|≥|<=|>=|!=|<|>|=)\s*")
_ASCII = {"<=": "≤", ">=": "≥", "!=": "≠"}
ANSWERS = {
    "true_false": ("true", "false"),
    "yes_no": ("yes", "no"),
    "right_wrong": ("对", "错"),
}


@dataclass(frozen=True, slots=True)
class Claim:
    style: str  # true_false | yes_no | right_wrong
    left: sp.Expr
    relation: str
    right: sp.Expr

    @property
    def holds(self) -> bool:
        return bool(_RELATIONS[self.relation](self.left, self.right))

    @property
    def answer(self) -> str:
        yes, no = ANSWERS[self.style]
        return yes if self.holds else no


def read_claim(
    text: str, parse: Callable[[str], sp.Expr], value: Callable[[sp.Expr], sp.Expr]
) -> Claim | None:
    """The claim `text` asks to judge, its sides read by `parse` (both readings) and valued
    exactly by `value`; None when it is not one."""
    for pattern, style in _PATTERNS:
        match = pattern.match(text)
        if match is None:
            continue
        parts = _SPLIT.split(match.group(1))
        if len(parts) != 3 or not parts[0] or not parts[2]:
            return None
        left, right = parse(parts[0]), parse(parts[2])
        if left.free_symbols or right.free_symbols:
            return None
        a, b = value(left), value(right)
        if not (a.is_Rational and b.is_Rational):
            return None  # √2 < 1.415, π = 22/7: not judged here
        return Claim(style, a, _ASCII.get(parts[1], parts[1]), b)
    return None
