"""An exclamation mark that may end a sentence or be a factorial: never guessed.

"！" is Chinese punctuation, and "!" ends many an English sentence: "计算：5×4！" asks for 20,
"x = 4!" answers 4, yet both read as factorials once "！" is folded into "!". A problem is read
with a factorial only where no other reading is possible: a lone number ("What is 5!"), a mark
that the expression goes on after ("4! × 5", "6!/(4!2!)"), or a text that writes factorials
so already. An answer with an exclamation mark is never judged.
"""

from __future__ import annotations

import re

# Marks NFKC folds into "!" (with "!" itself: ！ ﹗ ︕ ‼ ⁉ ⁈): punctuation, never a factorial.
_PUNCTUATION_MARKS = frozenset("！﹗︕‼⁉⁈")
# The operand a factorial would apply to: a number, a lone letter, a closing bracket or bar.
_OPERAND = r"(?:\d+(?:\.\d+)?|(?<![A-Za-z])[A-Za-z]|[)\]}|])"
# An expression goes on after the mark: an operator, a relation, a number, a bracket.
_GOES_ON = r"\s*[-+*/^×÷·=<>≤≥≠\d()\[\]{}]"
_FACTORIAL = re.compile(rf"({_OPERAND})\s*!")
# Math before the operand makes "5 × 4!" either 5 × 24 or a shouted 20.
_MATH = re.compile(
    r"\d|[+*/^=×÷·<>≤≥√|]|(?<![A-Za-z])-|-(?![A-Za-z])"
    r"|\b(?:times|plus|minus|divided|multiplied|over|product|sum|difference|quotient|x)\b",
    re.IGNORECASE,
)


def _without_thin_spaces(text: str) -> str:
    return text.replace("\\!", "")  # LaTeX's negative thin space: "20,\!000", "\$1,\!348"


def exclamation_in_answer(text: str) -> bool:
    """Any exclamation mark: "x = 4!", "20!.", "4！" may be a right answer said loudly."""
    text = _without_thin_spaces(text)
    return "!" in text or not _PUNCTUATION_MARKS.isdisjoint(text)


def exclamation_in_problem(text: str) -> bool:
    """An exclamation mark the reader cannot tell from a factorial: a mark NFKC would fold
    into "!", or a "!" after an operand where the expression stops ("5 × 4!", "3 + 3! Show",
    "x = 4!.") with math before it, in a text that writes no factorial the expression goes
    on after ("4! × 5")."""
    text = _without_thin_spaces(text)
    if not _PUNCTUATION_MARKS.isdisjoint(text):
        return True
    marks = list(_FACTORIAL.finditer(text))
    if any(re.match(_GOES_ON, text[m.end() :]) for m in marks):
        return False  # the text writes factorials: "7!/5!."
    return any(_MATH.search(text, 0, m.start()) for m in marks)
