"""Is a model's `final_answer` an answer a student may see?

A final answer is short: a number, an expression, an equation or a few words. Weak models
fill it with the rest of their reply instead: the prompt echoed back ("The original problem
was: …"), JSON or XML fragments, paragraphs of prose. Such a reply is "no answer" from that
provider (SOLVE records why and asks the next one); it is never checked, stored or shown.

So is a hedge ("maybe 12", "12 or 13" where one value is asked: `app/llm/hedges.py`).
"""

from __future__ import annotations

import re

from app.llm.hedges import hedges

DEFAULT_MAX_CHARS = 200
# Longest run of the problem's own words an answer may repeat ("the number of apples").
ECHO_WORDS = 8
MAX_LINES = 3  # "x = 1\ny = 2\nz = 3" is an answer; a paragraph is not
PROSE_LINE_WORDS = 6  # words of letters on one line, in a multi-line answer, that make it prose

_TAG = re.compile(r"</?[A-Za-z][\w:-]*(\s[^<>]*)?/?>")
_JSON_KEY = re.compile(r"[\"']\s*:\s*|[{,]\s*[\"'][A-Za-z_]\w*[\"']\s*:")
_PROMPT_ECHO = re.compile(
    r"original problem|the problem (was|is):|final_answer|independent_answer|is_correct"
    r"|```|\bassistant\s*:|\buser\s*:|\bsystem\s*:",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_]+")


def _braces_balanced(text: str) -> bool:
    depth = 0
    for char in text:
        if char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _echoes(answer: str, problem: str) -> bool:
    """True when the answer repeats ECHO_WORDS consecutive words of the problem."""
    problem_words = _words(problem)
    if len(problem_words) < ECHO_WORDS:
        return False
    runs = {
        tuple(problem_words[i : i + ECHO_WORDS]) for i in range(len(problem_words) - ECHO_WORDS + 1)
    }
    answer_words = _words(answer)
    return any(
        tuple(answer_words[i : i + ECHO_WORDS]) in runs
        for i in range(len(answer_words) - ECHO_WORDS + 1)
    )


def unusable_answer_reason(
    answer: str, *, problem: str = "", max_chars: int = DEFAULT_MAX_CHARS
) -> str | None:
    """Why `answer` cannot be shown as a final answer, or None when it can."""
    text = answer.strip()
    if not text:
        return "empty answer"
    if any((ord(c) < 32 and c not in "\t\n\r") or c in "\x7f\ufffd" for c in text):
        return "answer contains control characters"  # U+FFFD: a character lost on the way
    if len(text) > max_chars:
        return f"answer longer than {max_chars} characters"
    if hedges(text, problem):
        return "answer hedges between values"
    if _PROMPT_ECHO.search(text) or (problem and _echoes(text, problem)):
        return "answer echoes the prompt"
    if _TAG.search(text):
        return "answer contains markup tags"
    if _JSON_KEY.search(text) or not _braces_balanced(text):
        return "answer contains JSON or unbalanced brackets"
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > MAX_LINES:
        return f"answer spans {len(lines)} lines"
    if len(lines) > 1 and any(len(_words(line)) >= PROSE_LINE_WORDS for line in lines):
        return "answer is several lines of prose"
    return None
