"""The arrangements of a word's letters: n! ÷ (k₁! k₂! …), each distinct arrangement once
(ELEVEN: 6! ÷ 3! = 120; the three E's cannot be told apart, so swapping them is no new word).

Read only when the whole problem is that one question, about all the letters of one word:
"Determine the number of ways to arrange the letters of the word ELEVEN.", "In how many ways
can the letters of the word ``COPYRIGHT'' be arranged?". Any other word in it — a condition
("if the vowels must stay together", "beginning with M"), a part ("three-letter
arrangements"), repeated letters told apart ("if the two A's are different") — and it is not
read. Capitals and small letters are the same letter (Mississippi: four i's).
"""

from __future__ import annotations

import re
from collections import Counter

import sympy as sp

MAX_LETTERS = 20

_DISTINCT = r"(?:(?:distinct|different|distinguishable|unique)\s+)?"
_WORD = (
    r"(?:``|''|\"|“|‘|')?\s*\$?\s*(?:\\(?:text|mathrm|textbf|mathbf|textit)\s*\{)?\s*"
    r"(?P<word>[A-Za-z]{2,})"
    r"\s*\}?\s*\$?\s*(?:''|\"|”|’|')?"
)
_QUESTION = re.compile(
    r"\s*(?:"
    # "Determine the number of ways to arrange the letters of the word ELEVEN."
    rf"(?:determine|find|compute|calculate|what\s+is)\s+the\s+number\s+of\s+{_DISTINCT}"
    r"(?:ways\s+to\s+arrange|arrangements\s+of|permutations\s+of)"
    # "How many distinct arrangements of the letters in the word BASIC are there?"
    rf"|how\s+many\s+{_DISTINCT}(?:ways\s+are\s+there\s+to\s+arrange"
    r"|ways\s+can\s+(?:you|one|we|i)\s+arrange|arrangements\s+of|permutations\s+of"
    r"|arrangements\s+are\s+there\s+of)"
    # "In how many ways can the letters of the word COPYRIGHT be arranged?"
    rf"|(?P<passive>(?:in\s+)?how\s+many\s+{_DISTINCT}ways\s+can)"
    rf")\s+the\s+letters\s+(?:of|in)\s+the\s+word\s+{_WORD}"
    r"(?:\s+(?P<arranged>be\s+arranged)|\s+are\s+(?:there|possible))?\s*[.?]?\s*",
    re.IGNORECASE | re.ASCII,
)


def read_arrangements(text: str) -> sp.Expr | None:
    """n! ÷ (k₁! k₂! …) for the word the question names, unevaluated (the steps show it), or
    None when the text is not exactly that question."""
    match = _QUESTION.fullmatch(text)
    if match is None or (match.group("passive") is None) != (match.group("arranged") is None):
        return None
    word = match.group("word").lower()
    if len(word) > MAX_LETTERS:
        return None
    repeats = [k for k in Counter(word).values() if k > 1]
    count = sp.factorial(len(word), evaluate=False)
    if not repeats:
        return count
    divisor = sp.Mul(*(sp.factorial(k, evaluate=False) for k in repeats), evaluate=False)
    return sp.Mul(count, sp.Pow(divisor, -1, evaluate=False), evaluate=False)
