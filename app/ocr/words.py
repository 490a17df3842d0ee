"""The Chinese words a line reader reads before a formula (解方程：, 计算：, 化简：), and
whether a reading holds anything besides them. No image work here (the API imports it)."""

from __future__ import annotations

import re
import unicodedata

CJK_RANGE = "\u3400-\u9fff"
# The instruction words the line reader saw at the start of the first line.
_LEADING = re.compile(rf"^\s*([{CJK_RANGE}]+)\s*([:：])?")
# What the words' crop may read as: those words, then a colon or nothing.
WORDS_READ = re.compile(rf"^([{CJK_RANGE}]+)([:：])?$")
# Chinese characters that are also the recognizer's way of reading a math sign (一 for a
# minus, 二 for '=', 十 for '+'): words ending in one may have taken the formula's sign.
_SIGN_LOOKALIKES = "一二十"


def leading_words(plain_text: str) -> str | None:
    """The Chinese words the line reader read first on the first line, or None."""
    first = plain_text.strip().split("\n", 1)[0]
    match = _LEADING.match(unicodedata.normalize("NFKC", first).replace(":", "："))
    if match is None:
        return None
    words = match.group(1)
    if words[-1] in _SIGN_LOOKALIKES or all(c in _SIGN_LOOKALIKES for c in words):
        return None
    return words


def rest_of_line_text(plain_text: str, words: str) -> str:
    """The line reader's text without the leading words (and their colon)."""
    text = plain_text.lstrip()
    match = re.match(rf"^{re.escape(words)}\s*[:：]?\s*", unicodedata.normalize("NFKC", text))
    if match is None:
        return plain_text
    return unicodedata.normalize("NFKC", text)[match.end() :]


def usable_reading(text: str) -> bool:
    """Whether a reading holds anything a student could correct: a letter or a digit besides
    the Chinese words before a formula (解方程：). A photo whose incomplete reading has none
    ('÷#', '*×★', '计算：', nothing) is to be taken again, not shown. Chinese words alone
    with no colon after them are a sentence (小明有), which is usable."""
    words = leading_words(text)
    rest = rest_of_line_text(text, words) if words else text
    if words and rest == "" and not re.match(rf"^\s*{re.escape(words)}\s*[:：]", text):
        return True
    return any(c.isalnum() for c in rest)
