"""Letters run together: "xy" is the product x·y; "cbrt(" is a function this reader lacks.

A word made only of the problem's one-letter variables ("3xy", "ab", "xx") is a product, and
is spaced out so that both readings see x·y. A word that mixes variables with other letters
("abc" when there is no c), or an unknown name glued to a number or a parenthesis ("cbrt(x)",
"sgn(x)", "5cm"), is neither prose nor mathematics this reader models: it abstains.
"""

from __future__ import annotations

import re

from app.symbolic.normalize import FUNCTION_NAMES, ParseError

KNOWN_NAME = re.compile(rf"(?:{FUNCTION_NAMES}|pi)[a-zA-Z]?")
_LETTER = re.compile(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])")
_WORD = re.compile(r"[A-Za-z]{2,}")
MAX_PRODUCT_LETTERS = 4


def space_products(text: str) -> str:
    """'3xy' → '3x y' when x and y are the problem's letters; refuse what cannot be placed."""
    letters = set(_LETTER.findall(text))

    def word(match: re.Match[str]) -> str:
        name = match.group(0)
        if KNOWN_NAME.fullmatch(name):
            return name
        before = text[match.start() - 1] if match.start() else " "
        after = text[match.end()] if match.end() < len(text) else " "
        glued = before.isdigit() or before == ")" or after == "(" or after.isdigit()
        short = len(name) <= MAX_PRODUCT_LETTERS
        variables = sum(ch in letters for ch in name)
        if short and variables == len(name):
            return " ".join(name)
        if glued or (short and variables >= 2):
            raise ParseError(f"{name!r}: an unknown name or a product with an unknown letter")
        return name

    return _WORD.sub(word, text)
