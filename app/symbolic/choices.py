"""A multiple-choice problem: its stem and the options it lists ("What is 7 + 8? A. 14 B. 15
C. 16 D. 17", "(A) 14 (B) 15", "A.8 B.9 C.10", "选择：A.8 B.9", "A: 14; B: 15"), and an answer
that names one ("B", "(B)", "B.", "选B", "答案是B", "The answer is B.").

The options are read only when their letters run A, B, C … in order, each once, two at least:
anything else is not a list of options the reader is sure about.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# "A. 14", "A.8", "(A) 14", "（A）14", "A) 14", "A: 14", "A、14", after a space, a start or a
# mark (not inside a word: "Mr. A. Smith" has no B after it, and no "B." follows "USA.").
# The full stop follows the letter at once: in "A .5 B .25" it is the options' decimal point
# (read as a marker, .25 was 25 and B verified for 25 × 1).
# Capitals, or small letters throughout ("a. 14 b. 15").
_MARKER = re.compile(
    r"(?:^|(?<=[\s:：。.?？;；,，]))(?:[(（]([A-Fa-f])[)）]|([A-Fa-f])(?:[.．]|\s*[:：、)）]))\s*"
)
# What introduces the options at the stem's end: "Choose one:", "Options:", "选择：".
_INTRO = re.compile(
    r"(?:\b(?:choose|select|pick)(?:\s+(?:one|the\s+(?:right|correct)\s+(?:answer|option)))?"
    r"|\boptions?|\bchoices?|选择|选项|从下面选)\s*[:：]?\s*$",
    re.IGNORECASE,
)
# "选择：7+8= A.14 B.15": a word that says the problem is a choice, before the stem.
_LEAD = re.compile(r"^\s*(?:选择题?|单选题?|multiple\s+choice)\s*[:：.]?\s*", re.IGNORECASE)
_CHOSEN = re.compile(
    r"\s*(?i:(?:the\s+)?(?:correct\s+)?(?:answer|option|choice)\s+is\s*:?\s*|(?:option|choice)\s+"
    r"|选\s*|答案\s*[是为:：]?\s*|答\s*[:：]\s*)?"
    r"[(（]?([A-Fa-f])[)）]?(?:(?:\s*[.．:：、]\s*|\s+)(.*?))?\s*[.。．!]?\s*",
)
_LETTER_WORDS = re.compile(r"answer|option|choice", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Choices:
    stem: str
    options: dict[str, str]  # letter (a capital) → the option as written
    small: bool = False  # lettered a, b, c: a small letter names an option too


def choices_in(text: str) -> Choices | None:
    """The stem and options of a multiple-choice problem, or None."""
    markers = list(_MARKER.finditer(text))
    letters = [m.group(1) or m.group(2) for m in markers]
    expected = [chr(ord("A") + i) for i in range(len(markers))]
    small = letters == [c.lower() for c in expected]
    if len(markers) < 2 or not (small or letters == expected):
        return None
    if text[: markers[0].start()].rstrip()[-1:].isalnum():
        return None  # "… than jar A. Jar C has …": a name ending a sentence, not option A
    letters = expected
    ends = [m.start() for m in markers[1:]] + [len(text)]
    options = {
        letter: text[m.end() : end].strip().rstrip(".。;；,，").strip()
        for letter, m, end in zip(letters, markers, ends, strict=True)
    }
    stem = _INTRO.sub("", text[: markers[0].start()].rstrip())
    stem = _LEAD.sub("", stem).strip()
    if not stem or not all(options.values()):
        return None
    if not all(_whole(part) for part in (stem, *options.values())):
        return None  # "(1 + a)(1 + b)(1 + c)": letters inside mathematics, cut apart
    return Choices(stem, options, small)


_PAIRS = {")": "(", "]": "[", "}": "{", "）": "（"}


def _whole(part: str) -> bool:
    """Every bracket it opens it closes, and its $…$ mathematics is closed: a stem or an
    option, not a piece of an expression."""
    stack: list[str] = []
    for ch in part:
        if ch in "([{（":
            stack.append(ch)
        elif ch in _PAIRS and (not stack or stack.pop() != _PAIRS[ch]):
            return False
    return not stack and part.replace("\\$", "").count("$") % 2 == 0


def chosen(answer: str, choices: Choices) -> str | None:
    """The letter an answer names ("B", "(B)", "选B", "The answer is B.", "B. 15" where 15 is
    option B), listed or not ("D" where the options end at C names no option: it is wrong)."""
    match = _CHOSEN.fullmatch(answer)
    if match is None:
        return None
    letter, said = match.group(1), match.group(2)
    if letter.islower() and not choices.small and not _LETTER_WORDS.search(answer):
        return None  # "b", "b. 15": a variable, perhaps; a capital names an option
    letter = letter.upper()
    if said and _compact(said) != _compact(choices.options.get(letter, "")):
        return None  # "B. 16" where B is 15: which one is meant?
    return letter


def _compact(text: str) -> str:
    return re.sub(r"\s+", "", text).rstrip(".。").lower()
