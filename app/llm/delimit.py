"""Untrusted text (the student's problem, a model's answer) is data, wrapped in tags.

Prompts tell the model that everything inside the tags is data; any spelling of the tag inside
the data is defanged so a problem cannot end its own block and start issuing instructions.
Tags are looked for in a normalized view of the text (NFKC folds "＜" into "<", zero-width
and other format characters are dropped) so look-alikes, `</problem x=1>`, `</ PROBLEM>` and
`</problem\u200b>` are caught too; the text itself is left as written (NFKC would turn "x²"
into "x2"), only the "<" that opens a tag becomes "‹".
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

DEFANGED_BRACKET = "‹"


@lru_cache(maxsize=32)
def _tag_pattern(tag: str) -> re.Pattern[str]:
    # Linear: starts only at "<", possessive runs, and attributes end at the next "<" or ">".
    return re.compile(rf"<\s*+/?\s*+{re.escape(tag)}(?![^\W_])[^<>]*+>", re.I)


def _normalized_view(text: str) -> tuple[str, list[int]]:
    """The NFKC form of `text` without format characters, and for each of its characters the
    index of the original character it came from."""
    pieces: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        if unicodedata.category(char) == "Cf":  # zero-width space/joiners, BOM, bidi marks
            continue
        folded = unicodedata.normalize("NFKC", char) if not char.isascii() else char
        pieces.append(folded)
        origin.extend([index] * len(folded))
    return "".join(pieces), origin


def defang(tag: str, text: str) -> str:
    """`text` with the opening bracket of every spelling of <tag> / </tag> replaced."""
    if text.isascii():
        # Every prompt passes here. ASCII has no format characters and is its own NFKC form:
        # the view is the text itself, and without a "<" no tag can start.
        if "<" not in text:
            return text
        view, origin = text, list(range(len(text)))
    else:
        view, origin = _normalized_view(text)
    starts = {origin[m.start()] for m in _tag_pattern(tag).finditer(view)}
    if not starts:
        return text
    return "".join(DEFANGED_BRACKET if i in starts else c for i, c in enumerate(text))


def wrap(tag: str, text: str) -> str:
    return f"<{tag}>\n{defang(tag, text)}\n</{tag}>"


def unwrap(tag: str, text: str) -> str | None:
    """The content of the last <tag> block in text, or None (two scans from the end: no
    backtracking over text that could be long)."""
    opening, closing = f"<{tag}>", f"</{tag}>"
    end = text.rfind(closing)
    start = text.rfind(opening, 0, end) if end >= 0 else -1
    if start < 0:
        return None
    content = text[start + len(opening) : end]
    content = content.removeprefix("\n")
    return content.removesuffix("\n")
