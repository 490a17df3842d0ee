"""A linear congruence or a modular inverse, and the one residue asked: "What is the smallest
positive integer that satisfies the congruence $30x \\equiv 42 \\pmod{47}$?", "Find an integer
$n$ such that $0\\leq n<398$ and $n$ is a multiplicative inverse to 7 modulo 398.", "Find
$2^{-1} \\pmod{185}$, as a residue modulo 185. (Give an answer between 0 and 184, inclusive.)"

Read only when the text is that and nothing else: one congruence a·x + c ≡ b (mod m) or one
inverse of a modulo m, and a question that names a single number — the smallest positive
solution, or the residue in 0 … m − 1 where there is exactly one. Every other word must be
one of the few such questions use; a hint ("Notice that 35·40 = 1400."), a second condition
or a second unknown and it is not read.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

MAX_MODULUS = 10**12

_LATEX = (
    (r"\\(?:leq|le)\b", "≤"),
    (r"\\(?:geq|ge)\b", "≥"),
    (r"\\equiv\b", "≡"),
    (r"\\pmod\s*\{?\s*(\d+)\s*\}?", r"(mod \1)"),
    (r"\\(?:bmod|mod)\b", "mod"),
    (r"\\[!,;: ]|\\\[|\\\]|\$", " "),
    (r"(?<=\d),(?=\d{3}\b)", ""),  # 1,399
)
_CONGRUENCE = re.compile(
    r"(?<!\d)(?P<a>\d+)?\s*(?P<x>[a-z])\s*(?:(?P<sign>[+-])\s*(?P<c>\d+)\s*)?≡\s*(?P<b>-?\s*\d+)"
    r"\s*\(\s*mod\s+(?P<m>\d+)\s*\)"
)
_INVERSE = re.compile(
    r"(?<!\d)(?P<a>\d+)\s*\^\s*\{?\s*-\s*1\s*\}?\s*\(\s*mod\s+(?P<m>\d+)\s*\)"
    r"|(?:the\s+|a\s+)?(?:multiplicative|modular)\s+inverse\s+(?:to|of)\s+(?P<a2>\d+)\s*,?"
    r"\s*(?:modulo|mod)\s+(?P<m2>\d+)"
)
_SMALLEST = re.compile(r"\b(?:smallest|least)\s+positive\s+integer(?:\s+(?P<letter>[a-z]))?\b")
# The residue 0 … m − 1: "0 ≤ n < 398", "between 0 and 184, inclusive", "as a residue modulo 185"
_RANGE = re.compile(
    r"\b0\s*≤\s*(?P<letter>[a-z])\s*(?P<lt><|≤)\s*(?P<top>\d+)"
    r"|\b(?:between|from)\s+0\s+(?:and|to)\s+(?P<top2>\d+)(?:\s*,?\s*inclusive)?"
    r"|\bas\s+a\s+residue\s+modulo\s+(?P<m>\d+)"
)
# The only other words such a question uses
_QUESTION_WORD = re.compile(
    r"what|is|the|that|satisf(?:y|ies)|congruence|find|an?|some|integer|such|with|and|as"
    r"|residue|give|answer|your|express|solve|which|of|to|modulo|mod|number|[.,?()]"
)


@dataclass(frozen=True, slots=True)
class Congruence:
    """a·x ≡ b (mod m) (an inverse: b = 1), the answer asked, and whether the smallest
    positive solution (else the residue in 0 … m − 1) is asked."""

    a: int
    b: int
    m: int
    answer: int
    smallest_positive: bool
    shift: int = 0  # the c of a·x + c ≡ b, already subtracted from b
    inverse: bool = False


def read_congruence(text: str) -> Congruence | None:
    plain = text.lower()
    for pattern, replacement in _LATEX:
        plain = re.sub(pattern, replacement, plain)
    found = [*_CONGRUENCE.finditer(plain), *_INVERSE.finditer(plain)]
    if len(found) != 1 or "≡" in plain.replace(found[0].group(0), ""):
        return None
    match = found[0]
    inverse = match.re is _INVERSE
    if inverse:
        a, b, shift = int(match.group("a") or match.group("a2")), 1, 0
        m = int(match.group("m") or match.group("m2"))
        letters: set[str] = set()
    else:
        a, m = int(match.group("a") or 1), int(match.group("m"))
        shift = int(match.group("c") or 0) * (-1 if match.group("sign") == "-" else 1)
        b = int(match.group("b").replace(" ", "")) - shift
        letters = {match.group("x")}
    if not 1 < m <= MAX_MODULUS:
        return None
    rest = plain[: match.start()] + " " + plain[match.end() :]
    smallest = list(_SMALLEST.finditer(rest))
    ranges = list(_RANGE.finditer(rest))
    if bool(smallest) == bool(ranges) or len(smallest) > 1:
        return None  # neither asked, or both (which?)
    if not all(_whole_range(r, m) for r in ranges):
        return None
    for asked in sorted([*smallest, *ranges], key=lambda r: -r.start()):
        rest = rest[: asked.start()] + " " + rest[asked.end() :]
        if asked.group("letter") is not None:
            letters.add(asked.group("letter"))
    if len(letters) > 1 or not _only_question_words(rest, letters):
        return None
    answer = _solve(a, b, m, bool(smallest))
    if answer is None:
        return None
    return Congruence(a, b, m, answer, bool(smallest), shift, inverse)


def _whole_range(ranged: re.Match[str], m: int) -> bool:
    if ranged.group("m") is not None:
        return int(ranged.group("m")) == m
    if ranged.group("top") is not None:
        top = int(ranged.group("top"))
        return top == (m if ranged.group("lt") == "<" else m - 1)
    return int(ranged.group("top2")) == m - 1


def _only_question_words(rest: str, letters: set[str]) -> bool:
    words = re.findall(r"[a-z]+|\d+|[^\sa-z\d]", rest)
    return all(_QUESTION_WORD.fullmatch(w) or w in letters for w in words)


def _solve(a: int, b: int, m: int, smallest_positive: bool) -> int | None:
    """The smallest positive solution of a·x ≡ b (mod m), or its residue in 0 … m − 1 when it
    is the only one there; None when there is none, or (residue) several."""
    g = math.gcd(a, m)
    if b % g:
        return None  # no solution
    if g > 1 and not smallest_positive:
        return None  # g residues modulo m: which one?
    step = m // g
    residue = (b // g) * pow(a // g, -1, step) % step if step > 1 else 0
    if smallest_positive and residue == 0:
        return step
    return residue
