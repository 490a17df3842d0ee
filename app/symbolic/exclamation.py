"""An exclamation mark that may end a sentence or be a factorial: never guessed.

"！" is Chinese punctuation, and "!" ends many an English sentence: "计算：5×4！" asks for 20,
"x = 4!" answers 4, yet both read as factorials once "！" is folded into "!". A mark right after
a number, a letter or a bracket at the end of the text (or of a sentence) is read neither way.
"""

from __future__ import annotations

import re

# A full-width mark right after something a factorial could apply to: "4！", "x！", "(2+3)！".
_FULL_WIDTH = re.compile(r"[0-9A-Za-z０-９Ａ-Ｚａ-ｚ)）]\s*！")
# A "!" (or several) after a number, a lone letter or a bracket, where a sentence ends: the end
# of the text, or before the next sentence's capital or Chinese character.
_AT_SENTENCE_END = re.compile(r"(?:(?<![A-Za-z])[A-Za-z]|[\d)])\s*!+(?=\s*$|\s+[A-Z\u3400-\u9fff])")
# An operation or a relation before the mark: "5 × 4!" is 5 × 24 or 20 shouted; "What is 5!"
# can only mean 120.
_OPERATION = re.compile(r"[-+*/^=×÷·<>≤≥]")


def exclamation_in_answer(text: str) -> bool:
    """An answer ending in "!" after its value ("x = 4!", "12!"), or with "！" after one."""
    return bool(_FULL_WIDTH.search(text) or _AT_SENTENCE_END.search(text))


def exclamation_in_problem(text: str) -> bool:
    """A problem with "！" after a number or letter, or ending a sentence in "!" after an
    operation ("What is 5 × 4!"): the reader abstains. A lone "What is 5!" is a factorial."""
    if _FULL_WIDTH.search(text):
        return True
    end = _AT_SENTENCE_END.search(text)
    return end is not None and bool(_OPERATION.search(text, 0, end.start() + 1))
